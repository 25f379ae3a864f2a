import { Format } from "../format/index.js";
import { describe, expect, it } from "vitest";
import {
  costRate,
  costSource,
  costsByModel,
  isEstimatedUsage,
  judgeUsage,
  judgeUsageFromExchanges,
  modelCosts,
  resultJudgeUsage,
  runCosts,
  scenarioCosts,
  type CostResultLike,
} from "./index.js";

function result(key: string, label: string, cost: number | null, metadata: Record<string, unknown> = {}): CostResultLike {
  return { scenario: { key }, label, replay: { cost, metadata } };
}

const estimated = (_cost: number) => ({ cost_source: "estimated", cost_rate: { input: 5, output: 30, source: "catalog" } });

describe("per-result cost", () => {
  it("reads the cost source: the metadata's, else reported with a cost, else unpriced", () => {
    expect(costSource(result("a", "m", 0.01))).toBe("reported");
    expect(costSource(result("a", "m", null))).toBe("unpriced");
    expect(costSource(result("a", "m", 0.01, estimated(0.01)))).toBe("estimated");
    expect(costSource(result("a", "m", 0, { cost_source: "no_usage" }))).toBe("no_usage");
  });

  it("reads the cost rate and the judge usage only when they are objects", () => {
    expect(costRate(result("a", "m", 0.01, estimated(0.01)))).toEqual({ input: 5, output: 30, source: "catalog" });
    expect(costRate(result("a", "m", 0.01, { cost_rate: "5/M" }))).toBeNull();
    expect(resultJudgeUsage(result("a", "m", 0.01, { judge_usage: { calls: 1 } }))).toEqual({ calls: 1 });
    expect(resultJudgeUsage(result("a", "m", 0.01))).toBeNull();
  });

  it("calls a judge usage estimated when its source is present and not reported", () => {
    expect(isEstimatedUsage({ source: "traces" })).toBe(true);
    expect(isEstimatedUsage({ source: "reported" })).toBe(false);
    expect(isEstimatedUsage({ calls: 1 })).toBe(false);
    expect(isEstimatedUsage(null)).toBe(false);
  });
});

describe("modelCosts", () => {
  it("sums priced replays, counts reported and estimated, and keeps the judge apart", () => {
    const cohort = [
      result("s1", "m", 0.001, { judge_usage: { calls: 2, cost: 0.5 } }),
      result("s2", "m", 0.003, { ...estimated(0.003), judge_usage: { calls: 1, cost: 0.25 } }),
      result("s3", "m", null),
    ];
    expect(modelCosts(cohort)).toEqual({
      scenarios: 3,
      cost: 0.004,
      priced: 2,
      reported: 1,
      estimated: 1,
      judge_cost: 0.75,
      judge_calls: 3,
      cost_per_priced: 0.002,
      cost_per_priced_unrounded: 0.002,
      cost_per_1000: 2,
      cost_estimated: true,
    });
  });

  it("reads as exact only when every replay is priced and reported", () => {
    const exact = modelCosts([result("s1", "m", 0.002), result("s2", "m", 0.004)]);
    expect(exact).toMatchObject({ cost: 0.006, cost_per_1000: 3, cost_estimated: false, judge_cost: null, judge_calls: 0 });
    const partly = modelCosts([result("s1", "m", 0.002), result("s2", "m", null)]);
    expect(partly.cost_estimated).toBe(true); // a lower bound
    // cost per 1,000 is at the mean per *priced* replay, so an unpriced one does not dilute it
    expect(partly.cost_per_1000).toBe(2);
  });

  it("takes the mean per priced replay from the unrounded sum, not the total rounded to six decimals", () => {
    const one = modelCosts([result("s1", "m", 0.0041818198)]);
    expect(one).toMatchObject({ cost: 0.004182, cost_per_1000: 4.18182, cost_per_priced: 0.004182 });
    expect(Format.money(one.cost_per_1000)).toBe("$4.1818");
    const four = modelCosts([result("s1", "m", 0.5), result("s2", "m", 1e-6), result("s3", "m", 4e-7), result("s4", "m", 0)]);
    expect(four.cost_per_1000).toBe(125.00035); // 125.00025 from the rounded total 0.500001
  });

  it("keeps the mean per priced replay unrounded beside its 6-decimal figures, for display and ranking", () => {
    // 0.300003 over 4 replays: the mean × 1,000 is the float 75.00075000000001 (shown $75.0008),
    // while its 6-decimal cost_per_1000, 75.00075, is the float 75.000749999… (shown $75.0007).
    const costs = modelCosts([result("s1", "m", 0.0000015), result("s2", "m", 0.000001), result("s3", "m", 0.1), result("s4", "m", 0.2000005)]);
    expect(costs).toMatchObject({ cost: 0.300003, cost_per_1000: 75.00075 });
    expect(costs.cost_per_priced_unrounded! * 1000).toBe(75.00075000000001);
    expect(Format.money(costs.cost_per_priced_unrounded! * 1000)).toBe("$75.0008");
    // Totals that both round to $0.000001 keep their means apart.
    const dear = modelCosts([result("s1", "m", 0.0000014)]);
    const cheap = modelCosts([result("s1", "m", 0.0000006)]);
    expect(dear.cost).toBe(cheap.cost);
    expect(dear.cost_per_priced_unrounded).toBe(0.0000014);
    expect(cheap.cost_per_priced_unrounded).toBe(0.0000006);
    expect(modelCosts([result("s1", "m", null)]).cost_per_priced_unrounded).toBeNull();
  });

  it("has no cost, no mean and nothing estimated when nothing was priced", () => {
    expect(modelCosts([result("s1", "m", null)])).toMatchObject({ cost: null, priced: 0, cost_per_priced: null, cost_per_1000: null, cost_estimated: false });
  });

  it("rounds the sum to six decimals", () => {
    expect(modelCosts([result("s1", "m", 0.1), result("s2", "m", 0.2)]).cost).toBe(0.3);
  });

  it("groups by label in the order given, an absent model with empty figures", () => {
    const results = [result("s1", "b", 0.01), result("s1", "a", 0.02)];
    const byModel = costsByModel(results, ["a", "b", "c"]);
    expect(Object.keys(byModel)).toEqual(["a", "b", "c"]);
    expect(byModel.a.cost).toBe(0.02);
    expect(byModel.c).toMatchObject({ scenarios: 0, cost: null });
  });
});

describe("scenarioCosts", () => {
  it("sums each scenario over the models, with the judge apart and the total of both", () => {
    const results = [
      result("s1", "a", 0.001, { judge_usage: { calls: 1, cost: 0.002 } }),
      result("s1", "b", 0.003),
      result("s2", "a", null),
      result("s2", "b", null),
    ];
    const costs = scenarioCosts(results);
    expect(Object.keys(costs)).toEqual(["s1", "s2"]);
    expect(costs.s1).toEqual({
      cost: 0.004,
      judge_cost: 0.002,
      total: 0.006,
      estimated: false,
      agent_estimated: false,
      judge_estimated: false,
      models: {
        a: { cost: 0.001, judge_cost: 0.002, cost_source: "reported" },
        b: { cost: 0.003, judge_cost: null, cost_source: "reported" },
      },
    });
    expect(costs.s2).toMatchObject({ cost: null, judge_cost: null, total: null, estimated: false });
  });

  it("is estimated when any part is, or one model went unpriced while another was priced, and says which part", () => {
    const costs = scenarioCosts([
      result("est", "a", 0.001, estimated(0.001)),
      result("gap", "a", 0.001),
      result("gap", "b", null),
      result("judge", "a", 0.001, { judge_usage: { calls: 1, cost: 0.01, source: "traces" } }),
    ]);
    expect(costs.est).toMatchObject({ estimated: true, agent_estimated: true, judge_estimated: false });
    expect(costs.gap).toMatchObject({ estimated: true, agent_estimated: true, judge_estimated: false });
    expect(costs.judge).toMatchObject({ estimated: true, agent_estimated: false, judge_estimated: true });
  });
});

describe("judgeUsage", () => {
  it("is null when no judge was asked", () => {
    expect(judgeUsage([result("s1", "a", 0.01)])).toBeNull();
    expect(judgeUsage([result("s1", "a", 0.01)], {})).toBeNull();
  });

  it("sums every result's judge calls with the run-level part, which it also shows alone", () => {
    const results = [
      result("s1", "a", 0.01, { judge_usage: { calls: 2, input_tokens: 400, output_tokens: 20, cost: 0.0015, model: "claude-opus-5", by_kind: { score: 1, recommend: 1 } } }),
      result("s2", "a", 0.01, { judge_usage: { calls: 1, input_tokens: 100, output_tokens: 10, by_kind: { score: 1 }, source: "reported" } }),
    ];
    const usage = judgeUsage(results, { calls: 1, cost: 0.0005, by_kind: { verdict: 1 }, model: "claude-opus-5" });
    expect(usage).toEqual({
      calls: 4,
      input_tokens: 500,
      output_tokens: 30,
      cost: 0.002,
      model: "claude-opus-5",
      by_kind: { score: 2, recommend: 1, verdict: 1 },
      estimated: false,
      run: { calls: 1, cost: 0.0005, by_kind: { verdict: 1 } },
    });
    expect(Object.keys(usage!)).toEqual(["calls", "input_tokens", "output_tokens", "cost", "model", "by_kind", "estimated", "run"]);
  });

  it("drops cost and model when none is known, and says when any part is estimated", () => {
    const usage = judgeUsage([result("s1", "a", null, { judge_usage: { calls: 1, source: "traces" } })]);
    expect(usage).toEqual({ calls: 1, input_tokens: 0, output_tokens: 0, by_kind: {}, estimated: true });
  });

  it("never adds the judge's cost to the agent's", () => {
    const results = [result("s1", "a", 0.01, { judge_usage: { calls: 1, cost: 1 } })];
    expect(modelCosts(results).cost).toBe(0.01);
    expect(scenarioCosts(results).s1.cost).toBe(0.01);
    expect(runCosts(results, judgeUsage(results))).toEqual({ cost: 0.01, judge_cost: 1, total: 1.01, estimated: false, agent_estimated: false, judge_estimated: false, priced: 1, unpriced: 0, cost_basis: "reported" });
  });
});

describe("runCosts", () => {
  it("is estimated when some but not all results are priced, or the judge usage is", () => {
    const some = [result("s1", "a", 0.01), result("s2", "a", null)];
    expect(runCosts(some, null)).toEqual({ cost: 0.01, judge_cost: null, total: 0.01, estimated: true, agent_estimated: true, judge_estimated: false, priced: 1, unpriced: 1, cost_basis: "reported" });
    expect(runCosts([result("s1", "a", null)], null)).toEqual({ cost: null, judge_cost: null, total: null, estimated: false, agent_estimated: false, judge_estimated: false, priced: 0, unpriced: 1, cost_basis: null });
    const traced = [result("s1", "a", 0.01, { judge_usage: { calls: 1, cost: 0.1, source: "traces" } })];
    expect(runCosts(traced, judgeUsage(traced))).toMatchObject({ estimated: true, agent_estimated: false, judge_estimated: true });
  });

  it("sums up how the priced agent costs were arrived at: reported, estimated or mixed; null when none was priced", () => {
    const reported = result("s1", "a", 0.01);
    const byTable = result("s2", "b", 0.02, estimated(0.02));
    const noUsage = result("s3", "c", 0, { cost_source: "no_usage" });
    const unpriced = result("s4", "d", null);
    const basis = (results: CostResultLike[]) => runCosts(results, null).cost_basis;
    expect(basis([reported, unpriced])).toBe("reported");
    // $0 for no tokens is no estimate (no `~`): it sides with the reported ones.
    expect(basis([noUsage])).toBe("reported");
    expect(basis([byTable, noUsage])).toBe("mixed");
    expect(basis([byTable, unpriced])).toBe("estimated");
    expect(basis([reported, byTable, noUsage, unpriced])).toBe("mixed");
    expect(basis([unpriced])).toBeNull();
    expect(basis([])).toBeNull();
    // Said estimated but carrying no cost: unpriced, so it says nothing of how the priced ones were priced.
    expect(basis([reported, result("s5", "b", null, { cost_source: "estimated" })])).toBe("reported");
  });
});

describe("judgeUsageFromExchanges", () => {
  it("counts every asked call by kind and sums what the completions reported", () => {
    const usage = judgeUsageFromExchanges([
      { kind: "score", usage: { input_tokens: 400, output_tokens: 20, cost: 0.001, model: "claude-opus-5" } },
      { kind: "recommend", usage: null },
      null,
      { kind: "score", usage: { input_tokens: 100, output_tokens: 5, cost: 0.0005 } },
    ]);
    expect(usage).toEqual({
      calls: 3,
      input_tokens: 500,
      output_tokens: 25,
      cost: 0.0015,
      model: "claude-opus-5",
      by_kind: { score: 2, recommend: 1 },
      source: "reported",
    });
  });

  it("keeps a call's own source when it was not reported, so the judge's spend reads as estimated", () => {
    const usage = judgeUsageFromExchanges([
      { kind: "score", usage: { input_tokens: 400, cost: 0.001, source: "reported" } },
      { kind: "score", usage: { input_tokens: 100, cost: 0.0005, source: "estimated" } },
    ]);
    expect(usage?.source).toBe("estimated");
    const results = [result("s1", "a", 0.01, { judge_usage: usage })];
    expect(judgeUsage(results)?.estimated).toBe(true);
    expect(runCosts(results, judgeUsage(results))).toMatchObject({ judge_estimated: true, agent_estimated: false });
  });

  it("is null when no call was made", () => {
    expect(judgeUsageFromExchanges([null])).toBeNull();
  });
});
