// Which of a job's failures the worker's log tells as the database unreachable (one condensed
// line per outage) and which as the job failing (its own line): a connection lost, or a query
// with no answer by the client's deadline (a black hole, a server gone), is the database; a
// statement the server itself cancelled at the deadline (57014) is not: the database answered,
// that query ran too long, and saying "unreachable" sent an operator after the network.
import { isConnectionLoss, queryTimeoutOf } from "@verdict/infra/pg";

export function isDatabaseUnreachable(error: unknown): boolean {
  const timeout = queryTimeoutOf(error);
  if (timeout) return !timeout.byServer;
  return isConnectionLoss(error);
}
