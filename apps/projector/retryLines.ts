// What the projector says when its loop fails and tries again (a database that refuses, or does
// not answer by the query deadline): before, nothing at all, so during a database hang or
// outage the projector was silent. One line per failure, the same line at most every 30 s with
// how many times it repeated since (the loop tries again every second).
import { RepeatLimiter, type OutageOptions } from "@verdict/infra/logging";
import { errorCauseText, queryTimeoutOf } from "@verdict/infra/pg";

export function projectorRetryLines(warn: (line: string) => void = (line) => console.error(line), options: OutageOptions = {}): (error: unknown) => void {
  const limiter = new RepeatLimiter(options);
  return (error) => {
    const line = limiter.pass(`[projector] ${failureText(error)}; trying again`);
    if (line !== null) warn(line);
  };
}

/**
 * A deadline's own words, or the error's: without the SQL knex puts in front (with its
 * parameters: a batch's events), which cut at the start of the message left out why it failed.
 */
function failureText(error: unknown): string {
  return queryTimeoutOf(error)?.queryTimeout ?? errorCauseText(error);
}
