// Errors that say the connection went away, not that the statement was wrong: the server ended
// the session (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), a
// connection exception that is one (08000, 08001 cannot connect, 08003 no connection, 08004
// rejected, 08006 failure; not the rest of class 08, 08P01 protocol violation above all: a
// wrong parameter count in our own query, a bug to be logged with its stack), or the socket
// closed under the client. A read that failed this way may be sent again on a new connection; a
// write may not be assumed undone.

const SESSION_ENDED = new Set(["57P01", "57P02", "57P03"]);
const CONNECTION_EXCEPTION = new Set(["08000", "08001", "08003", "08004", "08006"]);
const SOCKET_CLOSED = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"]);

export function isConnectionLoss(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (SESSION_ENDED.has(code) || SOCKET_CLOSED.has(code) || CONNECTION_EXCEPTION.has(code))) return true;
  // pg's own words when the socket ends under a query, or when a query is sent on a client whose
  // connection already failed (a FATAL between two statements): it gives them no code (knex
  // puts the failed SQL and " - " in front of them).
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && /(^| - )(Connection terminated|Client has encountered a connection error and is not queryable)/.test(message);
}

/**
 * An error's own words, without what knex put in front (the failed SQL with its parameters, then
 * " - "), cut to their last `shown` characters: the cause, which a line that shows the start
 * of a message cuts off.
 */
export function errorCauseText(error: unknown, shown = 300): string {
  const message = error instanceof Error ? error.message : String(error);
  const separator = message.lastIndexOf(" - ");
  const cause = separator === -1 ? message : message.slice(separator + 3);
  return cause.length > shown ? `…${cause.slice(-shown)} (${cause.length} characters)` : cause;
}
