import { describe, expect, it } from "vitest";
import { Report, type ReportDocument } from "../../report/index.js";
import { checkJudgeUsageFollowsResults, checkSummariesFollowResults } from "./importedSummaries.js";

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

  it("holds cost_per_1000 to the 6 decimals report.json writes it with (1.000233 for 1.000133 was taken as one unit of a 4th decimal)", () => {
    // 0.0034 over 3 priced results: 1.133333 per 1,000.
    expect(refusal({ cost_per_1000: 1.133333 })).toBeNull();
    expect(refusal({ cost_per_1000: 1.133334 })).toBeNull();
    expect(refusal({ cost_per_1000: 1.133433 })).toMatch(/^report\.summary_by_model\.m\.cost_per_1000 is 1\.133433, but the report's results give 1\.133333:/);
  });

  it("takes the cost_per_1000 builds before 6 December wrote, from the cost total rounded to 6 decimals", () => {
    // Ten replays of $0.00000149: the unrounded mean gives 0.00149 per 1,000, the rounded total
    // ($0.000015) 0.0015; an export of either build imports, a third figure does not.
    const tiny = Array.from({ length: 10 }, (_, i) => ({ ...results[0], scenario_key: `t${i}`, cost: 0.00000149 }));
    const check = (figure: number) => {
      const report = { summary_by_model: { m: { provider: "openai", model: "m", cost_per_1000: figure } }, threshold: 0.7, results: tiny };
      return () => checkSummariesFollowResults(report, Report.fromJSON(report as unknown as ReportDocument));
    };
    expect(check(0.00149)).not.toThrow();
    expect(check(0.0015)).not.toThrow();
    expect(check(0.0016)).toThrow(/cost_per_1000 is 0\.0016, but the report's results give 0\.00149:/);
  });

  it("compares the p50 and p95 exactly: each is a replay's own duration, never rounded", () => {
    expect(refusal({ p50_duration_ms: 200, p95_duration_ms: 300 })).toBeNull();
    expect(refusal({ p50_duration_ms: 201 })).toMatch(/^report\.summary_by_model\.m\.p50_duration_ms is 201, but the report's results give 200:/);
    expect(refusal({ p95_duration_ms: 299 })).toMatch(/^report\.summary_by_model\.m\.p95_duration_ms is 299, but the report's results give 300:/);
  });
});

// Two results judged (3 calls, $0.0021) and the run's own verdict call ($0.00011), as this build writes them.
const judged = [
  { ...results[0], metadata: { judge_usage: { calls: 1, input_tokens: 400, output_tokens: 20, cost: 0.0015, model: "j", by_kind: { score: 1 }, source: "reported" } } },
  { ...results[1], metadata: { judge_usage: { calls: 2, input_tokens: 300, output_tokens: 10, cost: 0.0006, model: "j", by_kind: { score: 2 }, source: "reported" } } },
  results[2],
];
const runJudgeUsage = { calls: 1, input_tokens: 420, output_tokens: 18, cost: 0.00011, model: "j", by_kind: { verdict: 1 }, source: "reported" };
const judgeUsage = { calls: 4, input_tokens: 1120, output_tokens: 48, cost: 0.00221, model: "j", by_kind: { score: 3, verdict: 1 }, estimated: false, run: { calls: 1, cost: 0.00011, by_kind: { verdict: 1 } } };

function judgeRefusal(extra: Record<string, unknown>, judgedResults: unknown[] = judged): { message: string; field: string } | null {
  const report = { summary_by_model: { m: { provider: "openai", model: "m" } }, threshold: 0.7, results: judgedResults, ...extra };
  try {
    checkJudgeUsageFollowsResults(report, Report.fromStoredJSON(report as unknown as ReportDocument));
    return null;
  } catch (error) {
    return { message: (error as Error).message, field: (error as { field: string }).field };
  }
}

describe("checkJudgeUsageFollowsResults", () => {
  it("takes the judge usage the results and the run-level part give, a cost one unit of its 6th decimal apart, and kinds in any order", () => {
    expect(judgeRefusal({ judge_usage: judgeUsage, run_judge_usage: runJudgeUsage })).toBeNull();
    expect(judgeRefusal({ judge_usage: { ...judgeUsage, cost: 0.002211, by_kind: { verdict: 1, score: 3 } }, run_judge_usage: runJudgeUsage })).toBeNull();
    // A figure left out is not asked for (the reference drops a nil cost).
    expect(judgeRefusal({ judge_usage: { calls: 4 }, run_judge_usage: runJudgeUsage })).toBeNull();
  });

  it("refuses a total its results and run-level part do not give, naming the field and both values", () => {
    const refused = (change: Record<string, unknown>) => judgeRefusal({ judge_usage: { ...judgeUsage, ...change }, run_judge_usage: runJudgeUsage });
    expect(refused({ cost: 99 })).toEqual({
      message: "report.judge_usage.cost is 99, but the report's results and run-level judge usage give 0.00221: the run's judge usage must follow from them (reference-core §13.2)",
      field: "report.judge_usage.cost",
    });
    expect(refused({ cost: 0.002212 })?.field).toBe("report.judge_usage.cost");
    expect(refused({ calls: 5 })?.message).toMatch(/^report\.judge_usage\.calls is 5, but the report's results and run-level judge usage give 4:/);
    expect(refused({ input_tokens: 1121 })?.field).toBe("report.judge_usage.input_tokens");
    expect(refused({ output_tokens: 0 })?.field).toBe("report.judge_usage.output_tokens");
    expect(refused({ by_kind: { score: 4 } })?.message).toMatch(/^report\.judge_usage\.by_kind is \{"score":4\}, but the report's results and run-level judge usage give \{"score":3,"verdict":1\}:/);
    // A cost where no part has one.
    const free = judged.map((result) => ("metadata" in result ? { ...result, metadata: { judge_usage: { ...result.metadata.judge_usage, cost: null } } } : result));
    expect(judgeRefusal({ judge_usage: { calls: 3, cost: 0.5 } }, free)?.message).toMatch(/^report\.judge_usage\.cost is 0\.5, but the report's results and run-level judge usage give nothing:/);
  });

  it("holds judge_usage.run to the run_judge_usage the report records", () => {
    const refused = (run: unknown) => judgeRefusal({ judge_usage: { ...judgeUsage, run }, run_judge_usage: runJudgeUsage });
    expect(refused({ calls: 1, cost: 0.5, by_kind: { verdict: 1 } })).toEqual({
      message: "report.judge_usage.run.cost is 0.5, but report.run_judge_usage gives 0.00011: it must be the run-level part (reference-core §13.2)",
      field: "report.judge_usage.run.cost",
    });
    expect(refused({ calls: 2 })?.field).toBe("report.judge_usage.run.calls");
    expect(refused({ by_kind: { score: 1 } })?.field).toBe("report.judge_usage.run.by_kind");
    expect(refused("x")?.field).toBe("report.judge_usage.run");
    // An empty run_judge_usage is no run-level part, as the report reads it.
    const { run: _run, ...totals } = judgeUsage;
    const withoutRun = { ...totals, calls: 3, input_tokens: 700, output_tokens: 30, cost: 0.0021, by_kind: { score: 3 } };
    expect(judgeRefusal({ judge_usage: withoutRun, run_judge_usage: {} })).toBeNull();
    expect(judgeRefusal({ judge_usage: { ...withoutRun, run: judgeUsage.run }, run_judge_usage: {} })?.field).toBe("report.judge_usage.run");
    expect(refused(null)).toBeNull();
  });

  it("takes the Ruby reference's judge_usage, whose run part has no tokens: the results' tokens are then a floor", () => {
    // The reference writes no run_judge_usage; judge_usage.run gives the run part's calls, cost and kinds.
    expect(judgeRefusal({ judge_usage: judgeUsage })).toBeNull();
    expect(judgeRefusal({ judge_usage: { ...judgeUsage, input_tokens: 5000 } })).toBeNull();
    expect(judgeRefusal({ judge_usage: { ...judgeUsage, input_tokens: 699 } })).toEqual({
      message: "report.judge_usage.input_tokens is 699, but the report's results alone give 700: the run's judge usage sums its results' with the run-level part (reference-core §13.2)",
      field: "report.judge_usage.input_tokens",
    });
    expect(judgeRefusal({ judge_usage: { ...judgeUsage, cost: 99 } })?.field).toBe("report.judge_usage.cost");
    expect(judgeRefusal({ judge_usage: { ...judgeUsage, calls: 3 } })?.field).toBe("report.judge_usage.calls");
  });

  it("leaves alone a report without judge_usage, and one whose results carry none and that records no run_judge_usage", () => {
    expect(judgeRefusal({})).toBeNull();
    expect(judgeRefusal({ judge_usage: null })).toBeNull();
    expect(judgeRefusal({ judge_usage: { calls: 7, cost: 1 } }, results)).toBeNull();
    // This build's run-level part alone (a verdict, rules-only scoring) is held to its record.
    expect(judgeRefusal({ judge_usage: { calls: 1, cost: 1 }, run_judge_usage: runJudgeUsage }, results)?.field).toBe("report.judge_usage.cost");
  });
});
