// Errors that say the connection went away, not that the statement was wrong: the server ended
// the session (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), a
// connection exception (SQLSTATE class 08), or the socket closed under the client. A read that
// failed this way may be sent again on a new connection; a write may not be assumed undone.

const SESSION_ENDED = new Set(["57P01", "57P02", "57P03"]);
const SOCKET_CLOSED = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"]);

export function isConnectionLoss(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (SESSION_ENDED.has(code) || SOCKET_CLOSED.has(code) || code.startsWith("08"))) return true;
  // pg's own words when the socket ends under a query: it gives them no code (knex puts the
  // failed SQL and " - " in front of them).
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && /(^| - )Connection terminated/.test(message);
}
