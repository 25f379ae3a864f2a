// What a result's judge calls were by kind (results.judge_by_kind, judge_model): from a score's
// exchanges, and from an imported result's judge_usage.by_kind, which nothing checked on import.
import { describe, expect, it } from "vitest";
import { judgeUsageFromExchanges, REPORT_MAX_COUNT, usageByKind } from "@verdict/domain";
import { exchangeKinds, exchangeUsage, reportedKinds, resultJudge } from "./usage.js";

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

  it("sums costs whole and rounds once, as the report's judgeUsageFromExchanges does", () => {
    for (const cost of [0.0000672, 0.0000004]) {
      const exchanges = [1, 2, 3].map(() => exchange("score", { input_tokens: 10, output_tokens: 1, cost }));
      const report = judgeUsageFromExchanges(exchanges as Parameters<typeof judgeUsageFromExchanges>[0]);
      expect(exchangeUsage(exchanges).cost).toBe(report!.cost);
      expect(exchangeKinds(exchanges).byKind!.score.cost).toBe(report!.cost);
    }
    expect(exchangeUsage([1, 2, 3].map(() => exchange("score", { cost: 0.0000672 }))).cost).toBe(0.000202);
  });

  it("keeps a kind none of whose calls had a cost with a null cost, and gives nothing for no call", () => {
    expect(exchangeKinds([exchange("verdict", { input_tokens: 5 })])).toEqual({ byKind: { verdict: { calls: 1, input_tokens: 5, output_tokens: 0, cost: null } }, model: null });
    expect(exchangeKinds([])).toEqual({ byKind: null, model: null });
  });
});

describe("reportedKinds", () => {
  it("reads a report's tally as the report counts it (countOf: numeric text too, cut to a whole number), held within the run's count limit, with no tokens or cost", () => {
    expect(reportedKinds({ score: 2, recommend: 1.7, verdict: -3, define: "4", other: 1e12, junk: "x" })).toEqual({
      score: { calls: 2 }, recommend: { calls: 1 }, verdict: { calls: 0 }, define: { calls: 4 }, other: { calls: REPORT_MAX_COUNT }, junk: { calls: 0 },
    });
    // The report's own reading of the same tally, where the two agree (a count in range).
    const tally = { score: 2, recommend: 1.7, define: "4", junk: "x" };
    expect(Object.fromEntries(Object.entries(reportedKinds(tally)!).map(([kind, usage]) => [kind, usage.calls]))).toEqual(usageByKind([{ by_kind: tally as never }]));
  });

  it("keeps at most 16 kinds: the platform's four first, then by name, the rest summed into other", () => {
    const flood = Object.fromEntries(Array.from({ length: 140_000 }, (_, i) => [`k${i}`, 1]));
    const kinds = reportedKinds({ ...flood, verdict: 2, other: 5 })!;
    expect(Object.keys(kinds)).toHaveLength(16);
    expect(Object.keys(kinds).slice(0, 2)).toEqual(["verdict", "k0"]);
    expect(kinds.other).toEqual({ calls: 140_000 - 14 + 5 });
    expect(Object.values(kinds).reduce((n, k) => n + k.calls, 0)).toBe(140_000 + 2 + 5);
    // A result's exchanges naming more kinds than that are folded the same way, tokens and cost summed.
    const exchanges = Array.from({ length: 20 }, (_, i) => exchange(`x${String(i).padStart(2, "0")}`, { input_tokens: 1, output_tokens: 1, cost: 0.001 }));
    const { byKind } = exchangeKinds(exchanges);
    expect(Object.keys(byKind!)).toHaveLength(16);
    expect(byKind!.other).toEqual({ calls: 5, input_tokens: 5, output_tokens: 5, cost: 0.005 });
  });

  it("gives nothing for a tally that is not an object", () => {
    for (const value of [undefined, null, 3, "score", [1, 2]]) expect(reportedKinds(value)).toBeNull();
  });
});

describe("resultJudge", () => {
  const exchanges = [exchange("score", { input_tokens: 400, output_tokens: 12, cost: 0.0006, model: "judge-1" })];

  it("counts the platform's exchanges (meter) when the replay carries no judge_usage of its own", () => {
    expect(resultJudge({ cost_source: "reported" }, exchanges)).toEqual({
      calls: 1, inputTokens: 400, outputTokens: 12, cost: 0.0006, model: "judge-1", source: "meter",
      byKind: { score: { calls: 1, input_tokens: 400, output_tokens: 12, cost: 0.0006 } },
    });
    expect(resultJudge({}, []).source).toBeNull();
  });

  it("takes the replay's own judge_usage instead, as the report does (its exchanges not added), read as the report reads it", () => {
    const judge_usage = { calls: "5", input_tokens: 50.9, output_tokens: 5, cost: 0.5, model: "host-judge", by_kind: { score: 5 } };
    expect(resultJudge({ judge_usage }, exchanges)).toEqual({
      calls: 5, inputTokens: 50, outputTokens: 5, cost: 0.5, model: "host-judge", byKind: { score: { calls: 5 } }, source: "reported",
    });
    // A judge_usage that is not an object is no usage at all, exchanges or not: the report has none for it.
    for (const value of [null, 3, "x", [1]]) {
      expect(resultJudge({ judge_usage: value }, exchanges)).toMatchObject({ calls: 0, inputTokens: 0, cost: null, byKind: null, source: null });
    }
    // Figures past what the columns hold.
    expect(resultJudge({ judge_usage: { calls: -2, input_tokens: 1e300, cost: -1 } }, [])).toMatchObject({ calls: 0, inputTokens: 1e12, cost: null, source: "reported" });
  });
});
