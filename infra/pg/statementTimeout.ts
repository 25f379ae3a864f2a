// Which 57014 (query_canceled) is the server's statement_timeout, the deadline this client set.
// PostgreSQL gives the same SQLSTATE to a cancel by pg_cancel_backend (an operator, a
// supervisor), and the words that tell them apart follow the server's lc_messages: a German
// cluster says "storniere Anfrage wegen Zeitüberschreitung der Anfrage", and a match on the
// English "statement timeout" turned every deadline there into an internal error. So the words
// do not decide; what this client knows does: whether the server took the timeout at all (the
// SET may be refused), whether it was lifted for this statement, and how long the statement had
// run. The server starts its timer after the client sent the query, so a statement it cancelled
// at the deadline has, as this client measures, run at least the deadline; a cancel earlier is
// someone else's.

/** What the client knew of one statement when its answer came. */
export interface StatementDeadline {
  /** The session's statement_timeout in ms; null: the server has none (refused, or lifted for this transaction). */
  serverTimeoutMs: number | null;
  /** From the query's sending to its answer, on this process's monotonic clock. */
  elapsedMs: number;
}

export function isStatementTimeout(error: unknown, deadline: StatementDeadline): error is Error {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== "57014") return false;
  return deadline.serverTimeoutMs !== null && deadline.elapsedMs >= deadline.serverTimeoutMs;
}
