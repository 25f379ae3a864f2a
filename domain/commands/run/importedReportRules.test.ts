// importReport and Report.fromJSON hold a report document to one set of rules for its threshold,
// scores and labels (report/documentRules.ts): the same document is refused by both, with the same
// rule, the import naming the field (and the fields it cites) under `report.`.
import { describe, expect, it } from "vitest";
import { Report, type ReportDocument } from "../../report/index.js";
import { checkImportedReport } from "./importedReport.js";

const report = () => ({
  models: { a: { provider: "openai", model: "a" }, b: { provider: "openai", model: "b" } },
  threshold: 0.7 as unknown,
  results: [
    { scenario_key: "k", label: "a", status: "failed", score: 0.2, scores: { min_length: 0.2 }, prompt: "p" },
    { scenario_key: "k", label: "b", status: "passed", score: 1, scores: { min_length: 1 }, prompt: "p" } as Record<string, unknown>,
  ],
});

const CASES: Array<[string, (doc: ReturnType<typeof report>) => void]> = [
  ["a percent-style threshold", (doc) => (doc.threshold = 70)],
  ["a criterion score past 1", (doc) => (doc.results[1].scores = { min_length: 85 })],
  ["a score given as text", (doc) => (doc.results[1].score = "1")],
  ["a label not among the models", (doc) => (doc.results[1].label = "c")],
  ["a repeated scenario and model", (doc) => (doc.results[1].label = "a")],
  ["an unknown status", (doc) => (doc.results[1].status = "ok")],
];

function messages(doc: ReturnType<typeof report>): { imported: unknown; read: unknown } {
  const caught = (run: () => void) => {
    try {
      run();
    } catch (error) {
      return { message: (error as Error).message, field: (error as { field?: string }).field };
    }
    return null;
  };
  return {
    imported: caught(() => checkImportedReport(doc)),
    read: caught(() => Report.fromJSON(doc as unknown as ReportDocument)),
  };
}

describe("an imported report and a saved one read back", () => {
  it.each(CASES)("are refused alike for %s, naming the field", (_name, change) => {
    const doc = report();
    change(doc);
    const { imported, read } = messages(doc);
    const { message, field } = imported as { message: string; field: string };
    expect(field).toMatch(/^report\.(threshold|results\[1\])/);
    expect(message).toMatch(/^report\./);
    expect(read).toEqual({ message: `Report.fromJSON: ${message.replaceAll("report.", "")}`, field: undefined });
  });

  it("check the models the report is rendered from: summary_by_model before the reference library's `models`", () => {
    const doc = { ...report(), summary_by_model: { a: { provider: "openai", model: "a" }, ["m".repeat(300)]: { provider: "openai", model: "m" } } };
    // Its results name models `models` has, and the pages, the projector and the audit read summary_by_model.
    expect(messages(doc).imported).toEqual({ message: "report.models: a label must be at most 200 characters (one has 300)", field: "report.models" });
    expect(messages(doc).read).toEqual({ message: 'Report.fromJSON: results[1].label "b" is missing from models', field: undefined });
  });

  it("are both accepted when they follow the rules", () => {
    expect(messages(report())).toEqual({ imported: null, read: null });
  });
});
