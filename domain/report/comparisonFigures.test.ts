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
