import { describe, expect, it } from "vitest";
import type { EventData } from "@verdict/domain";
import { rebuildReport } from "./rebuildReport.js";
import type { RunHistory } from "./runEvents.js";

const importedHistory = (report: Record<string, unknown>): RunHistory => ({
  runId: "imp-1",
  tenant: "acme",
  events: [],
  parsed: [],
  record: null,
  imported: { report } as unknown as EventData<"ReportImported">,
  criterionKeys: [],
  status: "completed",
  failure: null,
});

describe("rebuildReport of an imported run", () => {
  const models = { m: { provider: "openai", model: "m" } };
  const results = [{ scenario_key: "a", label: "m", status: "passed" }];

  it("renders the report it was imported with", () => {
    expect(rebuildReport(importedHistory({ models, results })).toMarkdown()).toContain("`m`");
  });

  // Imported before session 27, when any threshold, and any score, was taken: Report.fromJSON
  // refuses such a document, the stored run keeps rendering what it recorded.
  it("renders a document stored under older rules as recorded: a threshold of 70, a score past 1", () => {
    const markdown = rebuildReport(importedHistory({ models, threshold: 70, results: [{ ...results[0], score: 2, scores: { min_length: 85 } }] })).toMarkdown();
    expect(markdown).toContain("Pass threshold: ≥ 7000%");
    expect(markdown).toContain("200%");
  });

  // Imports now refuse such a document (importedReport.ts); one stored before that still reads as CONFLICT.
  it("answers CONFLICT, naming why, for a stored document whose comparison cannot be read back", () => {
    const comparison = { models: { m: { scenarios: 1, pass_rate: 170, interval: null } }, pairs: [], conclusion: "" };
    expect(() => rebuildReport(importedHistory({ models, results, comparison }))).toThrow(
      expect.objectContaining({ apiCode: "CONFLICT", message: expect.stringMatching(/imp-1 is an imported report that cannot be rendered \(Report: comparison\.models\.m\.pass_rate: must be within 0\.\.100, got 170\)/) }),
    );
  });
});
