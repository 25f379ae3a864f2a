// A graphql-ws socket's key, asked again while the socket stays open. Each operation checks the
// key when it starts (onSubscribe), but a subscription started before its key was revoked would
// otherwise go on streaming its run for as long as the run lasts, and an external run may stay
// open for days. Once the key is refused, the socket is closed as connection_init refuses one:
// 4403, which ends every operation on it.
import type { WebSocket } from "ws";
import { ApiError } from "./errors.js";

/** Longest delay a timer takes: Node runs a longer (or negative) one every millisecond. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `verify` every `everyMs` until the socket closes; closes the socket (4403) once `verify`
 * throws an ApiError. Any other error (the key store unreachable) leaves the socket open until a
 * later check answers: new operations are refused meanwhile, and their errors are logged.
 */
export function closeSocketWhenKeyRefused(socket: WebSocket, verify: () => Promise<unknown>, everyMs: number): void {
  // A socket that closed while its key was first checked has had its close event: a timer started
  // now would never be cleared, and would ask the key store every second for the process's life.
  if (socket.readyState !== socket.OPEN) return;
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return; // the store is slow: one question at a time per socket
    checking = true;
    verify().then(
      () => undefined,
      (error) => {
        if (!(error instanceof ApiError)) return;
        clearInterval(timer);
        socket.close(4403, `UNAUTHENTICATED: ${error.message}`.slice(0, 120));
      },
    ).finally(() => {
      checking = false;
    });
  }, Math.min(everyMs, MAX_TIMER_MS));
  timer.unref();
  socket.once("close", () => clearInterval(timer));
}
