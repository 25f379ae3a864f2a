// What the projector says when its loop fails and tries again (a database that refuses, or does
// not answer by the query deadline): before, nothing at all, so during a database hang or
// outage the projector was silent. One line per failure, the same line at most every 30 s with
// how many times it repeated since (the loop tries again every second).
import { RepeatLimiter, type OutageOptions } from "@verdict/infra/logging";
import { queryTimeoutOf } from "@verdict/infra/pg";

/** Longest error text a line shows: knex puts the failed SQL, with its parameters (a batch's events), before its error. */
const SHOWN = 300;

export function projectorRetryLines(warn: (line: string) => void = (line) => console.error(line), options: OutageOptions = {}): (error: unknown) => void {
  const limiter = new RepeatLimiter(options);
  return (error) => {
    const line = limiter.pass(`[projector] ${failureText(error)}; trying again`);
    if (line !== null) warn(line);
  };
}

/** A deadline's own words (without the SQL in front), or the error's message, cut at SHOWN characters. */
function failureText(error: unknown): string {
  const timeout = queryTimeoutOf(error);
  if (timeout) return timeout.queryTimeout;
  const message = error instanceof Error ? error.message : String(error);
  return message.length > SHOWN ? `${message.slice(0, SHOWN)}… (${message.length} characters)` : message;
}
