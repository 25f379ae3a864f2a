import { describe, expect, it } from "vitest";
import { Replay } from "../replay/replay.js";
import { Scenario } from "../scenarios/scenario.js";
import { judgeGrade, meetsThreshold, recordedCriteria, resultStatus, Scorer } from "./index.js";

const orderLookup = new Scenario({
  key: "orders_1",
  prompt: "Where is my order 4821?",
  group: "orders",
  expectedTools: ["lookup_order"],
  expectedPatterns: ["4821", "shipped|delivered"],
  forbiddenPatterns: ["I cannot"],
});
const refundPolicy = new Scenario({ key: "billing_1", prompt: "What is your refund window?", group: "billing" });

const shipped = new Replay({
  answer: "Order 4821 shipped on May 2 and should arrive Thursday.",
  toolCalls: [{ name: "lookup_order", arguments: { number: "4821" } }],
  durationMs: 1_800,
  outputTokens: 120,
});

describe("rule criteria", () => {
  it("scores each rule type", () => {
    const scorer = new Scorer({
      criteria: [
        { key: "answered", type: "response_present" },
        { key: "detail", type: "min_length", config: { chars: 110 } },
        { key: "fast", type: "max_latency_ms", config: { ms: 900 } },
        { key: "brief", type: "token_budget", config: { output_tokens: 60 } },
        { key: "mentions_arrival", type: "contains", config: { pattern: "arriv" } },
        { key: "no_apology", type: "not_contains", config: { pattern: "sorry" } },
      ],
    });
    expect(scorer.score(refundPolicy, shipped)).toEqual({
      answered: 1.0,
      detail: 0.5,
      fast: 0.5,
      brief: 0.5,
      mentions_arrival: 1.0,
      no_apology: 1.0,
      tools_succeeded: 1.0,
    });
  });

  it("uses the reference defaults: 40 characters, 5,000 ms, 1,000 output tokens", () => {
    const scorer = new Scorer({
      criteria: [
        { key: "length", type: "min_length" },
        { key: "latency", type: "max_latency_ms" },
        { key: "tokens", type: "token_budget" },
      ],
    });
    const replay = new Replay({ answer: "Refunds within 30 days.", durationMs: 10_000, outputTokens: 4_000 });
    expect(scorer.score(refundPolicy, replay)).toEqual({ length: 0.575, latency: 0.5, tokens: 0.25 });
  });

  it("gives full latency credit to a replay with no or zero duration", () => {
    const scorer = new Scorer({ criteria: [{ key: "latency", type: "max_latency_ms", config: { ms: 100 } }] });
    expect(scorer.score(refundPolicy, new Replay({ answer: "ok" })).latency).toBe(1.0);
    expect(scorer.score(refundPolicy, new Replay({ answer: "ok", durationMs: 0 })).latency).toBe(1.0);
    expect(scorer.score(refundPolicy, new Replay({ answer: "ok", durationMs: 100 })).latency).toBe(1.0);
  });

  it("counts characters as code points", () => {
    const scorer = new Scorer({ criteria: [{ key: "length", type: "min_length", config: { chars: 4 } }] });
    expect(scorer.score(refundPolicy, new Replay({ answer: "👍👍" })).length).toBe(0.5);
  });

  it("scores every criterion 0.0 for a blank answer, judge and latency included", () => {
    const scorer = new Scorer({
      criteria: [
        { key: "answered", type: "response_present" },
        { key: "latency", type: "max_latency_ms" },
        { key: "helpful", type: "llm_judge", config: { prompt: "Is it helpful?" } },
        { key: "no_apology", type: "not_contains", config: { pattern: "sorry" } },
      ],
    });
    const blank = new Replay({ answer: "  \n" });
    expect(scorer.score(refundPolicy, blank, { judgeScores: { helpful: 0.9 } })).toEqual({
      answered: 0.0,
      latency: 0.0,
      helpful: 0.0,
      no_apology: 0.0,
    });
    // Blank as Ruby's blank? reads it: U+0085 (next line) is whitespace there, not in JavaScript's \s.
    expect(scorer.score(refundPolicy, new Replay({ answer: "\u0085 \u180e" }))).toMatchObject({ answered: 0.0 });
  });

  it("scores a recorded criterion of an unknown type as null (older events still score as they did)", () => {
    const scorer = new Scorer({ criteria: recordedCriteria([{ key: "tone", type: "sentiment" }]) });
    expect(scorer.score(refundPolicy, new Replay({ answer: "Sure." }))).toEqual({ tone: null });
  });
});

describe("criteria", () => {
  it("names a criterion that cannot be scored", () => {
    expect(() => new Scorer({ criteria: [{ key: "a", type: "response_present" }, { key: " ", type: "min_length" }] })).toThrow(
      "criteria[1].key: required, a non-blank string",
    );
    expect(() => new Scorer({ criteria: [{ key: "a" } as never] })).toThrow("criteria[0].type: required, a non-blank string");
    expect(() => new Scorer({ criteria: [{ key: "a", type: "contains", config: "refund" } as never] })).toThrow(
      "criteria[0].config: must be an object",
    );
    expect(() => new Scorer({ criteria: ["response_present" as never] })).toThrow("criteria[0]: must be an object");
  });

  // The second overwrote the first: the report kept one score under the key, the other lost.
  it("refuses two criteria under one key, naming both, as the platform does", () => {
    const twice = [{ key: "quality", type: "response_present" }, { key: "quality", type: "min_length", config: { chars: 100 } }];
    expect(() => new Scorer({ criteria: twice })).toThrow('criteria[1].key: repeats "quality" (first at criteria[0].key)');
    // A recorded run's criteria score as they did.
    expect(new Scorer({ criteria: recordedCriteria(twice) }).criteria).toHaveLength(2);
  });

  it("refuses criteria that are not an array, where it failed as criteria.map is not a function", () => {
    expect(() => new Scorer({ criteria: {} as never })).toThrow("criteria: must be an array of criteria ({ key, type, config }), got an object");
  });

  // Each was dropped without a word: the criterion scored null (and the answer passed) or its
  // rule fell back to the default, whatever the author wrote.
  const refused = (criterion: Record<string, unknown>) => () => new Scorer({ criteria: [{ key: "ok", type: "response_present" }, criterion as never] });

  it("refuses an unknown type, naming the known types and the one a typo most likely meant", () => {
    expect(refused({ key: "x", type: "contain" })).toThrow(
      "criteria[1].type: unknown criterion type contain; known types: response_present, min_length, max_latency_ms, token_budget, contains, not_contains, llm_judge, trace_error_rate, trace_latency (did you mean contains?)",
    );
    expect(refused({ key: "x", type: "sentiment" })).toThrow(/^criteria\[1\]\.type: unknown criterion type sentiment; known types: response_present, .*trace_latency$/);
  });

  it("refuses a config key the type does not read, naming the one it does", () => {
    expect(refused({ key: "x", type: "min_length", config: { min: 5 } })).toThrow("criteria[1].config.min: unknown key; min_length reads chars");
    expect(refused({ key: "x", type: "max_latency_ms", config: { ms: 10, msx: 5 } })).toThrow("criteria[1].config.msx: unknown key; max_latency_ms reads ms (did you mean ms?)");
    expect(refused({ key: "x", type: "token_budget", config: { tokens: 5 } })).toThrow("criteria[1].config.tokens: unknown key; token_budget reads output_tokens");
    expect(refused({ key: "x", type: "contains", config: { pattern: "a", paterns: "b" } })).toThrow("criteria[1].config.paterns: unknown key; contains reads pattern (did you mean pattern?)");
    expect(refused({ key: "x", type: "response_present", config: { chars: 5 } })).toThrow("criteria[1].config.chars: unknown key; response_present reads no config");
    expect(refused({ key: "x", type: "llm_judge", config: { promt: "Kind?" } })).toThrow("criteria[1].config.promt: unknown key; llm_judge reads prompt (did you mean prompt?)");
    // The trace types score nothing here (a sampling evaluation's traces: not built), but take the reference's settings, so a typo is told.
    expect(refused({ key: "x", type: "trace_error_rate", config: { max_error_rate: 5, window_hours: 24, bogus: 1 } })).toThrow("criteria[1].config.bogus: unknown key; trace_error_rate reads max_error_rate, window_hours");
    expect(refused({ key: "x", type: "trace_latency", config: { max_avg_ms: 5000, window_hour: 24 } })).toThrow("criteria[1].config.window_hour: unknown key; trace_latency reads max_avg_ms, window_hours (did you mean window_hours?)");
    expect(refused({ key: "x", type: "trace_latency", config: { max_avg_ms: 5000, window_hours: 24 } })).not.toThrow();
  });

  it("refuses a config value of the wrong kind, naming the setting", () => {
    expect(refused({ key: "x", type: "min_length", config: { chars: "abc" } })).toThrow("criteria[1].config.chars: min_length chars must be a number, 0 or more");
    expect(refused({ key: "x", type: "max_latency_ms", config: { ms: -1 } })).toThrow("criteria[1].config.ms: max_latency_ms ms must be a number, 0 or more");
    expect(refused({ key: "x", type: "trace_error_rate", config: { max_error_rate: 5, window_hours: "a week" } })).toThrow("criteria[1].config.window_hours: trace_error_rate window_hours must be a number, 0 or more");
    expect(refused({ key: "x", type: "token_budget", config: { output_tokens: {} } })).toThrow("criteria[1].config.output_tokens: token_budget output_tokens must be a number, 0 or more");
    expect(refused({ key: "x", type: "contains", config: {} })).toThrow("criteria[1].config.pattern: contains needs a pattern: a non-blank string");
    expect(refused({ key: "x", type: "not_contains", config: { pattern: 5 } })).toThrow("criteria[1].config.pattern: not_contains needs a pattern: a non-blank string");
    expect(refused({ key: "x", type: "contains", config: { pattern: "/(/" } })).toThrow(/^criteria\[1\]\.config\.pattern: \/\(\/ is not a valid regular expression/);
    expect(refused({ key: "x", type: "llm_judge", config: { prompt: 5 } })).toThrow("criteria[1].config.prompt: llm_judge prompt must be non-blank text");
  });

  it("keeps what the rules read as meant: defaults, numeric strings, literals with regex characters", () => {
    const kept = [
      { key: "a", type: "min_length", config: { chars: "40" } },
      { key: "b", type: "max_latency_ms" },
      { key: "c", type: "contains", config: { pattern: "$5 (approx" } },
      { key: "d", type: "llm_judge", config: { prompt: "Kind?" } },
      { key: "e", type: "token_budget", config: null },
    ];
    expect(new Scorer({ criteria: kept }).criteria).toHaveLength(5);
  });

  it("lists the criterion types", () => {
    expect(Scorer.CRITERION_TYPES).toEqual([...Scorer.RULE_CRITERION_TYPES, "llm_judge"]);
  });
});

describe("llm_judge grades", () => {
  const scorer = new Scorer({ criteria: [{ key: "empathy", type: "llm_judge", config: { prompt: "Is it kind?" } }] });

  it("takes the judge's grade by criterion key", () => {
    expect(scorer.score(refundPolicy, new Replay({ answer: "Happy to help." }), { judgeScores: { empathy: 0.8 } })).toEqual({
      empathy: 0.8,
    });
    expect(scorer.judgeKeys).toEqual(["empathy"]);
  });

  it("leaves a missing or invalid grade unscorable and clamps the rest", () => {
    const answer = new Replay({ answer: "Happy to help." });
    expect(scorer.score(refundPolicy, answer).empathy).toBeNull();
    expect(scorer.score(refundPolicy, answer, { judgeScores: { empathy: "0.9" } }).empathy).toBeNull();
    expect(scorer.score(refundPolicy, answer, { judgeScores: { empathy: Number.NaN } }).empathy).toBeNull();
    expect(scorer.score(refundPolicy, answer, { judgeScores: { empathy: 1.4 } }).empathy).toBe(1);
  });

  it("appends task_completion last, only for a present answer", () => {
    const scores = new Scorer().score(orderLookup, shipped, { taskCompletion: 0.4 });
    expect(Object.keys(scores)).toEqual(["expected_tools", "expected_content", "forbidden_content", "tools_succeeded", "task_completion"]);
    expect(scores.task_completion).toBe(0.4);
    expect(new Scorer().score(orderLookup, shipped, { taskCompletion: null }).task_completion).toBeNull();
    expect("task_completion" in new Scorer().score(orderLookup, new Replay({ answer: "" }), { taskCompletion: 0.9 })).toBe(false);
  });
});

describe("scenario expectations", () => {
  it("credits an expected tool, content and the absence of forbidden content", () => {
    expect(new Scorer().score(orderLookup, shipped)).toEqual({
      expected_tools: 1.0,
      expected_content: 1.0,
      forbidden_content: 1.0,
      tools_succeeded: 1.0,
    });
  });

  it("scores content as matched / total rounded to 3 decimals", () => {
    const scenario = new Scenario({ key: "k", prompt: "p", expectedPatterns: ["refund", "30 days", "receipt"] });
    expect(new Scorer().score(scenario, new Replay({ answer: "Refunds take 30 days." })).expected_content).toBe(0.667);
  });

  it("fails forbidden content on any match", () => {
    const replay = new Replay({ answer: "I cannot look that up.", toolCalls: [{ name: "lookup_order" }] });
    expect(new Scorer().score(orderLookup, replay).forbidden_content).toBe(0.0);
  });

  it("does not credit a successful call to the wrong tool", () => {
    const replay = new Replay({ answer: "Order 4821 shipped.", toolCalls: [{ name: "search_faq" }] });
    const scores = new Scorer().score(orderLookup, replay);
    expect(scores.expected_tools).toBe(0.0);
    expect("tools_succeeded" in scores).toBe(false);
  });

  it("marks tools_succeeded 0.0 when a call errored, and omits it with no calls", () => {
    const failing = new Replay({ answer: "Order 4821 shipped.", toolCalls: [{ name: "lookup_order", error: "timeout" }] });
    expect(new Scorer().score(orderLookup, failing).tools_succeeded).toBe(0.0);
    expect(new Scorer().score(refundPolicy, new Replay({ answer: "30 days." }))).toEqual({});
  });

  it("overwrites a criterion with an expectation's key in place", () => {
    const scorer = new Scorer({ criteria: [{ key: "expected_tools", type: "response_present" }, { key: "x", type: "response_present" }] });
    const scores = scorer.score(orderLookup, new Replay({ answer: "Order 4821 shipped.", toolCalls: [] }));
    expect(Object.keys(scores).slice(0, 2)).toEqual(["expected_tools", "x"]);
    expect(scores.expected_tools).toBe(0.0);
  });
});

describe("pattern results shared with Diagnosis", () => {
  it("stay correct when replays of one scenario interleave", async () => {
    const { Diagnosis } = await import("../diagnosis/index.js");
    const good = new Replay({ answer: "Order 4821 shipped.", toolCalls: [{ name: "lookup_order" }] });
    const bad = new Replay({ answer: "Order 4821: I cannot say.", toolCalls: [{ name: "lookup_order" }] });
    const scorer = new Scorer();
    const goodScores = scorer.score(orderLookup, good);
    const badScores = scorer.score(orderLookup, bad);
    expect(goodScores.forbidden_content).toBe(1);
    expect(badScores.forbidden_content).toBe(0);
    const input = { scenario: orderLookup, availableTools: ["lookup_order"] };
    expect(Diagnosis.diagnose({ ...input, replay: good, scores: goodScores, score: Scorer.mean(goodScores) })).toBeNull();
    expect(Diagnosis.diagnose({ ...input, replay: bad, scores: badScores, score: Scorer.mean(badScores) })?.evidence).toEqual({
      matched: ["I cannot"],
    });
    expect(Diagnosis.diagnose({ ...input, replay: good, scores: goodScores, score: Scorer.mean(goodScores) })).toBeNull();
  });
});

describe("Scorer.mean", () => {
  it("averages the non-null values to 3 decimals", () => {
    expect(Scorer.mean({ a: 1, b: 0.5, c: null, d: 0.5 })).toBe(0.667);
    expect(Scorer.mean([0.6665, null])).toBe(0.667);
    expect(Scorer.mean({ a: null })).toBeNull();
    expect(Scorer.mean([])).toBeNull();
  });

  it("adds the scores as Ruby's Array#sum does, so a mean of exactly 0.6995 rounds to 0.7 and passes", () => {
    // One by one, 0.775 + 0.867 + 0.441 + 0.715 is 2.7979999999999996: a mean of 0.699.
    const scorer = new Scorer({
      criteria: [
        { key: "length", type: "min_length", config: { chars: 40 } },
        { key: "budget", type: "token_budget", config: { output_tokens: 867 } },
        { key: "latency", type: "max_latency_ms", config: { ms: 441 } },
        { key: "latency_soft", type: "max_latency_ms", config: { ms: 715 } },
      ],
    });
    const scores = scorer.score(new Scenario({ key: "a", prompt: "p" }), new Replay({ answer: "x".repeat(31), outputTokens: 1000, durationMs: 1000 }));
    expect(scores).toEqual({ length: 0.775, budget: 0.867, latency: 0.441, latency_soft: 0.715 });
    expect(Scorer.mean(scores)).toBe(0.7);
    expect(meetsThreshold({ score: Scorer.mean(scores), scores })).toBe(true);
  });
});

describe("the pass gate", () => {
  it("passes at exactly the threshold", () => {
    expect(meetsThreshold({ score: 0.7, scores: {} })).toBe(true);
    expect(meetsThreshold({ score: 0.699, scores: {} })).toBe(false);
    expect(meetsThreshold({ score: null, scores: {} })).toBe(true);
  });

  it("requires a scorable task-completion grade to pass on its own", () => {
    const scores = { expected_tools: 1, expected_content: 1, forbidden_content: 1, tools_succeeded: 1, task_completion: 0.4 };
    const score = Scorer.mean(scores);
    expect(score).toBe(0.88);
    expect(meetsThreshold({ score, scores })).toBe(false);
    expect(new Scorer().meetsThreshold(scores)).toBe(false);
  });

  it("passes a task-completion grade exactly at the threshold, and fails one just below", () => {
    expect(meetsThreshold({ score: 1, scores: { expected_tools: 1, task_completion: 0.7 } })).toBe(true);
    expect(meetsThreshold({ score: 1, scores: { expected_tools: 1, task_completion: 0.699 } })).toBe(false);
    expect(meetsThreshold({ score: 1, scores: { task_completion: 0.6 }, threshold: 0.6 })).toBe(true);
  });

  it("ignores an unscorable grade", () => {
    const scores = { expected_tools: 1, task_completion: null };
    expect(judgeGrade(scores)).toBeNull();
    expect(meetsThreshold({ score: 1, scores })).toBe(true);
  });

  it("averages llm_judge criteria with task completion", () => {
    const scores = { empathy: 0.9, accuracy: 0.4, task_completion: 0.6 };
    expect(judgeGrade(scores, ["empathy", "accuracy"])).toBe(0.633);
    expect(meetsThreshold({ score: 0.9, scores, judgeKeys: ["empathy", "accuracy"] })).toBe(false);
    expect(meetsThreshold({ score: 0.9, scores, threshold: 0.6, judgeKeys: ["empathy", "accuracy"] })).toBe(true);
  });

  it("decides the status from the run error and the diagnosis", () => {
    expect(resultStatus({ errored: true, diagnosis: { fault: "run_error" } })).toBe("errored");
    expect(resultStatus({ errored: false, diagnosis: { fault: "low_quality" } })).toBe("failed");
    expect(resultStatus({ errored: false, diagnosis: null })).toBe("passed");
  });
});
