// The library's Runner with judge-defined KPIs (defineKpis): asked once before any pair is
// scored, scored as llm_judge criteria, counted as the run's own judge spend; none authored leaves
// the run on its own criteria with the reference's message in the report.
import { describe, expect, it } from "vitest";
import { Judge, KPI_NO_JUDGE_MESSAGE, KPI_UNUSABLE_MESSAGE } from "../judge/index.js";
import { ModelSpec } from "../models/index.js";
import { Scenario } from "../scenarios/index.js";
import { Runner } from "./runner.js";

const scenarios = [
  new Scenario({ key: "refund", prompt: "I want a refund for order 77" }),
  new Scenario({ key: "hours", prompt: "When are you open?" }),
];
const models = [ModelSpec.parse("gpt-5-mini", { defaultProvider: "openai" })];
const replay = () => ({ answer: "We are open 9 to 5, Monday to Friday; refunds take three days.", duration_ms: 900 });
const criteria = [{ key: "response_present", type: "response_present" }];
const KPIS = {
  kpis: ["empathy", "accuracy", "next_step"].map((key) => ({ key, name: `The ${key}`, description: `How well it shows ${key}`, rubric: "1.0 fully, 0.5 partly, 0.0 not" })),
};

/** A judge answering define with `defined` and every score call with 0.9, recording each call in order. */
function judgeAnswering(defined: string) {
  const calls: { kind: string; prompt: string }[] = [];
  const judge = new Judge({
    label: "judge-model",
    complete: async ({ kind, prompt }) => {
      calls.push({ kind, prompt });
      if (kind === "define") return defined;
      if (kind === "score") return '{"score": 0.9}';
      return '{"winner": "gpt-5-mini", "rationale": "the only one"}';
    },
  });
  return { judge, calls };
}

describe("Runner defineKpis", () => {
  it("asks the judge once, before any pair, and scores each result on the KPIs beside its criteria", async () => {
    const { judge, calls } = judgeAnswering(JSON.stringify(KPIS));
    const runner = new Runner({ scenarios, models, replay, criteria, judge, instructions: "Be kind.", defineKpis: { description: "A support desk" } });
    const report = await runner.run();
    expect(calls[0].kind).toBe("define");
    expect(calls.filter((call) => call.kind === "define")).toHaveLength(1);
    expect(calls[0].prompt).toContain("Be kind.");
    expect(calls[0].prompt).toContain("A support desk");
    expect(calls[0].prompt).toContain("- response_present");
    expect(Object.keys(report.criterionScores).sort()).toEqual(["accuracy", "empathy", "next_step", "response_present"]);
    expect(report.results[0].scores).toMatchObject({ empathy: 0.9, accuracy: 0.9, next_step: 0.9 });
    expect(runner.kpiSettlement).toMatchObject({ failure: null, criteria: [{ key: "empathy", type: "llm_judge" }, { key: "accuracy" }, { key: "next_step" }] });
    const json = report.toJSON();
    expect(json.kpi_failure).toBeUndefined();
    expect(report.judgeUsage?.run?.by_kind).toMatchObject({ define: 1 });
  });

  it("scores on the criteria alone, with the reference's message in the report, when the answer is unusable", async () => {
    const { judge, calls } = judgeAnswering('{"kpis": []}');
    const runner = new Runner({ scenarios, models, replay, criteria, judge, defineKpis: true });
    const report = await runner.run();
    expect(runner.kpiSettlement?.failure).toBe(KPI_UNUSABLE_MESSAGE);
    expect(runner.kpiSettlement?.reason).toMatch(/at least 3/);
    // The judge grades task completion, as for any run whose criteria have no llm_judge one.
    expect(Object.keys(report.criterionScores).sort()).toEqual(["response_present", "task_completion"]);
    expect(calls.filter((call) => call.kind === "define")).toHaveLength(1);
    expect(report.toJSON().kpi_failure).toBe(KPI_UNUSABLE_MESSAGE);
    expect(report.toMarkdown()).toContain(KPI_UNUSABLE_MESSAGE);
    // The failed call is still the run's judge spend: it was made.
    expect(report.judgeUsage?.run?.by_kind).toMatchObject({ define: 1 });
  });

  it("without a judge, says the KPIs need one and asks nothing", async () => {
    const runner = new Runner({ scenarios, models, replay, criteria, defineKpis: true });
    const report = await runner.run();
    expect(runner.kpiSettlement).toMatchObject({ failure: KPI_NO_JUDGE_MESSAGE, exchange: null });
    expect(report.toJSON().kpi_failure).toBe(KPI_NO_JUDGE_MESSAGE);
    expect(report.judgeUsage).toBeNull();
  });

  it("leaves a run without defineKpis as it was: no define call, no settlement", async () => {
    const { judge, calls } = judgeAnswering(JSON.stringify(KPIS));
    const runner = new Runner({ scenarios, models, replay, criteria, judge });
    await runner.run();
    expect(calls.some((call) => call.kind === "define")).toBe(false);
    expect(runner.kpiSettlement).toBeNull();
  });

  it("asks once for a Runner run twice: the second report reuses the KPIs and carries no define call", async () => {
    const { judge, calls } = judgeAnswering(JSON.stringify(KPIS));
    const runner = new Runner({ scenarios, models, replay, criteria, judge, defineKpis: true });
    const first = await runner.run();
    const second = await runner.run();
    expect(calls.filter((call) => call.kind === "define")).toHaveLength(1);
    expect(first.judgeUsage?.run?.by_kind).toMatchObject({ define: 1 });
    expect(second.judgeUsage?.run?.by_kind?.define).toBeUndefined();
    expect(Object.keys(second.criterionScores)).toContain("empathy");
  });

  it("refuses, when built, defineKpis of a wrong shape, naming the option", () => {
    const build = (defineKpis: unknown) => () => new Runner({ scenarios, models, replay, defineKpis: defineKpis as never });
    expect(build("yes")).toThrow(/^Runner: defineKpis must be true, false or \{ description\?, recentRuns\? \}/);
    expect(build({ description: 5 })).toThrow(/^Runner: defineKpis\.description must be text or null/);
    expect(build({ recentRuns: {} })).toThrow(/^Runner: defineKpis\.recentRuns must be an array/);
    expect(build({ recentRuns: [{ number: 1, scored: "4" }] })).toThrow(/^Runner: defineKpis\.recentRuns\[0\] must be/);
    expect(build({ description: null, recentRuns: [{ number: 1, scored: 4, passed: 3 }] })).not.toThrow();
  });

  it("refuses, when built, a judge that cannot define KPIs", () => {
    const { judge } = judgeAnswering("{}");
    const partial = { label: "x", scoreTask: judge.scoreTask.bind(judge), scoreCriterion: judge.scoreCriterion.bind(judge), recommend: judge.recommend.bind(judge), verdict: judge.verdict.bind(judge) };
    expect(() => new Runner({ scenarios, models, replay, judge: partial, defineKpis: true })).toThrow(/defineKpis needs a judge that can define KPIs/);
  });
});
