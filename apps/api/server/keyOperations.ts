// Operations going at once per API key, across all of its graphql-ws sockets. maxSocketOperations
// bounds one socket, but a key may open as many sockets as it likes: 10 sockets x 100 runEvents
// subscriptions, each with its own catch-up read and poll, stalled every request to an embedded
// API (PGlite runs on its thread) for 17 s, other keys' included.
// Counted from graphql-ws's own table of each socket's operations, so an operation that ends any
// way at all (completed, failed, cancelled, its socket gone) is no longer counted.
import type { WebSocket } from "ws";

interface SocketOperations {
  subscriptions: Record<string, unknown>;
}

export class KeyOperations {
  private readonly sockets = new Map<string, Set<SocketOperations>>();

  /** Counts `ctx`'s operations under `keyId` until `socket` closes. */
  track(keyId: string, ctx: SocketOperations, socket: WebSocket): void {
    // A socket that closed while its key was checked has had its close event: never counted.
    if (socket.readyState !== socket.OPEN) return;
    let open = this.sockets.get(keyId);
    if (!open) this.sockets.set(keyId, (open = new Set()));
    open.add(ctx);
    socket.once("close", () => {
      open.delete(ctx);
      if (open.size === 0 && this.sockets.get(keyId) === open) this.sockets.delete(keyId);
    });
  }

  /** Operations going under `keyId` on all its sockets (one being subscribed included). */
  count(keyId: string): number {
    let total = 0;
    for (const ctx of this.sockets.get(keyId) ?? []) total += Object.keys(ctx.subscriptions).length;
    return total;
  }
}
