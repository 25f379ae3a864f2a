// The one rule for where a result's judge usage comes from (the Runner, a rebuilt report, the
// API's Result.metadata and the read model all follow it): a replay's own judge_usage wins.
import { describe, expect, it } from "vitest";
import { addedJudgeUsage, carriesJudgeUsage } from "./index.js";

const exchanges = [
  { kind: "score", usage: { input_tokens: 100, output_tokens: 20, cost: 0.001, model: "judge-a" } },
  { kind: "recommend", usage: { input_tokens: 50, output_tokens: 10, cost: 0.0005, model: "judge-a" } },
];

describe("addedJudgeUsage", () => {
  it("gives what the judge's calls used when the replay says nothing of its judge", () => {
    expect(addedJudgeUsage({ cost_source: "reported" }, exchanges)).toEqual({
      calls: 2,
      input_tokens: 150,
      output_tokens: 30,
      cost: 0.0015,
      model: "judge-a",
      by_kind: { score: 1, recommend: 1 },
      source: "reported",
    });
  });

  it("adds nothing when the replay carries its own judge_usage, even a null one", () => {
    expect(addedJudgeUsage({ judge_usage: { calls: 9 } }, exchanges)).toBeNull();
    expect(addedJudgeUsage({ judge_usage: null }, exchanges)).toBeNull();
  });

  it("adds nothing when the judge made no call", () => {
    expect(addedJudgeUsage({}, [])).toBeNull();
  });
});

describe("carriesJudgeUsage", () => {
  it("is true for an own key with a value, null included, and false otherwise", () => {
    expect(carriesJudgeUsage({ judge_usage: null })).toBe(true);
    expect(carriesJudgeUsage({ judge_usage: { calls: 1 } })).toBe(true);
    expect(carriesJudgeUsage({ judge_usage: undefined })).toBe(false);
    expect(carriesJudgeUsage(Object.create({ judge_usage: { calls: 1 } }) as Record<string, unknown>)).toBe(false);
    expect(carriesJudgeUsage(null)).toBe(false);
    expect(carriesJudgeUsage(undefined)).toBe(false);
  });
});
