// How the projector reports progress it could not publish. The announcer retries every second
// for each run in flight, so while the database is down a line per failure was ~one a second per
// run (68 identical lines in a 68 s outage); the same line now shows at most every 30 s, with
// how many times it repeated since.
import { RepeatLimiter, type OutageOptions } from "@verdict/infra/logging";

export function progressPublishErrors(warn: (line: string) => void = (line) => console.warn(line), options: OutageOptions = {}): (error: unknown) => void {
  const limiter = new RepeatLimiter(options);
  return (error) => {
    const line = limiter.pass(`[projector] progress not published: ${error instanceof Error ? error.message : String(error)}`);
    if (line !== null) warn(line);
  };
}
