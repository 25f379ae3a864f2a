// A graphql-ws client that goes away while answers are being sent to it (a reset connection, a
// closed socket) fails each of its operations' pending sends, and graphql-ws answers that as the
// operation's error. Nobody is left to read the answer and nothing failed on our side: logged as
// internal errors, with their stacks, one client leaving with 500 subscriptions wrote 529 entries,
// so any client could flood the log.
import type { WebSocket } from "ws";
import { GraphQLError } from "graphql";

/** What a write to a socket whose peer has gone fails with. */
const PEER_GONE_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"]);

/** Whether `error`, an operation's on `socket`, is its client having gone away. */
export function peerWentAway(socket: WebSocket, error: unknown): boolean {
  if (socket.readyState !== socket.OPEN) return true;
  for (let current: unknown = error; current instanceof Error; current = next(current)) {
    if (PEER_GONE_CODES.has(String((current as Error & { code?: unknown }).code))) return true;
  }
  return false;
}

/** The error `error` wraps: graphql-ws wraps what a subscription threw as a GraphQLError's originalError. */
function next(error: Error): unknown {
  return error instanceof GraphQLError ? error.originalError : error.cause;
}
