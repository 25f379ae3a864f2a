import { describe, expect, it } from "vitest";
import { Report, type ReportDocument } from "../../report/index.js";
import { checkSummariesFollowResults } from "./importedSummaries.js";

// Three results of one model: a pass rate of 66.7, costs summing to 0.0034.
const results = [
  { scenario_key: "a", label: "m", status: "passed", score: 1, scores: { min_length: 1 }, prompt: "p", answer: "yes", cost: 0.001, duration_ms: 100 },
  { scenario_key: "b", label: "m", status: "passed", score: 1, scores: { min_length: 1 }, prompt: "p", answer: "yes", cost: 0.0012, duration_ms: 200 },
  { scenario_key: "c", label: "m", status: "failed", score: 0.2, scores: { min_length: 0.2 }, prompt: "p", answer: "no", cost: 0.0012, duration_ms: 300 },
];

function refusal(summary: Record<string, unknown>): string | null {
  const report = { summary_by_model: { m: { provider: "openai", model: "m", ...summary } }, threshold: 0.7, results };
  try {
    checkSummariesFollowResults(report, Report.fromJSON(report as unknown as ReportDocument));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("checkSummariesFollowResults", () => {
  it("takes the figures the results give, and the same figure one unit of its last decimal apart (another build's tie, the Ruby library's float sum)", () => {
    expect(refusal({ scenarios: 3, passed: 2, pass_rate: 66.7, avg_score: 0.733, cost: 0.0034, avg_duration_ms: 200 })).toBeNull();
    expect(refusal({ pass_rate: 66.6, avg_score: 0.734, cost: 0.003401, avg_duration_ms: 201 })).toBeNull();
  });

  it("refuses a figure further off, and any count that differs, naming the field and both values", () => {
    expect(refusal({ pass_rate: 66.5 })).toBe("report.summary_by_model.m.pass_rate is 66.5, but the report's results give 66.7: a model's summary must follow from its results (reference-core §13.1)");
    expect(refusal({ cost: 0.003402 })).toMatch(/^report\.summary_by_model\.m\.cost is 0\.003402, but the report's results give 0\.0034:/);
    expect(refusal({ passed: 3 })).toMatch(/^report\.summary_by_model\.m\.passed is 3, but the report's results give 2:/);
  });
});
