import { describe, expect, it } from "vitest";
import { evaluationAggregate, DEFAULT_CRITERIA } from "./evaluationAggregate.js";
import { given } from "../testing/givenWhenThen.js";
import { CLAUDE, created, DIGEST_A, GPT, record, replaced, scenario } from "../testing/fixtures.js";
import type { EventInput } from "../../events/registry.js";
import { freezeRun } from "./selection.js";

const create = (extra: Record<string, unknown> = {}) => ({
  type: "CreateEvaluation",
  evaluation_id: "e1",
  tenant: "acme",
  agent: "SupportAgent",
  name: "Support",
  ...extra,
});

describe("CreateEvaluation", () => {
  it("given nothing, then EvaluationCreated with the default criteria and threshold", () => {
    const [event] = given(evaluationAggregate, []).when(create());
    expect(event).toEqual({
      type: "EvaluationCreated",
      data: {
        evaluation_id: "e1",
        tenant: "acme",
        agent: "SupportAgent",
        name: "Support",
        judge: { kind: "rules", model: null },
        criteria: DEFAULT_CRITERIA,
        threshold: 0.7,
        require_judge_scores: false,
        compare_models: [],
        catalog: null,
        external: null,
      },
    });
  });

  it("records require_judge_scores, and a run freezes it as the evaluation held it when it started", () => {
    const [event] = given(evaluationAggregate, []).when(create({ require_judge_scores: true }));
    expect(event.data).toMatchObject({ require_judge_scores: true });
    const state = [event, replaced([record("a", 0)])].reduce((folded, e) => evaluationAggregate.evolve(folded, e as never), evaluationAggregate.initialState());
    const command = evaluationAggregate.commandSchema.parse(start()) as Extract<Parameters<typeof freezeRun>[1], { type: "StartRun" }>;
    expect(freezeRun(state, command, 1).require_judge_scores).toBe(true);
    expect(freezeRun({ ...state, requireJudgeScores: false }, command, 1).require_judge_scores).toBe(false);
  });

  it("keeps given criteria and stores initial scenarios as a replace", () => {
    const events = given(evaluationAggregate, []).when(
      create({ criteria: [{ key: "c", type: "contains", config: { pattern: "x" } }], scenarios: [scenario("a"), scenario("b")] }),
    );
    expect(events.map((e) => e.type)).toEqual(["EvaluationCreated", "ScenariosReplaced"]);
    expect(events[0].data).toMatchObject({ criteria: [{ key: "c", type: "contains" }] });
    expect(events[1].data).toMatchObject({ added: ["a", "b"], removed: [] });
  });

  it("refuses an unknown criterion type", () => {
    expect(() => given(evaluationAggregate, []).when(create({ criteria: [{ key: "x", type: "vibes" }] }))).toThrow(
      expect.objectContaining({ code: "validation", message: expect.stringMatching(/^criteria\[0\]\.type: unknown criterion type vibes; known types: response_present, /), field: "criteria[0].type" }),
    );
  });

  it("refuses a config its rule cannot read as meant, naming the setting (it scored every answer 1 or 0 before)", () => {
    const refused = (criterion: Record<string, unknown>) => () => given(evaluationAggregate, []).when(create({ criteria: [criterion] }));
    expect(refused({ key: "x", type: "min_length", config: { chars: "abc" } })).toThrow(
      expect.objectContaining({ code: "validation", message: "criteria[0].config.chars: min_length chars must be a number, 0 or more", field: "criteria[0].config.chars" }),
    );
    expect(refused({ key: "x", type: "min_length", config: { chars: -5 } })).toThrow(expect.objectContaining({ field: "criteria[0].config.chars" }));
    expect(refused({ key: "y", type: "max_latency_ms", config: { ms: { a: 1 } } })).toThrow(expect.objectContaining({ field: "criteria[0].config.ms" }));
    expect(refused({ key: "t", type: "token_budget", config: { output_tokens: null } })).toThrow(expect.objectContaining({ field: "criteria[0].config.output_tokens" }));
    expect(refused({ key: "z", type: "contains", config: { pattern: "/(/" } })).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/^criteria\[0\]\.config\.pattern: \/\(\/ is not a valid regular expression/), field: "criteria[0].config.pattern" }),
    );
    expect(refused({ key: "z", type: "not_contains", config: {} })).toThrow(expect.objectContaining({ message: "criteria[0].config.pattern: not_contains needs a pattern: a non-blank string" }));
    // Scores are JSON objects, which list such a key first: "weakest on" named the wrong criterion on a tie.
    expect(refused({ key: "2024", type: "response_present" })).toThrow(expect.objectContaining({ field: "criteria[0].key", message: expect.stringContaining("criterion key 2024 is a whole number") }));
    // What the Scorer reads as meant stays allowed: numeric strings, defaults, a literal with regex characters.
    const kept = [
      { key: "a", type: "min_length", config: { chars: "40" } },
      { key: "b", type: "max_latency_ms" },
      { key: "c", type: "contains", config: { pattern: "$5 (approx" } },
      { key: "d", type: "trace_latency", config: {} },
      { key: "2024a", type: "response_present" },
      { key: "4294967295", type: "response_present" }, // past an array index: kept in insertion order
    ];
    expect(given(evaluationAggregate, []).when(create({ criteria: kept }))[0].data).toMatchObject({ criteria: kept.map(({ key }) => ({ key })) });
  });

  it("refuses a criterion keyed as a built-in score, and a repeated key, naming the criterion (they were overwritten or merged into one score)", () => {
    const refused = (criteria: Array<Record<string, unknown>>) => () => given(evaluationAggregate, []).when(create({ criteria }));
    for (const key of ["expected_tools", "expected_content", "forbidden_content", "tools_succeeded", "task_completion"]) {
      expect(refused([{ key: "ok", type: "response_present" }, { key, type: "min_length" }])).toThrow(
        expect.objectContaining({ code: "validation", field: "criteria[1].key", message: `criteria[1].key: "${key}" is reserved for the built-in score of the same name` }),
      );
    }
    // Reserved whatever the type: an llm_judge keyed task_completion was read as the implicit task grade.
    expect(refused([{ key: "task_completion", type: "llm_judge" }])).toThrow(expect.objectContaining({ field: "criteria[0].key" }));
    expect(refused([{ key: "a", type: "response_present" }, { key: "b", type: "response_present" }, { key: "a", type: "min_length" }])).toThrow(
      expect.objectContaining({ code: "validation", field: "criteria[2].key", message: 'criteria[2].key: repeats "a" (first at criteria[0].key)' }),
    );
    // A problem of the criterion's own is named before a repeat further up the list.
    expect(refused([{ key: "a", type: "response_present" }, { key: "a", type: "vibes" }])).toThrow(expect.objectContaining({ field: "criteria[1].type" }));
    // Near misses stay allowed: other case, a prefix or suffix.
    const kept = [{ key: "Task_Completion", type: "response_present" }, { key: "expected_tools_used", type: "response_present" }, { key: "my_task_completion", type: "llm_judge" }];
    expect(given(evaluationAggregate, []).when(create({ criteria: kept }))[0].type).toBe("EvaluationCreated");
  });

  it("refuses more models to compare than a run may take, naming the field", () => {
    const models = (n: number) => Array.from({ length: n }, (_, i) => `model-${i}`);
    expect(() => given(evaluationAggregate, []).when(create({ compare_models: models(51) }))).toThrow(
      expect.objectContaining({ code: "validation", field: "compare_models", message: expect.stringContaining("at most 50 models an evaluation compares") }),
    );
    expect(given(evaluationAggregate, []).when(create({ compare_models: models(50) }))[0].type).toBe("EvaluationCreated");
  });

  it("refuses a blank model to compare, and keeps a repeated one once, as a run's selection does", () => {
    for (const blank of ["", "   ", "\u0085"]) {
      expect(() => given(evaluationAggregate, []).when(create({ compare_models: ["gpt-5", blank] }))).toThrow(
        expect.objectContaining({ code: "validation", field: "compare_models[1]", message: expect.stringContaining("compare_models[1]: must not be blank") }),
      );
    }
    const events = given(evaluationAggregate, []).when(create({ compare_models: ["gpt-5", " claude-sonnet-5", "gpt-5", "claude-sonnet-5 "] }));
    expect(events[0].data).toMatchObject({ compare_models: ["gpt-5", "claude-sonnet-5"] });
    // The limit counts models, not how often they are named.
    expect(given(evaluationAggregate, []).when(create({ compare_models: [...Array.from({ length: 50 }, (_, i) => `m${i}`), "m0"] }))[0].data).toMatchObject({ compare_models: expect.any(Array) });
  });

  it("refuses a name over 255 characters, naming the field", () => {
    expect(() => given(evaluationAggregate, []).when(create({ name: "n".repeat(256) }))).toThrow(expect.objectContaining({ field: "name" }));
  });

  it("refuses an agent name over 255 characters, naming the field, as a release of it would be refused; an older evaluation's longer one still folds", () => {
    expect(() => given(evaluationAggregate, []).when(create({ agent: "a".repeat(256) }))).toThrow(
      expect.objectContaining({ code: "validation", field: "agent", message: expect.stringContaining("agent: must be at most 255 characters") }),
    );
    expect(given(evaluationAggregate, []).when(create({ agent: "a".repeat(255) }))[0].data).toMatchObject({ agent: "a".repeat(255) });
    expect(given(evaluationAggregate, [created("e1", { agent: "a".repeat(300) })]).state).toMatchObject({ exists: true, agent: "a".repeat(300) });
  });

  it("given an evaluation, then a second create is a conflict", () => {
    expect(() => given(evaluationAggregate, [created()]).when(create())).toThrow(
      expect.objectContaining({ code: "conflict", message: "evaluation e1 already exists" }),
    );
  });
});

const replace = (scenarios: unknown[], extra: Record<string, unknown> = {}) => ({ type: "ReplaceScenarios", evaluation_id: "e1", scenarios, ...extra });

describe("ReplaceScenarios", () => {
  const suite = [created(), replaced([record("a", 0), record("b", 1, { enabled: false }), record("c", 2)])];

  it("on_removed destroy: drops unnamed keys, keeps survivors' enabled flag, adds new keys enabled", () => {
    const [event] = given(evaluationAggregate, suite).when(replace([scenario("b"), scenario("d", { prompt: "new" })]));
    // b moves from position 1 to its place in the input (0): an update, still disabled
    expect(event.data).toMatchObject({ on_removed: "destroy", added: ["d"], updated: ["b"], unchanged: [], removed: ["a", "c"], disabled: [] });
    const g = given(evaluationAggregate, [...suite, event]);
    expect(g.state.scenarios.map((s) => [s.key, s.enabled])).toEqual([
      ["b", false],
      ["d", true],
    ]);
  });

  it("on_removed disable: keeps unnamed keys with enabled false", () => {
    const [event] = given(evaluationAggregate, suite).when(replace([scenario("a")], { on_removed: "disable" }));
    expect(event.data).toMatchObject({ removed: [], disabled: ["c"] }); // b was already disabled
    const state = given(evaluationAggregate, [...suite, event]).state;
    expect(state.scenarios.map((s) => [s.key, s.enabled])).toEqual([
      ["a", true],
      ["b", false],
      ["c", false],
    ]);
  });

  it("an input that sets enabled wins over the survivor's flag", () => {
    const [event] = given(evaluationAggregate, suite).when(replace([scenario("a"), scenario("b", { enabled: true, position: 1 }), scenario("c")]));
    expect(event.data).toMatchObject({ updated: ["b"], unchanged: ["a", "c"] });
  });

  it("records nothing when the input equals the suite", () => {
    expect(given(evaluationAggregate, suite).when(replace([scenario("a"), scenario("b"), scenario("c")], { on_removed: "disable" }))).toEqual([]);
  });

  it("refuses any other on_removed", () => {
    expect(() => given(evaluationAggregate, suite).when(replace([scenario("a")], { on_removed: "archive" }))).toThrow(
      /on_removed: on_removed must be destroy or disable/,
    );
  });

  it("refuses repeated keys, an empty suite, a blank prompt", () => {
    const g = given(evaluationAggregate, suite);
    expect(() => g.when(replace([scenario("a"), scenario("x"), scenario("a"), scenario("x")]))).toThrow("scenario keys repeat: a, x");
    expect(() => g.when(replace([]))).toThrow("No scenarios found in the pasted text");
    expect(() => g.when(replace([{ key: "k", prompt: "  " }]))).toThrow('scenario "k" has no prompt');
  });

  it("refuses a replacement over the limit", () => {
    expect(() => given(evaluationAggregate, suite).when(replace([scenario("a"), scenario("b")], { limit: 1 }))).toThrow(
      "Scenario limit reached (1 per evaluation): the replacement holds 2",
    );
  });

  it("given no evaluation, then not found", () => {
    expect(() => given(evaluationAggregate, []).when(replace([scenario("a")]))).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});

const merge = (scenarios: unknown[], limit?: number) => ({ type: "MergeScenarios", evaluation_id: "e1", scenarios, ...(limit ? { limit } : {}) });

describe("MergeScenarios", () => {
  const suite = [
    created(),
    replaced([
      record("a", 0, { group: "orders", notes: "n", expected_tools: ["lookup"] }),
      record("b", 5, { enabled: false }),
    ]),
  ];

  it("adds new keys after the last position, updates named keys, lists unchanged ones", () => {
    const [event] = given(evaluationAggregate, suite).when(merge([scenario("n1"), scenario("b"), scenario("a", { prompt: "changed" }), scenario("n2")]));
    expect(event.type).toBe("ScenariosMerged");
    expect(event.data).toMatchObject({ added: ["n1", "n2"], updated: ["a"], unchanged: ["b"], limit: 2000 });
    const state = given(evaluationAggregate, [...suite, event]).state;
    expect(state.scenarios.map((s) => [s.key, s.position, s.enabled])).toEqual([
      ["a", 0, true],
      ["b", 5, false],
      ["n1", 6, true],
      ["n2", 7, true],
    ]);
  });

  it("clears the group, notes and expectations an update leaves out; keeps position and enabled", () => {
    const [event] = given(evaluationAggregate, suite).when(merge([{ key: "a", prompt: "Prompt for a" }]));
    expect(event.data).toMatchObject({ updated: ["a"] });
    const a = given(evaluationAggregate, [...suite, event]).state.scenarios[0];
    expect(a).toEqual(record("a", 0));
  });

  it("sets position and enabled when given", () => {
    const [event] = given(evaluationAggregate, suite).when(merge([scenario("b", { enabled: true, position: 9 })]));
    const b = given(evaluationAggregate, [...suite, event]).state.scenarios.find((s) => s.key === "b");
    expect([b?.position, b?.enabled]).toEqual([9, true]);
  });

  it("refuses a position the read models cannot store, naming the field", () => {
    expect(() => given(evaluationAggregate, suite).when(merge([scenario("b", { position: 2 ** 31 })]))).toThrow(
      expect.objectContaining({ code: "validation", field: "scenarios[0].position", message: expect.stringContaining("must be at most 2147483647") }),
    );
    expect(given(evaluationAggregate, suite).when(merge([scenario("b", { position: 2 ** 31 - 1 })]))[0].type).toBe("ScenariosMerged");
  });

  it("merging the same keyed input twice: the second is all unchanged", () => {
    const input = [scenario("n1"), scenario("n2")];
    const [first] = given(evaluationAggregate, suite).when(merge(input));
    const [second] = given(evaluationAggregate, [...suite, first]).when(merge(input));
    expect(second.data).toMatchObject({ added: [], updated: [], unchanged: ["n1", "n2"], scenarios: [] });
  });

  it("refuses the whole merge over the limit with the exact message", () => {
    expect(() => given(evaluationAggregate, suite).when(merge([scenario("a"), scenario("x"), scenario("y")], 3))).toThrow(
      "Scenario limit reached (3 per evaluation): the evaluation holds 2 and this merge adds 2",
    );
  });

  it("allows a merge that exactly reaches the limit", () => {
    expect(given(evaluationAggregate, suite).when(merge([scenario("x")], 3))[0].data).toMatchObject({ added: ["x"] });
  });

  it("refuses blank and repeated keys, writing nothing", () => {
    const g = given(evaluationAggregate, suite);
    expect(() => g.when(merge([scenario("x"), { key: " ", prompt: "p" }]))).toThrow(
      expect.objectContaining({ message: "every merged scenario needs a key", field: "scenarios[1].key" }),
    );
    expect(() => g.when(merge([scenario("x"), scenario("x")]))).toThrow("scenario keys repeat: x");
  });

  it("given no evaluation, then not found (a merge would start a stream no evaluation was created on)", () => {
    expect(() => given(evaluationAggregate, []).when(merge([scenario("x")]))).toThrow(expect.objectContaining({ code: "not_found", field: "evaluation_id", message: "evaluation e1 not found" }));
  });
});

describe("ArchiveEvaluation", () => {
  const archive = (archived: unknown) => ({ type: "ArchiveEvaluation", evaluation_id: "e1", archived });

  it("archives with the decision time, and unarchives", () => {
    expect(given(evaluationAggregate, [created()]).when(archive(true))).toEqual([
      { type: "EvaluationArchived", data: { archived_at: "2026-11-30T12:00:00.000Z" } },
    ]);
    const archived: EventInput = { type: "EvaluationArchived", data: { archived_at: "2026-11-30T12:00:00.000Z" } };
    expect(given(evaluationAggregate, [created(), archived]).when(archive(false))).toEqual([
      { type: "EvaluationUnarchived", data: { reason: "requested" } },
    ]);
  });

  it("is a no-op when already in the asked state", () => {
    expect(given(evaluationAggregate, [created()]).when(archive(false))).toEqual([]);
  });

  it("refuses anything but true or false", () => {
    expect(() => given(evaluationAggregate, [created()]).when(archive("yes"))).toThrow(/archived: evaluation.archived must be true or false/);
  });

  it("given no evaluation, then not found, archiving or unarchiving", () => {
    for (const archived of [true, false]) expect(() => given(evaluationAggregate, []).when(archive(archived))).toThrow(expect.objectContaining({ code: "not_found", field: "evaluation_id", message: "evaluation e1 not found" }));
  });
});

const start = (extra: Record<string, unknown> = {}) => ({ type: "StartRun", run_id: "r1", evaluation_id: "e1", models: [GPT, CLAUDE], ...extra });

describe("StartRun on the evaluation (numbering)", () => {
  const suite = [created(), replaced([record("a", 0, { group: "orders" }), record("b", 1, { enabled: false }), record("c", 2)])];

  it("schedules the run with the next number and its origin", () => {
    const scheduled: EventInput = { type: "RunScheduled", data: { run_id: "r0", number: 1, origin: "engine" } };
    expect(given(evaluationAggregate, [...suite, scheduled]).when(start({ external: true }))).toEqual([
      { type: "RunScheduled", data: { run_id: "r1", number: 2, origin: "external" } },
    ]);
  });

  it("a new run unarchives the evaluation", () => {
    const archived: EventInput = { type: "EvaluationArchived", data: { archived_at: "2026-11-30T12:00:00.000Z" } };
    expect(given(evaluationAggregate, [...suite, archived]).when(start()).map((e) => e.type)).toEqual(["EvaluationUnarchived", "RunScheduled"]);
  });

  it("refuses an empty selection before numbering", () => {
    expect(() => given(evaluationAggregate, suite).when(start({ keys: ["b"] }))).toThrow(
      "No scenarios selected — add scenarios to the evaluation or widen the selection",
    );
  });

  it("refuses one model under two labels", () => {
    const alias = { label: "openai/gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
    expect(() => given(evaluationAggregate, suite).when(start({ models: [GPT, alias] }))).toThrow(
      'one model under two labels: "gpt-5-mini" and "openai/gpt-5-mini" both name openai/gpt-5-mini',
    );
  });

  it("a keyed start already scheduled keeps its number and schedules nothing (its run stream answers the retry)", () => {
    const scheduled: EventInput = { type: "RunScheduled", data: { run_id: "r1", number: 1, origin: "engine" } };
    expect(given(evaluationAggregate, [...suite, scheduled]).when(start({ idempotency_key: "k1" }))).toEqual([]);
  });

  it("refuses a reused run id, and an unknown evaluation", () => {
    const scheduled: EventInput = { type: "RunScheduled", data: { run_id: "r1", number: 1, origin: "engine" } };
    expect(() => given(evaluationAggregate, [...suite, scheduled]).when(start())).toThrow(expect.objectContaining({ code: "conflict" }));
    expect(() => given(evaluationAggregate, []).when(start())).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});

describe("ImportReport on the evaluation (numbering)", () => {
  const importCommand = {
    type: "ImportReport",
    run_id: "ext-1",
    evaluation_id: "e1",
    tenant: "acme",
    source: "ci",
    agent_name: "SupportAgent",
    suite: "support",
    digest: DIGEST_A,
    report: { models: {}, results: [] },
  };

  it("numbers an imported run once; a retry reuses its number", () => {
    const [event] = given(evaluationAggregate, [created()]).when(importCommand);
    expect(event).toEqual({ type: "RunScheduled", data: { run_id: "ext-1", number: 1, origin: "imported" } });
    expect(given(evaluationAggregate, [created(), event]).when(importCommand)).toEqual([]);
  });

  it("numbers an imported run after the runs before it", () => {
    const engine: EventInput = { type: "RunScheduled", data: { run_id: "r0", number: 1, origin: "engine" } };
    expect(given(evaluationAggregate, [created(), engine]).when(importCommand)).toEqual([{ type: "RunScheduled", data: { run_id: "ext-1", number: 2, origin: "imported" } }]);
  });

  it("an engine run with the same id is a conflict", () => {
    const engine: EventInput = { type: "RunScheduled", data: { run_id: "ext-1", number: 1, origin: "engine" } };
    expect(() => given(evaluationAggregate, [created(), engine]).when(importCommand)).toThrow("run_id already exists with a different report");
  });

  it("given no evaluation, then not found", () => {
    expect(() => given(evaluationAggregate, []).when(importCommand)).toThrow(expect.objectContaining({ code: "not_found", field: "evaluation_id", message: "evaluation e1 not found" }));
  });

  const result = (key: string, label: string, extra: Record<string, unknown> = {}) => ({ scenario_key: key, label, status: "passed", prompt: `Ask ${key}`, ...extra });
  const withResults = (results: unknown[]) => ({ ...importCommand, report: { models: {}, results } });

  it("upserts the report's scenarios (one per key, as its first result has it) before numbering the run", () => {
    const events = given(evaluationAggregate, [created()]).when(
      withResults([
        result("refund", "gpt", { group: "billing", expect: { tools: ["lookup_order"], contains: ["refund"], not_contains: ["sorry"] } }),
        result("refund", "claude", { prompt: "a later result's prompt is not the scenario's" }),
        result("greeting", "gpt"),
      ]),
    );
    expect(events.map((e) => e.type)).toEqual(["ScenariosMerged", "RunScheduled"]);
    expect(events[0].data).toEqual({
      limit: 2000,
      added: ["refund", "greeting"],
      updated: [],
      unchanged: [],
      scenarios: [
        record("refund", 0, { prompt: "Ask refund", group: "billing", expected_tools: ["lookup_order"], expected_patterns: ["refund"], forbidden_patterns: ["sorry"] }),
        record("greeting", 1, { prompt: "Ask greeting" }),
      ],
    });
  });

  it("a key the evaluation holds takes the report's prompt and expectations and keeps what a report cannot say", () => {
    const own = record("refund", 4, { prompt: "Old", notes: "keep me", tags: ["vip"], params: { tier: 1 }, enabled: false, expected_tools: ["old_tool"] });
    const events = given(evaluationAggregate, [created(), replaced([own])]).when(withResults([result("refund", "gpt", { expect: { contains: ["refund"] } })]));
    expect(events[0].data).toMatchObject({ added: [], updated: ["refund"], scenarios: [{ ...own, prompt: "Ask refund", expected_patterns: ["refund"] }] });
  });

  it("takes a held scenario recorded before today's rules as it is: only what the report sends is checked", () => {
    // A soft hyphen in a group, refused in new input since session 43, recorded by an older build.
    const own = record("refund", 0, { prompt: "Old", group: "bill\u00ading", expected_tools: ["look\u200bup"] });
    const events = given(evaluationAggregate, [created(), replaced([own])]).when(withResults([result("refund", "gpt", { expect: { contains: ["refund"] } })]));
    expect(events[0].data).toMatchObject({ updated: ["refund"], scenarios: [{ ...own, prompt: "Ask refund", expected_patterns: ["refund"] }] });
    expect(() => given(evaluationAggregate, [created(), replaced([own])]).when(withResults([result("refund", "gpt", { group: "new\u200bgroup" })]))).toThrow(
      expect.objectContaining({ code: "validation", field: "report.results[0].group" }),
    );
  });

  it("records no merge when the report changes no scenario, or carries no prompts", () => {
    const same = record("refund", 0, { prompt: "Ask refund" });
    expect(given(evaluationAggregate, [created(), replaced([same])]).when(withResults([result("refund", "gpt")])).map((e) => e.type)).toEqual(["RunScheduled"]);
    expect(given(evaluationAggregate, [created()]).when(withResults([{ scenario_key: "a", label: "gpt", status: "passed" }])).map((e) => e.type)).toEqual(["RunScheduled"]);
  });

  it("refuses a scenario the evaluation could not store, naming the result's field", () => {
    expect(() => given(evaluationAggregate, [created()]).when(withResults([result("a", "gpt", { group: "g".repeat(201) })]))).toThrow(
      expect.objectContaining({ code: "validation", field: "report.results[0].group" }),
    );
  });

  it("a published report unarchives the evaluation", () => {
    const archived: EventInput = { type: "EvaluationArchived", data: { archived_at: "2026-11-30T12:00:00.000Z" } };
    expect(given(evaluationAggregate, [created(), archived]).when(importCommand)[0]).toEqual({
      type: "EvaluationUnarchived",
      data: { reason: "report_imported" },
    });
  });
});
