import { describe, expect, it } from "vitest";
import { projectorRetryLines } from "./retryLines.js";

describe("projectorRetryLines", () => {
  it("says why the loop failed once per 30 s with the repeats counted, a deadline in its own words without the SQL knex put in front", () => {
    let now = 0;
    const lines: string[] = [];
    const report = projectorRetryLines((line) => lines.push(line), { now: () => now });
    const words = "PostgreSQL at db:5432/read did not answer within 62000 ms; the query was given up and its connection closed (VERDICT_PG_QUERY_TIMEOUT_MS=60000, with 2000 ms more for the server's own cancel to arrive)";
    const timedOut = Object.assign(new Error(`insert into run_results ... - ${words}`), { code: "ETIMEDOUT", queryTimeoutMs: 60_000, queryTimeout: words });
    // The loop's retry: once a second for 65 s (each attempt waiting out its deadline would be slower: the limit holds either way).
    for (; now < 65_000; now += 1000) report(timedOut);
    expect(lines).toEqual([
      `[projector] ${words}; trying again`,
      `[projector] ${words}; trying again (repeated 29 more times since it was last shown)`,
      `[projector] ${words}; trying again (repeated 29 more times since it was last shown)`,
    ]);
    // knex's SQL, with a batch's values, in front: the line shows the error's own words, its end.
    report(new Error(`insert into "run_results" ("id") values ('${"x".repeat(400)} - y') - terminating connection due to administrator command`));
    expect(lines.at(-1)).toBe("[projector] terminating connection due to administrator command; trying again");
    report(new Error(`select 1 - ${"z".repeat(400)} - why`));
    expect(lines.at(-1)).toBe("[projector] why; trying again");
    report(new Error(`${"w".repeat(350)}!`));
    expect(lines.at(-1)).toBe(`[projector] …${"w".repeat(299)}! (351 characters); trying again`);
  });
});
