// The evaluation commands (what GraphQL's createEvaluation, replaceScenarios, mergeScenarios and
// startRun send) refuse a key, label, group or tool name a reader cannot tell from another;
// a sync, which reads a catalog import already recorded, takes the key as it was stored.
import { describe, expect, it } from "vitest";
import { evaluationAggregate } from "./evaluationAggregate.js";
import { given } from "../testing/givenWhenThen.js";
import { CLAUDE, created, DIGEST_A, GPT, record, replaced, scenario } from "../testing/fixtures.js";

const create = (extra: Record<string, unknown> = {}) => ({ type: "CreateEvaluation", evaluation_id: "e1", tenant: "acme", agent: "SupportAgent", name: "Support", ...extra });
const ZWSP = "must not contain U+200B ZERO WIDTH SPACE (at character 2)";

describe("identifier text in evaluation commands", () => {
  it("refuses a scenario key, group or expected tool so written, naming the field", () => {
    const when = (command: Record<string, unknown>) => () => given(evaluationAggregate, []).when(command);
    expect(when(create({ scenarios: [scenario("a\u200bb")] }))).toThrow(expect.objectContaining({ field: "scenarios[0].key", message: expect.stringContaining(ZWSP) }));
    expect(when(create({ scenarios: [scenario("a", { group: "g\u202e" })] }))).toThrow(expect.objectContaining({ field: "scenarios[0].group" }));
    expect(when(create({ scenarios: [scenario("a", { expected_tools: ["t\u0007"] })] }))).toThrow(expect.objectContaining({ field: "scenarios[0].expected_tools[0]" }));
    expect(when(create({ scenarios: [scenario("cafe\u0301")] }))).toThrow(expect.objectContaining({ message: expect.stringContaining('write "caf\u00e9" instead') }));
  });

  it("refuses two scenario keys or two models that read alike, naming both", () => {
    const suite = [created()];
    expect(() => given(evaluationAggregate, suite).when({ type: "ReplaceScenarios", evaluation_id: "e1", scenarios: [scenario("a"), scenario("\u0430")] })).toThrow(
      expect.objectContaining({ field: "scenarios[1].key", message: expect.stringContaining('scenario keys "a" and "\u0430" read alike (character 1 is U+0061 in one and U+0430 in the other)') }),
    );
    expect(() => given(evaluationAggregate, []).when(create({ compare_models: ["gpt-5-mini", "g\u0440t-5-mini"] }))).toThrow(
      expect.objectContaining({ field: "compare_models[1]", message: expect.stringContaining("read alike") }),
    );
    expect(() => given(evaluationAggregate, []).when(create({ compare_models: ["\u30e2\u30c7\u30eb\u202e"] }))).toThrow(
      expect.objectContaining({ field: "compare_models[0]", message: expect.stringContaining("U+202E RIGHT-TO-LEFT OVERRIDE (at character 4)") }),
    );
  });

  it("refuses a run's model label or tool name so written", () => {
    const suite = [created(), replaced([record("a", 0)])];
    const start = (extra: Record<string, unknown>) => () => given(evaluationAggregate, suite).when({ type: "StartRun", run_id: "r1", evaluation_id: "e1", models: [GPT, CLAUDE], ...extra });
    expect(start({ models: [GPT, { ...GPT, label: "g\u0440t-5-mini" }] })).toThrow(expect.objectContaining({ field: "models[1].label", message: expect.stringContaining("read alike") }));
    expect(start({ models: [{ ...GPT, label: "g\u200bpt" }] })).toThrow(expect.objectContaining({ field: "models[0].label", message: expect.stringContaining(ZWSP) }));
    expect(start({ tools: [{ name: "l\u200bookup" }] })).toThrow(expect.objectContaining({ field: "tools[0].name" }));
  });

  it("syncs a catalog import recorded before the rule with its keys as stored", () => {
    const catalog = { catalog_key: "desk", product_key: "triage", set_key: "smoke", digest: DIGEST_A };
    const events = given(evaluationAggregate, [created()]).when({ type: "SyncCatalogSet", evaluation_id: "e1", tenant: "acme", catalog, judge: null, criteria: null, scenarios: [scenario("cafe\u0301")] });
    expect(JSON.stringify(events)).toContain("cafe\u0301");
  });
});

describe("a new evaluation's judge model", () => {
  it("is refused as a model name is, naming judge.model", () => {
    expect(() => given(evaluationAggregate, []).when(create({ judge: { kind: "llm", model: "gpt\u202e" } }))).toThrow(
      expect.objectContaining({ field: "judge.model", message: expect.stringContaining("U+202E RIGHT-TO-LEFT OVERRIDE (at character 4)") }),
    );
    expect(given(evaluationAggregate, []).when(create({ judge: { kind: "llm", model: "gpt-5" } }))[0]).toMatchObject({ data: { judge: { kind: "llm", model: "gpt-5" } } });
  });
});
