// What a result's judge calls were by kind (results.judge_by_kind, judge_model): from a score's
// exchanges, and from an imported result's judge_usage.by_kind, which nothing checked on import.
import { describe, expect, it } from "vitest";
import { REPORT_MAX_COUNT } from "@verdict/domain";
import { exchangeKinds, exchangeUsage, reportedKinds } from "./usage.js";

const exchange = (kind: string, usage: Record<string, unknown> | null) => ({ kind, usage });

describe("exchangeKinds", () => {
  it("sums each kind's calls, tokens and cost as exchangeUsage sums them all, and takes the first model named", () => {
    const exchanges = [
      exchange("score", { input_tokens: 400, output_tokens: 12, cost: 0.0006 }),
      exchange("recommend", { input_tokens: 300, output_tokens: 30, cost: 0.0003, model: "judge-1" }),
      exchange("score", { input_tokens: 100, output_tokens: null, cost: 0.0000004, model: "judge-2" }),
      exchange("recommend", null),
    ];
    const { byKind, model } = exchangeKinds(exchanges);
    expect(byKind).toEqual({
      score: { calls: 2, input_tokens: 500, output_tokens: 12, cost: 0.0006 },
      recommend: { calls: 2, input_tokens: 300, output_tokens: 30, cost: 0.0003 },
    });
    expect(model).toBe("judge-1");
    const total = exchangeUsage(exchanges);
    expect(Object.values(byKind!).reduce((n, k) => n + k.calls, 0)).toBe(total.calls);
    expect(Object.values(byKind!).reduce((n, k) => n + k.input_tokens!, 0)).toBe(total.inputTokens);
  });

  it("keeps a kind none of whose calls had a cost with a null cost, and gives nothing for no call", () => {
    expect(exchangeKinds([exchange("verdict", { input_tokens: 5 })])).toEqual({ byKind: { verdict: { calls: 1, input_tokens: 5, output_tokens: 0, cost: null } }, model: null });
    expect(exchangeKinds([])).toEqual({ byKind: null, model: null });
  });
});

describe("reportedKinds", () => {
  it("reads a report's tally as counts held within the run's count limit, with no tokens or cost", () => {
    expect(reportedKinds({ score: 2, recommend: 1.7, verdict: -3, define: "4", other: 1e12 })).toEqual({
      score: { calls: 2 }, recommend: { calls: 1 }, verdict: { calls: 0 }, define: { calls: 0 }, other: { calls: REPORT_MAX_COUNT },
    });
  });

  it("gives nothing for a tally that is not an object", () => {
    for (const value of [undefined, null, 3, "score", [1, 2]]) expect(reportedKinds(value)).toBeNull();
  });
});
