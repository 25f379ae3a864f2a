import { describe, expect, it } from "vitest";
import { progressPublishErrors } from "./progressPublishErrors.js";

describe("progressPublishErrors", () => {
  it("says a failure once per 30 s with its repeats counted, not once a second through an outage", () => {
    let now = 0;
    const lines: string[] = [];
    const report = progressPublishErrors((line) => lines.push(line), { now: () => now });
    const refused = new Error("connect ECONNREFUSED 127.0.0.1:15442");
    // The announcer's retry: once a second for 68 s.
    for (; now < 68_000; now += 1000) report(refused);
    expect(lines).toEqual([
      "[projector] progress not published: connect ECONNREFUSED 127.0.0.1:15442",
      "[projector] progress not published: connect ECONNREFUSED 127.0.0.1:15442 (repeated 29 more times since it was last shown)",
      "[projector] progress not published: connect ECONNREFUSED 127.0.0.1:15442 (repeated 29 more times since it was last shown)",
    ]);
    // Another failure is its own line at once.
    report(new Error("Connection terminated unexpectedly"));
    expect(lines.at(-1)).toBe("[projector] progress not published: Connection terminated unexpectedly");
  });
});
