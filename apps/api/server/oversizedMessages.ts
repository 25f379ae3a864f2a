// A graphql-ws message over the size limit: ws closes the socket with 1009 (message too big) and
// reports it as an 'error' on the socket, and graphql-ws logs every socket error as an internal
// one, stack and all, with console.error. So any client could fill the server's log with stacks
// by sending big messages. This takes that one error from graphql-ws and logs it in one line;
// any other socket error still reaches graphql-ws's own handler.
import type { WebSocket, WebSocketServer } from "ws";

/** ws's code for a message over maxPayload. */
const TOO_BIG = "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH";

type SocketErrorHandler = (this: WebSocket, error: Error) => void;

/** Call after useServer(): its connection handler must have run first, to hand its error handler over. */
export function logOversizedMessagesQuietly(wsServer: WebSocketServer, log: (message: string) => void, limit: string): void {
  wsServer.on("connection", (socket: WebSocket) => {
    const theirs = socket.listeners("error") as SocketErrorHandler[];
    socket.removeAllListeners("error");
    socket.once("error", (error: Error & { code?: string }) => {
      if (error.code === TOO_BIG) {
        log(`graphql-ws: closed a socket (1009) whose message was over the ${limit} limit`);
        return;
      }
      for (const handler of theirs) handler.call(socket, error);
    });
  });
}
