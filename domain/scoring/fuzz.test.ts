// Patterns are whatever a scenario's author typed and answers whatever a model wrote: random and
// mutated patterns must match or not, quickly, and never throw.
import { describe, expect, it } from "vitest";
import { seededRandom } from "../stats/prng.js";
import { matchesPattern, patternProblem } from "./pattern.js";

const PIECES = ["a", "refund", "\\d", "\\s", "\\w", ".", "*", "+", "?", "{2,}", "{1,3}", "(", ")", "(?:", "|", "[", "]", "[^x]",
  "^", "$", "\\A", "\\z", "\\", "/", "/i", "(?i)", "#", "ü", "😀", " "];

describe("pattern fuzz", () => {
  it("answers 10,000 random patterns against long answers without throwing or stalling", () => {
    const random = seededRandom(7);
    const answers = [
      `${"a".repeat(3_000)}!`,
      `${"ab ".repeat(1_500)}`,
      `Order #4821 shipped on 2026-05-02. ${"Thanks for waiting. ".repeat(100)}`,
    ];
    const started = performance.now();
    for (let i = 0; i < 10_000; i += 1) {
      let pattern = "";
      const length = 1 + Math.floor(random() * 8);
      for (let j = 0; j < length; j += 1) pattern += PIECES[Math.floor(random() * PIECES.length)];
      if (random() < 0.2) pattern = `/${pattern}/${random() < 0.5 ? "i" : "mu"}`;
      const answer = answers[i % answers.length];
      expect(typeof matchesPattern(answer, pattern)).toBe("boolean");
      const problem = patternProblem(pattern);
      expect(problem === null || typeof problem === "string").toBe(true);
    }
    // The rules in patternSafety.ts bound the worst case; generous for a shared CI machine.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
