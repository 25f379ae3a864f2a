// The Markdown verdict as a reader of a pasted report relies on it: a model's cost marked ~
// when only some of its runs were priced, and the Comparison section's interval level, its
// Decisive column and how the intervals were computed.
import { describe, expect, it } from "vitest";
import { Comparison } from "../stats/index.js";
import { Report } from "./report.js";
import { fakeResult, model, partlyPricedResults } from "./testing.js";

const low = { fault: "low_quality", summary: "s", recommendation: "r" };

describe("the Markdown verdict", () => {
  it("marks a model's cost ~ and its rationale (estimated) when one result was priced and one was not", () => {
    const report = new Report({ results: partlyPricedResults(), models: [model("m1"), model("m2")] });
    const row = report.verdictMarkdown().split("\n").find((line) => line.startsWith("| `m1` |"));
    expect(row?.split(" | ")[7]).toBe("~$0.0100");
    expect(report.verdict?.winner).toBe("m1");
    expect(report.verdict?.rationale).toContain("(estimated)");
  });

  describe("its Comparison section", () => {
    // Both models pass a and b and fail c: a zero difference, not decisive.
    const outcome = (key: string, label: string) => (key === "c" ? fakeResult({ key, label, score: 0.2, diagnosis: low }) : fakeResult({ key, label }));
    const settled = ["a", "b", "c"].flatMap((key) => [outcome(key, "m1"), outcome(key, "m2")]);
    const models = [model("m1"), model("m2")];

    it("heads its intervals with the comparison's own confidence (90%), not a fixed 95%", () => {
      const comparison = new Comparison({ results: settled, models: ["m1", "m2"], confidence: 0.9, resamples: 999 });
      const markdown = new Report({ results: settled, models, comparison }).verdictMarkdown();
      expect(markdown).toContain("| Model | Scenarios | Pass rate | 90% interval |");
      expect(markdown).toContain("| Pair | Scenarios | Difference | 90% interval | Decisive |");
      expect(markdown).not.toContain("95% interval");
    });

    it("says no in the Decisive column for a pair whose interval holds zero, and says how the intervals were computed", () => {
      const report = new Report({ results: settled, models });
      const [pair] = report.comparisonJSON!.pairs;
      expect(pair).toMatchObject({ difference: 0, decisive: false });
      const markdown = report.verdictMarkdown();
      const pairRow = markdown.split("\n").find((line) => line.startsWith("| `m1` − `m2` |"));
      expect(pairRow).toMatch(/ \| no \|$/);
      expect(report.comparisonMethod).toBeTruthy();
      expect(markdown).toContain(`_${report.comparisonMethod}_`);
    });
  });
});
