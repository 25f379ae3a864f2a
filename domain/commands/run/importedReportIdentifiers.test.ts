// An imported report is new input: its model labels and scenario keys follow the rule every
// other way in holds them to (support/identifierText), while Report.fromJSON, which also reads
// reports stored before the rule, still reads them.
import { describe, expect, it } from "vitest";
import { Report, type ReportDocument } from "../../report/index.js";
import { checkImportedReport } from "./importedReport.js";

const report = (labels: [string, string], keys: [string, string]) => ({
  models: { [labels[0]]: { provider: "openai", model: "a" }, [labels[1]]: { provider: "openai", model: "b" } },
  threshold: 0.7,
  results: [
    { scenario_key: keys[0], label: labels[0], status: "passed", score: 1, scores: {}, prompt: "p" },
    { scenario_key: keys[1], label: labels[1], status: "passed", score: 1, scores: {}, prompt: "p" },
  ],
});

describe("an imported report's labels and keys", () => {
  it("refuses a label or key holding an invisible, control or bidi character, naming the field", () => {
    expect(() => checkImportedReport(report(["a", "\u30e2\u30c7\u30eb\u202e"], ["k", "k"]))).toThrow(
      expect.objectContaining({ field: "report.models", message: 'report.models: the label "\u30e2\u30c7\u30eb\\u{202E}" must not contain U+202E RIGHT-TO-LEFT OVERRIDE (at character 4): control, bidi and invisible characters are refused in keys, labels and tool names' }),
    );
    expect(() => checkImportedReport(report(["a", "b"], ["k", "a\u200bb"]))).toThrow(expect.objectContaining({ field: "report.results[1].scenario_key", message: expect.stringContaining("U+200B ZERO WIDTH SPACE (at character 2)") }));
  });

  it("refuses two labels or two keys that read alike", () => {
    expect(() => checkImportedReport(report(["gpt-5-mini", "g\u0440t-5-mini"], ["k", "k"]))).toThrow(expect.objectContaining({ field: "report.models", message: expect.stringContaining("read alike") }));
    expect(() => checkImportedReport(report(["a", "b"], ["ab", "\u0430b"]))).toThrow(expect.objectContaining({ field: "report.results", message: expect.stringContaining('scenario keys "ab" and "\u0430b" read alike') }));
  });

  it("leaves a stored report readable (Report.fromJSON)", () => {
    expect(() => Report.fromJSON(report(["a", "g\u200bpt"], ["cafe\u0301", "k"]) as unknown as ReportDocument)).not.toThrow();
  });
});
