// The comparison's figures read the same on every surface: Markdown, conclusion, method line and HTML.
import { describe, expect, it } from "vitest";
import { Comparison } from "../stats/index.js";
import { Report } from "./report.js";
import { fakeResult } from "./testing.js";
import type { ReportResult } from "./reportTypes.js";

const models = ["A", "B"].map((label) => ({ label, provider: "p", model: label }));

function results(n: number, passA: number, passB: number): ReportResult[] {
  const out: ReportResult[] = [];
  for (let i = 0; i < n; i++) {
    const key = `s${String(i).padStart(4, "0")}`;
    out.push(fakeResult({ key, label: "A", status: i < passA ? "passed" : "failed" }));
    out.push(fakeResult({ key, label: "B", status: i < passB ? "passed" : "failed" }));
  }
  return out;
}

describe("the comparison's confidence level", () => {
  it("reads the same in the Markdown, the conclusion, the method line and the HTML plot", () => {
    const all = results(10, 7, 3);
    for (const [confidence, label] of [[0.95, "95%"], [0.975, "97.5%"], [0.999, "99.9%"], [0.9995, "99.95%"]] as const) {
      const comparison = new Comparison({ results: all, models: ["A", "B"], confidence });
      const report = new Report({ results: all, models, comparison });
      const markdown = report.toMarkdown();
      const html = report.toHtml({ theme: "light" });
      expect(markdown).toContain(`| Model | Scenarios | Pass rate | ${label} interval |`);
      expect(markdown).toContain(`| Pair | Scenarios | Difference | ${label} interval | Decisive |`);
      expect(comparison.method).toContain(`, ${label} confidence,`);
      if (comparison.pairs[0].decisive) expect(comparison.conclusion).toContain(`, ${label} interval [`);
      expect(html).toContain(`pass rate, ${label} interval</span>`);
      expect(html).not.toMatch(/(^|[^.\d])(100|0)% interval/);
    }
  });
});

describe("a decisive pair past ~2,000 shared scenarios", () => {
  // 3,000 shared scenarios, A passes 4 that B fails and loses none: the exact 95% interval of the
  // difference is about [0.033, 0.267] points, which one decimal would write [0.0, 0.3].
  const all = results(3000, 1504, 1500);

  it("is decided on the exact bounds, and a bound that is not zero is recorded with the decimals it needs", () => {
    const comparison = new Comparison({ results: all, models: ["A", "B"] });
    const pair = comparison.pairs[0];
    expect(pair.models).toEqual(["A", "B"]);
    expect(pair.decisive).toBe(true);
    expect(pair.interval![0]).toBeGreaterThan(0);
    expect(pair.interval![0]).toBeLessThan(0.05);
    expect(pair.interval![1]).toBeCloseTo(0.3, 10);
    expect(comparison.conclusion).toContain(`interval [${pair.interval![0]}, 0.3]`);
  });

  it("shows the bound in the Markdown and the HTML as recorded, never as 0.0 beside 'decisive'", () => {
    const comparison = new Comparison({ results: all, models: ["A", "B"] });
    const low = String(comparison.pairs[0].interval![0]);
    const report = new Report({ results: all, models, comparison });
    expect(report.toMarkdown()).toContain(`| ${low}–0.3 | yes |`);
    expect(report.toHtml({ theme: "light" })).toContain(`[${low}, 0.3] over 3000 shared scenarios <span class="badge ok">decisive</span>`);
  });

  it("leaves an interval recorded by the older rounding as it was: [0.0, 0.3], not decisive", () => {
    const recorded = new Comparison({ results: all, models: ["A", "B"] }).toJSON();
    const old = { ...recorded, pairs: [{ ...recorded.pairs[0], interval: [0, 0.3] as [number, number], decisive: false }], conclusion: "The pairwise difference interval includes zero: the ranking is not decisive evidence of superiority." };
    const report = new Report({ results: all, models, comparison: old });
    expect(report.comparison!.toJSON()).toEqual(old);
    expect(report.toMarkdown()).toContain("| 0.0–0.3 | no |");
  });
});
