import { describe, expect, it } from "vitest";
import { summarizeByModel, costIsEstimated } from "./summary.js";
import { fakeResult, model } from "./testing.js";

const fault = (name: string) => ({ fault: name, summary: `${name} happened.`, recommendation: `Fix ${name}.` });

describe("summarizeByModel", () => {
  const results = [
    fakeResult({ key: "a", label: "m1", score: 1, scores: { task_completion: 0.9 }, durationMs: 100, inputTokens: 10, outputTokens: 5, cost: 0.001 }),
    fakeResult({ key: "b", label: "m1", score: 0.5, durationMs: 300, inputTokens: 20, outputTokens: null, cost: 0.002, costSource: "estimated", diagnosis: fault("low_quality") }),
    fakeResult({ key: "c", label: "m1", score: null, durationMs: 200, error: "boom", diagnosis: fault("run_error"), judgeUsage: { calls: 2, cost: 0.0005 } }),
    fakeResult({ key: "d", label: "m1", score: 0.2, durationMs: null, diagnosis: fault("low_quality"), judgeUsage: { calls: 1 } }),
    fakeResult({ key: "a", label: "m2", score: 1 }),
  ];
  const summary = summarizeByModel(results, [model("m1"), model("m2"), model("m3")]);

  it("counts, rates and means per model in model order", () => {
    expect(Object.keys(summary)).toEqual(["m1", "m2", "m3"]);
    const m1 = summary.m1;
    expect(m1).toMatchObject({ scenarios: 4, passed: 1, errored: 1, pass_rate: 25, avg_score: 0.567, avg_task_completion: 0.9 });
    expect(m1.input_tokens).toBe(30);
    expect(m1.output_tokens).toBe(5);
    expect(m1.faults).toEqual({ low_quality: 2, run_error: 1 });
    expect(Object.keys(m1.faults)).toEqual(["low_quality", "run_error"]);
  });

  it("gives p50 and p95 latency by nearest rank: durations 1..10 ms give 5 and 10", () => {
    const timed = Array.from({ length: 10 }, (_, i) => fakeResult({ key: `s${i}`, label: "m1", durationMs: i + 1 }));
    expect(summarizeByModel(timed, [model("m1")]).m1).toMatchObject({ p50_duration_ms: 5, p95_duration_ms: 10 });
  });

  it("means add as Ruby's Array#sum does", () => {
    // One by one these sum to 2.7979999999999996: a mean of 0.699, not 0.7.
    const scores = [0.775, 0.867, 0.441, 0.715];
    const rows = summarizeByModel(
      scores.map((score, i) => fakeResult({ key: `s${i}`, label: "m", score, scores: { task_completion: score } })),
      [model("m")],
    );
    expect(rows.m).toMatchObject({ avg_score: 0.7, avg_task_completion: 0.7 });
  });

  it("gives mean, p50 and p95 latency by nearest rank over timed replays", () => {
    expect(summary.m1.avg_duration_ms).toBe(200);
    expect(summary.m1.p50_duration_ms).toBe(200);
    expect(summary.m1.p95_duration_ms).toBe(300);
    expect(summary.m2.p50_duration_ms).toBeNull();
  });

  it("sums costs, counts priced / reported / estimated and prices 1,000 runs at the mean priced cost", () => {
    expect(summary.m1).toMatchObject({ cost: 0.003, priced: 2, reported: 1, estimated: 1, cost_per_1000: 1.5 });
    expect(costIsEstimated(summary.m1)).toBe(true);
    expect(summary.m2).toMatchObject({ cost: null, priced: 0, cost_per_1000: null });
  });

  it("keeps the judge's spend apart", () => {
    expect(summary.m1.judge_cost).toBe(0.0005);
    expect(summary.m1.judge_calls).toBe(3);
    expect(summary.m2.judge_cost).toBeNull();
  });

  it("gives a model with no results a zero row", () => {
    expect(summary.m3).toMatchObject({ scenarios: 0, pass_rate: 0, avg_score: null, cost: null, faults: {} });
  });

  it("rounds the pass rate to one decimal", () => {
    const three = ["a", "b", "c"].map((key, i) => fakeResult({ key, label: "x", diagnosis: i === 0 ? fault("low_quality") : null }));
    expect(summarizeByModel(three, [model("x")]).x.pass_rate).toBe(66.7);
  });
});
