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

  it("shows Cost / 1,000 from the unrounded mean, not its 6-decimal JSON figure rounded again", () => {
    // 0.300003 over 4 replays: the mean × 1,000 is 75.00075000000001 ($75.0008); the JSON's
    // 6-decimal 75.00075 is the float 75.000749999… and printed at 4 decimals read $75.0007.
    const results = [0.0000015, 0.000001, 0.1, 0.2000005].map((cost, i) => fakeResult({ key: `s${i}`, label: "m1", cost }));
    results.push(fakeResult({ key: "s0", label: "m2", score: 0.5 }));
    const report = new Report({ results, models: [model("m1"), model("m2")] });
    const row = report.verdictMarkdown().split("\n").find((line) => line.startsWith("| `m1` |"));
    expect(row?.split(" | ").slice(7, 9)).toEqual(["$0.3000", "$75.0008"]);
    const doc = report.toJSON();
    expect(doc.summary_by_model?.m1).toMatchObject({ cost: 0.300003, cost_per_1000: 75.00075 });
    // Rebuilt from its JSON, the report renders the same bytes (its summaries are recomputed from the results).
    const rebuilt = Report.fromJSON(JSON.parse(JSON.stringify(doc)));
    expect(rebuilt.toMarkdown()).toBe(report.toMarkdown());
    expect(rebuilt.toHtml()).toBe(report.toHtml());
    expect(JSON.stringify(rebuilt.toJSON().summary_by_model)).toBe(JSON.stringify(doc.summary_by_model));
  });

  it("gives the page's cost per scenario from the unrounded mean too", () => {
    // Mean 0.0012499999 is $0.0012; via the 6-decimal cost_per_1000 (1.25) it read $0.0013.
    const results = ["a", "b"].map((key) => fakeResult({ key, label: "m1", cost: 0.0012499999 }));
    const report = new Report({ results, models: [model("m1")] });
    expect(report.summaryByModel.m1.cost_per_1000).toBe(1.25);
    const html = report.toHtml();
    expect(html).toContain("$0.0012/scenario");
    expect(html).not.toContain("$0.0013/scenario");
  });
});
