// Report.fromJSON reads a saved report.json by the rules importReport checks an imported one with
// (documentRules.ts): a threshold or a score outside 0..1, or a result whose label is not among
// the models, is refused naming the field and the rule, where it rendered "≥ 7000%", averaged past
// 100%, or left the result out of every figure. Report.fromStoredJSON, the platform's reader of
// what it stored under older rules, keeps rendering them as recorded.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Replay } from "../replay/index.js";
import { derivedFromJSONOrNull } from "./derivedFromJson.js";
import { Report } from "./report.js";
import type { ReportDocument } from "./html/index.js";

type Doc = { summary_by_model?: unknown; models?: unknown; threshold?: unknown; results: Record<string, unknown>[] };

function saved(): Doc {
  return {
    summary_by_model: { a: { provider: "openai", model: "a" }, b: { provider: "openai", model: "b" } },
    threshold: 0.7,
    results: [
      { scenario_key: "k", label: "a", status: "failed", score: 0.2, scores: { min_length: 0.2 }, prompt: "p", answer: "no" },
      { scenario_key: "k", label: "b", status: "passed", score: 1, scores: { min_length: 1 }, prompt: "p", answer: "yes" },
    ],
  };
}

function refusal(change: (doc: Doc) => void): string | null {
  const doc = saved();
  change(doc);
  try {
    Report.fromJSON(doc as unknown as ReportDocument);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  return null;
}

afterEach(() => vi.restoreAllMocks());

describe("Report.fromJSON's threshold", () => {
  it("refuses a percent-style threshold, as importReport does, where it rendered \"≥ 7000%\" and failed every answer", () => {
    expect(refusal((doc) => (doc.threshold = 70))).toBe("Report.fromJSON: threshold must be a number from 0 to 1");
    expect(refusal((doc) => (doc.threshold = "0.7"))).toBe("Report.fromJSON: threshold must be a number from 0 to 1");
    expect(refusal((doc) => (doc.threshold = -0.1))).toBe("Report.fromJSON: threshold must be a number from 0 to 1");
  });

  it("reads a share as recorded, and none as 0.7", () => {
    const doc = saved();
    expect(Report.fromJSON({ ...doc, threshold: 1 } as unknown as ReportDocument).threshold).toBe(1);
    expect(Report.fromJSON({ ...doc, threshold: null } as unknown as ReportDocument).toMarkdown()).toContain("Pass threshold: ≥ 70%");
  });
});

describe("Report.fromJSON's scores", () => {
  it("refuses a score or a criterion score that is not a number from 0 to 1, naming its path", () => {
    expect(refusal((doc) => (doc.results[1].scores = { min_length: 85 }))).toBe("Report.fromJSON: results[1].scores.min_length must be a number from 0 to 1");
    expect(refusal((doc) => (doc.results[0].score = -0.5))).toBe("Report.fromJSON: results[0].score must be a number from 0 to 1");
    expect(refusal((doc) => (doc.results[0].score = "0.2"))).toBe("Report.fromJSON: results[0].score must be a number from 0 to 1");
    expect(refusal((doc) => (doc.results[0].scores = [0.2]))).toBe("Report.fromJSON: results[0].scores must be an object keyed by criterion");
  });

  it("takes an unscored criterion (null), as the scorer writes it", () => {
    expect(refusal((doc) => (doc.results[0].scores = { min_length: null }))).toBeNull();
  });
});

describe("Report.fromJSON's labels and results", () => {
  it("refuses a result whose label is not one of the document's models, where it was left out of every figure", () => {
    expect(refusal((doc) => (doc.results[1].label = "c"))).toBe('Report.fromJSON: results[1].label "c" is missing from models');
    expect(refusal((doc) => (doc.results[0].label = 5))).toBe("Report.fromJSON: results[0].label must be a model label from models");
    expect(refusal((doc) => delete doc.summary_by_model)).toBe("Report.fromJSON: models (or summary_by_model) must be an object keyed by model label");
  });

  it("reads the reference library's `models` as its summary_by_model", () => {
    expect(refusal((doc) => ([doc.models, doc.summary_by_model] = [doc.summary_by_model, undefined]))).toBeNull();
  });

  it("refuses a repeated scenario and model, a blank scenario key, an unknown status or fault", () => {
    expect(refusal((doc) => (doc.results[1].label = "a"))).toBe(
      'Report.fromJSON: results[1]: scenario "k" × model "a" repeats results[0] (one result per scenario and model)',
    );
    expect(refusal((doc) => (doc.results[0].scenario_key = " "))).toBe("Report.fromJSON: results[0].scenario_key is required: the key of the scenario the result is for");
    expect(refusal((doc) => (doc.results[0].status = "ok"))).toBe("Report.fromJSON: results[0].status must be one of passed, failed, errored");
    expect(refusal((doc) => (doc.results[0].fault = "nonsense"))).toBe('Report.fromJSON: results[0].fault: unknown fault "nonsense"');
  });

  it("refuses before any result is built", () => {
    const from = vi.spyOn(Replay, "from");
    expect(refusal((doc) => (doc.results[1].score = 2))).not.toBeNull();
    expect(from).not.toHaveBeenCalled();
  });
});

describe("Report.fromStoredJSON", () => {
  it("rebuilds what the platform stored under older rules as recorded: a percent threshold, a score past 1", () => {
    const doc = { ...saved(), threshold: 70 };
    doc.results[1].score = 2;
    const report = Report.fromStoredJSON(doc as unknown as ReportDocument);
    expect(report.toMarkdown()).toContain("Pass threshold: ≥ 7000%");
    expect(report.summaryByModel.b.avg_score).toBe(2);
    // The projector's and the audit's figures of such a run, read the same way (not null: they would fall back).
    expect(derivedFromJSONOrNull(doc as unknown as ReportDocument)?.summary_by_model.b.avg_score).toBe(2);
  });

  it("reads a tool call as recorded, where Report.fromJSON refuses one with no name, as importReport does", () => {
    const doc = saved();
    doc.results[0].tool_calls = [{ tool: "lookup_order" }];
    expect(refusal((d) => (d.results[0].tool_calls = [{ tool: "lookup_order" }]))).toBe("Report.fromJSON: results[0].tool_calls[0].tool: unknown key; did you mean name?");
    expect(Report.fromStoredJSON(doc as unknown as ReportDocument).results[0].replay.toolCalls).toEqual([{ tool: "lookup_order" }]);
  });
});

describe("a recorded comparison", () => {
  const comparison = () => ({
    models: { a: { scenarios: 1, pass_rate: 0, interval: [0, 0] }, b: { scenarios: 1, pass_rate: 100, interval: [100, 100] } },
    pairs: [{ models: ["a", "b"], scenarios: 1, difference: -100, interval: [-100, -100], decisive: true }],
    conclusion: "b passes more.",
  });

  it("is refused by Report.fromJSON, naming the field, where toJSON, toMarkdown and toHtml threw later", () => {
    const read = (change: (c: ReturnType<typeof comparison>) => void) => refusal((doc) => {
      const recorded = comparison();
      change(recorded);
      Object.assign(doc, { comparison: recorded });
    });
    expect(read(() => {})).toBeNull();
    expect(read((c) => (c.pairs[0].decisive = false))).toMatch(/^Report\.fromJSON: comparison\.pairs\.0\.decisive: must be true/);
    expect(read((c) => (c.models.b.pass_rate = 170))).toBe("Report.fromJSON: comparison.models.b.pass_rate: must be within 0..100, got 170");
    expect(read((c) => (c.models.a.interval = [50, 10]))).toMatch(/^Report\.fromJSON: comparison\.models\.a\.interval: lower bound must not exceed the upper/);
  });

  it("is refused by new Report and Report.fromStoredJSON as it is given, not at the first render", () => {
    const base = Report.fromJSON(saved() as unknown as ReportDocument);
    const bad = { ...comparison(), models: { ...comparison().models, b: { scenarios: 1, pass_rate: 170, interval: [100, 100] } } };
    expect(() => new Report({ results: base.results, models: base.models, comparison: bad as never })).toThrow(
      new TypeError("Report: comparison.models.b.pass_rate: must be within 0..100, got 170"),
    );
    expect(() => Report.fromStoredJSON({ ...saved(), comparison: bad } as unknown as ReportDocument)).toThrow(/^Report: comparison\.models\.b\.pass_rate/);
  });

  it("does not keep a stored run's summaries and fix items from being derived (the projector's and the audit's figures read no comparison)", () => {
    // A run imported before the import checked comparisons: its pages answer CONFLICT, its figures still stand.
    const doc = { ...saved(), comparison: { ...comparison(), models: { ...comparison().models, b: { scenarios: 1, pass_rate: 170, interval: [100, 100] } } } };
    const derived = derivedFromJSONOrNull(doc as unknown as ReportDocument);
    expect(derived).not.toBeNull();
    expect(derived?.summary_by_model).toEqual(Report.fromJSON(saved() as unknown as ReportDocument).summaryByModel);
  });
});
