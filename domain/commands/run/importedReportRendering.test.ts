// An imported report's pages are rendered from the document it was imported with: what a page
// reads besides the results (agent, judge, verdict, comparison, release, metadata, the models'
// summaries) is checked at import, naming the field, so no accepted import becomes a run whose
// pages answer CONFLICT for good.
import { describe, expect, it } from "vitest";
import { Report, type ReportDocument } from "../../report/index.js";
import { checkImportedReport } from "./importedReport.js";

const report = {
  models: { a: { provider: "openai", model: "a" }, b: { provider: "openai", model: "b" } },
  results: [
    { scenario_key: "k", label: "a", status: "failed", score: 0.2, prompt: "p" },
    { scenario_key: "k", label: "b", status: "passed", score: 1, prompt: "p" },
  ],
};

const refusal = (extra: Record<string, unknown>) => {
  try {
    checkImportedReport({ ...report, ...extra });
  } catch (error) {
    return { message: (error as Error).message, field: (error as { field?: string }).field };
  }
  return null;
};

describe("an imported report's header, verdict and comparison", () => {
  it("refuses what a page could not render, naming the field", () => {
    expect(refusal({ judge: 5 })).toEqual({ message: "report.judge must be a string", field: "report.judge" });
    expect(refusal({ agent_name: 5 })).toEqual({ message: "report.agent_name must be a string", field: "report.agent_name" });
    expect(refusal({ verdict: { winner: "a", rationale: { x: 1 }, judge: null } })).toEqual({ message: "report.verdict.rationale must be a string", field: "report.verdict.rationale" });
    expect(refusal({ verdict: [1] })).toEqual({ message: "report.verdict must be an object (winner, rationale, judge) or null", field: "report.verdict" });
    expect(refusal({ comparison: "x" })).toEqual({ message: "report.comparison must be an object (the recorded comparison) or null", field: "report.comparison" });
    expect(refusal({ models: { a: null, b: report.models.b } })).toEqual({ message: "report.models.a must be an object (the model's summary)", field: "report.models" });
    expect(refusal({ models: { a: { provider: 5, model: "a" }, b: report.models.b } })).toEqual({ message: "report.models.provider must be a string", field: "report.models.provider" });
  });

  it("refuses a best model that was not compared, and a release or metadata that is not an object", () => {
    expect(refusal({ verdict: { winner: "zzz", rationale: "r", judge: "j" } })?.message).toBe(
      'report.verdict.winner must be null, "" or a model label from report.models, got "zzz"',
    );
    expect(refusal({ release: "v1" })?.field).toBe("report.release");
    expect(refusal({ release: { label: 7 } })?.field).toBe("report.release.label");
    expect(refusal({ metadata: [1] })?.field).toBe("report.metadata");
  });

  it("refuses a release startRun would refuse for its keys or lengths, naming the field: a misspelt key was dropped, and the label with it", () => {
    expect(refusal({ release: { digest: "bbbbbbbbbb11", labl: "1.1" } })).toEqual({
      message: "report.release.labl: unknown key; a release takes digest, revision and label (did you mean label?)",
      field: "report.release.labl",
    });
    expect(refusal({ release: { digest: "d", version: "1" } })?.message).toBe("report.release.version: unknown key; a release takes digest, revision and label");
    for (const part of ["digest", "revision", "label"]) {
      expect(refusal({ release: { digest: "d", [part]: "x".repeat(201) } })).toEqual({
        message: `report.release.${part}: must be at most 200 characters (it has 201)`,
        field: `report.release.${part}`,
      });
      expect(refusal({ release: { digest: "d", [part]: "x".repeat(200) } })).toBeNull();
    }
  });

  it("takes a release with no digest, or a blank one (the reference's, read as no pinned release), as before", () => {
    expect(refusal({ release: { label: "1.1" } })).toBeNull();
    expect(refusal({ release: { digest: "", label: "1.1" } })).toBeNull();
    expect(refusal({ release: { digest: "  ", revision: null, label: "1.1" } })).toBeNull();
    expect(refusal({ release: {} })).toBeNull();
    expect(refusal({ release: null })).toBeNull();
  });

  it("accepts, and renders, a report with a verdict, a release and metadata", () => {
    const full = { ...report, judge: "claude-opus-5", agent_name: "SupportAgent", verdict: { winner: "b", rationale: "b passes", judge: "claude-opus-5" }, release: { label: "v1" }, metadata: { ci: "nightly" } };
    expect(() => checkImportedReport(full)).not.toThrow();
    expect(Report.fromJSON(full as unknown as ReportDocument).toMarkdown()).toContain("b passes");
    expect(refusal({ verdict: null, comparison: null, judge: null })).toBeNull();
    // An empty winner renders as no best model, as the reference writes it: accepted as before.
    expect(refusal({ verdict: { winner: "", rationale: "no clear winner", judge: "j" } })).toBeNull();
  });
});
