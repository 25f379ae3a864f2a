import { describe, expect, it } from "vitest";
import { runAggregate } from "./runAggregate.js";
import { given } from "../testing/givenWhenThen.js";
import { CLAUDE, created, DIGEST_A, DIGEST_B, GPT, record, replaced, runStarted } from "../testing/fixtures.js";
import { evaluationAggregate } from "../evaluation/evaluationAggregate.js";
import type { EventInput } from "../../events/registry.js";

const CATALOG_REF = { catalog_key: "support_desk", product_key: "triage", set_key: "smoke", digest: DIGEST_A };
const evaluationWith = (...extra: EventInput[]) =>
  given(evaluationAggregate, [
    created("e1", { judge: { kind: "llm", model: "claude-opus-5" }, criteria: [{ key: "c", type: "contains", config: {} }], threshold: 0.85, catalog: CATALOG_REF }),
    replaced([record("b", 1, { group: "g" }), record("a", 0, { group: "g" }), record("x", 2, { enabled: false })]),
    { type: "RunScheduled", data: { run_id: "r1", number: 3, origin: "engine" } },
    ...extra,
  ]).state;

const startCommand = { type: "StartRun", run_id: "r1", evaluation_id: "e1", models: [GPT, CLAUDE], release: { digest: "abc123def456", label: "v2" } };

describe("StartRun on the run stream", () => {
  it("freezes the selection: scenarios as evaluated, models, criteria, judge label, threshold, catalog set, release, number", () => {
    const [event] = given(runAggregate, [], { evaluation: evaluationWith() }).when(startCommand);
    expect(event.type).toBe("RunStarted");
    expect(event.data).toMatchObject({
      run_id: "r1",
      number: 3,
      external: false,
      selection: { keys: null, group: null, scenario_keys: ["a", "b"], model_labels: ["gpt-5-mini", "claude-sonnet-5"] },
      models: [GPT, CLAUDE],
      criteria: [{ key: "c", type: "contains" }],
      judge_label: "claude-opus-5",
      threshold: 0.85,
      catalog: CATALOG_REF,
      release: { digest: "abc123def456", label: "v2" },
    });
    const scenarios = (event.data as { scenarios: Record<string, unknown>[] }).scenarios;
    expect(scenarios[0]).toEqual({ ...record("a", 0, { group: "g" }), enabled: undefined });
    expect("enabled" in scenarios[0]).toBe(false);
  });

  it("freezes the evaluation's agent, so the run names it whatever the evaluation becomes", () => {
    const [event] = given(runAggregate, [], { evaluation: evaluationWith() }).when(startCommand);
    expect((event.data as { agent: unknown }).agent).toBe("SupportAgent");
    const renamed = given(evaluationAggregate, [created("e1", { agent: "RevAgent" }), replaced([record("a", 0)]), { type: "RunScheduled", data: { run_id: "r1", number: 1, origin: "engine" } }]).state;
    const [other] = given(runAggregate, [], { evaluation: renamed }).when(startCommand);
    expect((other.data as { agent: unknown }).agent).toBe("RevAgent");
  });

  it("refuses more than 50 models in one run, naming the field", () => {
    const models = (n: number) => Array.from({ length: n }, (_, i) => ({ ...GPT, label: `m${i}`, model: `m${i}` }));
    expect(() => given(runAggregate, [], { evaluation: evaluationWith() }).when({ ...startCommand, models: models(51) })).toThrow(
      expect.objectContaining({ code: "validation", message: expect.stringContaining("models: at most 50 models a run") }),
    );
  });

  it("a keyed start records its key and the digest of its arguments; the same again is nothing, other arguments a conflict naming the key", () => {
    const keyed = { ...startCommand, idempotency_key: "job-7" };
    const [event] = given(runAggregate, [], { evaluation: evaluationWith() }).when(keyed);
    expect(event.data).toMatchObject({ idempotency: { key: "job-7", request_digest: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    const started = given(runAggregate, [event], { evaluation: evaluationWith() });
    expect(started.when(keyed)).toEqual([]);
    for (const other of [{ models: [GPT] }, { keys: ["a"] }, { external: true }, { release: null }, { tools: [{ name: "lookup_order" }] }]) {
      expect(() => started.when({ ...keyed, ...other })).toThrow(expect.objectContaining({
        code: "conflict", field: "idempotency_key", message: expect.stringMatching(/^idempotency key "job-7" already started run #3 \(r1\) of evaluation e1 with other arguments/),
      }));
    }
    // Without a key the run id is the caller's, and a second start of it is refused as before.
    expect(() => started.when(startCommand)).toThrow("run r1 already exists");
    const [unkeyed] = given(runAggregate, [], { evaluation: evaluationWith() }).when(startCommand);
    expect(unkeyed.data).not.toHaveProperty("idempotency");
  });

  it("refuses a run the evaluation did not schedule", () => {
    expect(() => given(runAggregate, [], { evaluation: evaluationWith() }).when({ ...startCommand, run_id: "r9" })).toThrow(
      "run r9 was not scheduled on evaluation e1",
    );
  });

  it("refuses starting a run twice", () => {
    expect(() => given(runAggregate, [runStarted()], { evaluation: evaluationWith() }).when(startCommand)).toThrow("run r1 already exists");
  });

  it("folds the pairs scenario-major, so pair n names its stream", () => {
    const state = given(runAggregate, [runStarted()]).state;
    expect(state.pairs.map((p) => [p.n, p.scenarioKey, p.modelLabel])).toEqual([
      [0, "a", "gpt-5-mini"],
      [1, "a", "claude-sonnet-5"],
      [2, "b", "gpt-5-mini"],
      [3, "b", "claude-sonnet-5"],
    ]);
  });
});

const completed: EventInput = { type: "RunCompleted", data: { scored: 4, passed: 4, summary: {} } };
const failed: EventInput = { type: "RunFailed", data: { message: "boom" } };

describe("RequestRunCompletion", () => {
  const request = { type: "RequestRunCompletion", run_id: "r1", scored: 4 };
  it("is recorded once", () => {
    expect(given(runAggregate, [runStarted()]).when(request)).toEqual([{ type: "RunCompletionRequested", data: { scored: 4 } }]);
    expect(given(runAggregate, [runStarted(), { type: "RunCompletionRequested", data: { scored: 4 } }]).when(request)).toEqual([]);
  });
  it("changes nothing after the run ended, and is not found before it started", () => {
    expect(given(runAggregate, [runStarted(), completed]).when(request)).toEqual([]);
    expect(() => given(runAggregate, []).when(request)).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});

describe("RecordVerdict", () => {
  const verdict = {
    type: "RecordVerdict",
    run_id: "r1",
    verdict: { winner: "gpt-5-mini", rationale: "Passed 2 of 2 scenarios (100%).", judge: "pass rate" },
    judge_label: null,
    ranking: { "gpt-5-mini": { pass_rate: 100 } },
  };
  it("records the verdict with its ranking inputs, once", () => {
    const [event] = given(runAggregate, [runStarted()]).when(verdict);
    expect(event).toEqual({
      type: "VerdictRecorded",
      data: { verdict: verdict.verdict, judge_label: null, ranking: verdict.ranking, judge_exchange: null },
    });
    expect(() => given(runAggregate, [runStarted(), event]).when(verdict)).toThrow("run r1 already has a verdict");
  });
  it("records a judge's NUL or lone surrogate as U+FFFD rather than refusing the verdict", () => {
    const exchange = { kind: "verdict", prompt_digest: "d", raw_answer: "pick\u0000 \ud800", parsed: null, usage: null, trace_ids: [], error: null };
    const hostile = { ...verdict, verdict: { ...verdict.verdict, rationale: "Best\u0000 overall \udfff" }, judge_exchange: exchange };
    const [event] = given(runAggregate, [runStarted()]).when(hostile);
    expect(event.type).toBe("VerdictRecorded");
    expect((event.data as { verdict: { rationale: string } }).verdict.rationale).toBe("Best\ufffd overall \ufffd");
    expect((event.data as { judge_exchange: { raw_answer: string } }).judge_exchange.raw_answer).toBe("pick\ufffd \ufffd");
  });
  it("refuses a winner that is not one of the run's models", () => {
    expect(() => given(runAggregate, [runStarted()]).when({ ...verdict, verdict: { ...verdict.verdict, winner: "gpt-4" } })).toThrow(
      'verdict winner "gpt-4" is not a model of run r1',
    );
  });
  it("refuses a verdict on a finished run", () => {
    expect(() => given(runAggregate, [runStarted(), completed]).when(verdict)).toThrow(expect.objectContaining({ code: "conflict", message: "run r1 is complete" }));
  });
});

describe("RecordComparison", () => {
  const comparison = { type: "RecordComparison", run_id: "r1", comparison: { conclusion: "x" }, seed: 0, resamples: 5000, confidence: 0.95 };
  it("records seed and resample count with the comparison, once", () => {
    const [event] = given(runAggregate, [runStarted()]).when(comparison);
    expect(event.data).toEqual({ comparison: { conclusion: "x" }, seed: 0, resamples: 5000, confidence: 0.95 });
    expect(() => given(runAggregate, [runStarted(), event]).when(comparison)).toThrow("run r1 already has a comparison");
  });
  it("refuses a comparison of a single-model run", () => {
    expect(() => given(runAggregate, [runStarted({}, ["a"], [GPT])]).when(comparison)).toThrow("a comparison needs at least two models");
  });
});

const results = (pairs: [string, string, boolean][]) => pairs.map(([scenario_key, model_label, pass]) => ({ scenario_key, model_label, pass }));
const all = results([
  ["a", "gpt-5-mini", true],
  ["a", "claude-sonnet-5", false],
  ["b", "gpt-5-mini", true],
  ["b", "claude-sonnet-5", true],
]);

describe("CompleteRun", () => {
  it("completes when every selected pair is scored", () => {
    expect(given(runAggregate, [runStarted()]).when({ type: "CompleteRun", run_id: "r1", results: all, summary: { models: {} } })).toEqual([
      { type: "RunCompleted", data: { scored: 4, passed: 3, summary: { models: {} } } },
    ]);
  });

  it("an engine run with unscored pairs is refused, naming them", () => {
    expect(() => given(runAggregate, [runStarted()]).when({ type: "CompleteRun", run_id: "r1", results: all.slice(0, 3) })).toThrow(
      "run r1 cannot complete: missing b × claude-sonnet-5",
    );
  });

  it("an external run with a missing, unknown or duplicate pair fails, naming each once", () => {
    const reported = [...all.slice(1), all[1], ...results([["z", "gpt-5-mini", true], ["z", "gpt-5-mini", false]])];
    const [event] = given(runAggregate, [runStarted({ external: true })]).when({ type: "CompleteRun", run_id: "r1", results: reported });
    expect(event).toEqual({
      type: "RunFailed",
      data: {
        message:
          "The external run did not report every selected scenario and model exactly once: missing a × gpt-5-mini; unknown z × gpt-5-mini; duplicate a × claude-sonnet-5",
        pairs: { missing: ["a × gpt-5-mini"], unknown: ["z × gpt-5-mini"], duplicate: ["a × claude-sonnet-5"] },
      },
    });
  });

  it("an external run that reported every pair once completes", () => {
    expect(given(runAggregate, [runStarted({ external: true })]).when({ type: "CompleteRun", run_id: "r1", results: all })[0].type).toBe("RunCompleted");
  });

  it("completes exactly once: terminal states are final", () => {
    expect(() => given(runAggregate, [runStarted(), completed]).when({ type: "CompleteRun", run_id: "r1", results: all })).toThrow("run r1 is complete");
    expect(() => given(runAggregate, [runStarted(), failed]).when({ type: "CompleteRun", run_id: "r1", results: all })).toThrow("run r1 is failed");
  });
});

describe("FailRun", () => {
  const fail = { type: "FailRun", run_id: "r1", message: "unsupported model provider: acme" };
  it("fails a running run with its message", () => {
    expect(given(runAggregate, [runStarted()]).when(fail)).toEqual([{ type: "RunFailed", data: { message: "unsupported model provider: acme" } }]);
  });
  it("refuses a finished or unknown run, and a blank message", () => {
    expect(() => given(runAggregate, [runStarted(), completed]).when(fail)).toThrow(expect.objectContaining({ code: "conflict" }));
    expect(() => given(runAggregate, []).when(fail)).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(() => given(runAggregate, [runStarted()]).when({ ...fail, message: " " })).toThrow(expect.objectContaining({ field: "message" }));
  });
});

describe("RecordRedrive", () => {
  const redrive = { type: "RecordRedrive", run_id: "r1", cause: "restart", jobs: "replay", pending: 4 };
  it("records a running run's re-drive, with its cause and the pairs still pending", () => {
    expect(given(runAggregate, [runStarted()]).when(redrive)).toEqual([{ type: "RunRedriven", data: { cause: "restart", jobs: "replay", pending: 4 } }]);
  });
  it("records nothing for a run that ended (no jobs are published for it), and refuses an unknown run", () => {
    expect(given(runAggregate, [runStarted(), completed]).when(redrive)).toEqual([]);
    expect(() => given(runAggregate, []).when(redrive)).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(() => given(runAggregate, [runStarted()]).when({ ...redrive, cause: "boredom" })).toThrow(expect.objectContaining({ field: "cause" }));
  });
});

describe("RejectPair", () => {
  const external = runStarted({ external: true });
  const reject = (scenario_key: string, model_label: string, problem: string) => ({ type: "RejectPair", run_id: "r1", scenario_key, model_label, problem });

  it("fails a running external run once, naming the pair outside the selection", () => {
    expect(given(runAggregate, [external]).when(reject("z", "gpt-5-mini", "unknown"))).toEqual([
      {
        type: "RunFailed",
        data: {
          message: "The external run did not report every selected scenario and model exactly once: unknown z × gpt-5-mini",
          pairs: { missing: [], unknown: ["z × gpt-5-mini"], duplicate: [] },
        },
      },
    ]);
  });

  it("fails a running external run once, naming the pair recorded twice", () => {
    const [event] = given(runAggregate, [external]).when(reject("a", "claude-sonnet-5", "duplicate"));
    expect(event.data).toEqual({
      message: "The external run did not report every selected scenario and model exactly once: duplicate a × claude-sonnet-5",
      pairs: { missing: [], unknown: [], duplicate: ["a × claude-sonnet-5"] },
    });
  });

  it("leaves a run that has ended as it is: a second refusal, or one after completion, appends nothing", () => {
    const [failedOnce] = given(runAggregate, [external]).when(reject("z", "gpt-5-mini", "unknown"));
    expect(given(runAggregate, [external, failedOnce]).when(reject("a", "gpt-5-mini", "duplicate"))).toEqual([]);
    expect(given(runAggregate, [external, completed]).when(reject("z", "gpt-5-mini", "unknown"))).toEqual([]);
    expect(given(runAggregate, [external, failed]).when(reject("z", "gpt-5-mini", "unknown"))).toEqual([]);
  });

  it("refuses an unknown run, an engine run, and a problem the selection contradicts", () => {
    expect(() => given(runAggregate, []).when(reject("z", "gpt-5-mini", "unknown"))).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(() => given(runAggregate, [runStarted()]).when(reject("z", "gpt-5-mini", "unknown"))).toThrow(
      expect.objectContaining({ code: "conflict", message: "run r1 is not external; a pair its workers refuse does not fail it" }),
    );
    expect(() => given(runAggregate, [external]).when(reject("a", "gpt-5-mini", "unknown"))).toThrow("pair a × gpt-5-mini is in run r1's selection, so it is not unknown");
    expect(() => given(runAggregate, [external]).when(reject("z", "gpt-5-mini", "duplicate"))).toThrow("pair z × gpt-5-mini is not in run r1's selection, so it is not duplicate");
    expect(() => given(runAggregate, [external]).when(reject("a", "gpt-5-mini", "missing"))).toThrow(expect.objectContaining({ field: "problem" }));
  });
});

describe("ImportReport on the run stream", () => {
  const report = {
    models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } },
    results: [{ scenario_key: "a", label: "gpt-5-mini", status: "failed", fault: "missing_content" }],
  };
  const command = {
    type: "ImportReport",
    run_id: "r1",
    evaluation_id: "e1",
    tenant: "acme",
    source: "ci",
    agent_name: "SupportAgent",
    suite: "support",
    digest: DIGEST_A,
    report,
  };
  const evaluation = given(evaluationAggregate, [created(), { type: "RunScheduled", data: { run_id: "r1", number: 2, origin: "imported" } }]).state;

  it("a new report becomes a completed run with its number", () => {
    const [event] = given(runAggregate, [], { evaluation }).when(command);
    expect(event.type).toBe("ReportImported");
    expect(event.data).toMatchObject({ run_id: "r1", number: 2, digest: DIGEST_A, report });
    expect(given(runAggregate, [event]).state.status).toBe("complete");
  });

  it("refuses a report of another agent than the evaluation's, naming both, after the report's own checks", () => {
    expect(() => given(runAggregate, [], { evaluation }).when({ ...command, agent_name: "BillingAgent" })).toThrow(
      expect.objectContaining({ code: "conflict", field: "agent_name", message: 'the report is for agent "BillingAgent" but evaluation e1 is for agent "SupportAgent"' }),
    );
    const invalid = { ...command, agent_name: "BillingAgent", report: { ...report, threshold: 70 } };
    expect(() => given(runAggregate, [], { evaluation }).when(invalid)).toThrow(expect.objectContaining({ code: "validation", field: "report.threshold" }));
  });

  it("the same run id with the same content is a no-op; different content is a conflict", () => {
    const [event] = given(runAggregate, [], { evaluation }).when(command);
    expect(given(runAggregate, [event]).when(command)).toEqual([]);
    expect(() => given(runAggregate, [event]).when({ ...command, digest: DIGEST_B })).toThrow(
      expect.objectContaining({ code: "conflict", message: "run_id already exists with a different report" }),
    );
  });

  it("an invalid report is refused naming its field before the run_id is matched: under an imported run as under none", () => {
    const [event] = given(runAggregate, [], { evaluation }).when(command);
    const invalid = { ...command, digest: DIGEST_B, report: { ...report, results: [{ label: "gpt-5-mini", status: "passed" }] } };
    const refusal = expect.objectContaining({ code: "validation", field: "report.results[0].scenario_key" });
    expect(() => given(runAggregate, [], { evaluation }).when(invalid)).toThrow(refusal);
    expect(() => given(runAggregate, [event]).when(invalid)).toThrow(refusal);
    expect(() => given(runAggregate, [event]).when({ ...invalid, evaluation_id: "e9" })).toThrow(refusal);
  });

  it("a report stored under older rules (threshold 70) re-sent unchanged is a no-op, not VALIDATION; changed, it is VALIDATION naming its field", () => {
    // Appended as a build before the 0-1 threshold rule did: today's decision would refuse it.
    const old = { ...command, report: { ...report, threshold: 70 } };
    const { type: _type, ...data } = old;
    const stored = { type: "ReportImported" as const, data: { ...data, host_run_id: null, number: 2 } };
    expect(given(runAggregate, [stored]).state).toMatchObject({ status: "complete", imported: true, digest: DIGEST_A });
    expect(given(runAggregate, [stored]).when(old)).toEqual([]);
    const refusal = expect.objectContaining({ code: "validation", field: "report.threshold" });
    // Another digest, or another evaluation: checked first, so the field to fix is named.
    expect(() => given(runAggregate, [stored]).when({ ...old, digest: DIGEST_B })).toThrow(refusal);
    expect(() => given(runAggregate, [stored]).when({ ...old, evaluation_id: "e9" })).toThrow(refusal);
  });

  it("the same report into another evaluation is a conflict, not a no-op that claims the run; the message names the host's run_id", () => {
    const [event] = given(runAggregate, [], { evaluation }).when(command);
    expect(() => given(runAggregate, [event]).when({ ...command, evaluation_id: "e9" })).toThrow(
      expect.objectContaining({ code: "conflict", message: "run r1 already exists" }),
    );
    const keyed = { ...command, host_run_id: "nightly-42" };
    const [keyedEvent] = given(runAggregate, [], { evaluation }).when(keyed);
    expect(keyedEvent.data).toMatchObject({ run_id: "r1", host_run_id: "nightly-42" });
    expect(() => given(runAggregate, [keyedEvent]).when({ ...keyed, evaluation_id: "e9" })).toThrow(
      expect.objectContaining({ code: "conflict", message: "run nightly-42 already exists" }),
    );
  });

  it("an engine run with that id is a conflict", () => {
    expect(() => given(runAggregate, [runStarted()]).when(command)).toThrow("run_id already exists with a different report");
  });

  it("accepts a report written by this platform, whose per-model summaries are under summary_by_model", () => {
    const { models, ...rest } = report;
    const ours = { ...rest, summary_by_model: models };
    const [event] = given(runAggregate, [], { evaluation }).when({ ...command, report: ours });
    expect(event.type).toBe("ReportImported");
    const neither = { ...rest };
    expect(() => given(runAggregate, [], { evaluation }).when({ ...command, report: neither })).toThrow("report.models (or summary_by_model) must be an object");
  });

  it("refuses more than 50 models or 1,000 results, naming the field, and takes exactly 50 and 1,000", () => {
    const g = given(runAggregate, [], { evaluation });
    const models = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, { provider: "openai", model: `m${i}` }]));
    const results = (n: number) => Array.from({ length: n }, (_, i) => ({ scenario_key: `s${i}`, label: "m0", status: "passed" }));
    const sized = (m: number, r: number) => ({ ...command, report: { models: models(m), results: results(r) } });
    expect(() => g.when(sized(51, 1))).toThrow(expect.objectContaining({ code: "validation", field: "report.models", message: "report.models holds 51 models, over the 50 limit" }));
    expect(() => g.when(sized(1, 1001))).toThrow(expect.objectContaining({ code: "validation", field: "report.results", message: "report.results holds 1001 results, over the 1000 limit" }));
    expect(g.when(sized(50, 1000))[0].type).toBe("ReportImported");
  });

  it("refuses figures the run's read model cannot hold: fractional or huge counts, non-numbers, naming the field", () => {
    const g = given(runAggregate, [], { evaluation });
    const withResult = (extra: Record<string, unknown>) => ({ ...command, report: { ...report, results: [{ ...report.results[0], ...extra }] } });
    expect(() => g.when(withResult({ input_tokens: 1.5 }))).toThrow(expect.objectContaining({ code: "validation", field: "report.results[0].input_tokens" }));
    expect(() => g.when(withResult({ output_tokens: 2 ** 63 }))).toThrow("report.results[0].output_tokens must be a whole number from 0 to 1000000000000");
    expect(() => g.when(withResult({ input_tokens: -1 }))).toThrow(/input_tokens must be a whole number/);
    expect(() => g.when(withResult({ judge_usage: { calls: 2 ** 31 } }))).toThrow(expect.objectContaining({ field: "report.results[0].judge_usage.calls" }));
    expect(() => g.when(withResult({ score: "high" }))).toThrow("report.results[0].score must be a number");
    // Two costs of 1.7e308 overflowed the run's float8 sum: the import answered success and the run stayed PENDING.
    expect(() => g.when(withResult({ cost: 1.7e308 }))).toThrow("report.results[0].cost must be a number from 0 to 1000000000");
    expect(() => g.when(withResult({ duration_ms: -5 }))).toThrow(expect.objectContaining({ field: "report.results[0].duration_ms" }));
    expect(() => g.when(withResult({ judge_usage: { cost: 1e300 } }))).toThrow(expect.objectContaining({ field: "report.results[0].judge_usage.cost" }));
    expect(() => g.when({ ...command, report: { ...report, comparison: { resamples: 0.5 } } })).toThrow(expect.objectContaining({ field: "report.comparison.resamples" }));
    // Omitted or null figures, and whole counts in range, are fine.
    expect(g.when(withResult({ input_tokens: 1200, output_tokens: null, score: 0.5, cost: 0.0012, judge_usage: { calls: 2, cost: null } }))[0].type).toBe("ReportImported");
  });

  it("refuses a judge usage's by_kind of more than 16 kinds, a kind over 64 characters or a count that is not a whole count, naming the field", () => {
    const g = given(runAggregate, [], { evaluation });
    const withResult = (extra: Record<string, unknown>) => ({ ...command, report: { ...report, results: [{ ...report.results[0], ...extra }] } });
    const kinds = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]));
    const field = "report.results[0].judge_usage.by_kind";
    expect(() => g.when(withResult({ judge_usage: { calls: 17, by_kind: kinds(17) } }))).toThrow(
      expect.objectContaining({ code: "validation", field, message: `${field} names 17 kinds, over the 16 limit` }),
    );
    expect(() => g.when(withResult({ judge_usage: { by_kind: { ["k".repeat(65)]: 1 } } }))).toThrow(
      expect.objectContaining({ field, message: `${field}: a kind must be at most 64 characters (one has 65)` }),
    );
    for (const count of ["4", -3, 2.9, 1e12, null, true]) {
      expect(() => g.when(withResult({ judge_usage: { by_kind: { score: count } } }))).toThrow(
        expect.objectContaining({ field, message: `${field}: the count of "score" must be a whole number from 0 to 1000000` }),
      );
    }
    expect(() => g.when(withResult({ judge_usage: { by_kind: [1, 2] } }))).toThrow(expect.objectContaining({ field }));
    // The copy in the result's metadata, which the report reads, and the run's own usage, both ways it is given.
    expect(() => g.when(withResult({ metadata: { judge_usage: { by_kind: kinds(17) } } }))).toThrow(
      expect.objectContaining({ field: "report.results[0].metadata.judge_usage.by_kind" }),
    );
    expect(() => g.when({ ...command, report: { ...report, run_judge_usage: { calls: 1, by_kind: kinds(17) } } })).toThrow(
      expect.objectContaining({ field: "report.run_judge_usage.by_kind" }),
    );
    expect(() => g.when({ ...command, report: { ...report, judge_usage: { run: { by_kind: { verdict: -1 } } } } })).toThrow(
      expect.objectContaining({ field: "report.judge_usage.run.by_kind" }),
    );
    // 16 kinds named in 64 characters each, whole counts to the limit: taken.
    const most = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`${i}`.padStart(64, "k"), i === 0 ? 1_000_000 : 0]));
    expect(g.when(withResult({ judge_usage: { calls: 1, by_kind: most }, metadata: { judge_usage: { calls: 1, by_kind: most } } }))[0].type).toBe("ReportImported");
  });

  it("refuses a comparison its report could not be rendered with, naming the field: the pages read it back with the same check", () => {
    const g = given(runAggregate, [], { evaluation });
    const [a, b] = [Object.keys(report.models)[0], "claude-sonnet-5"];
    const models = { [a]: { scenarios: 2, pass_rate: 50, interval: [0, 100] }, [b]: { scenarios: 2, pass_rate: 100, interval: [100, 100] } };
    const pair = { models: [a, b], scenarios: 2, difference: 50, interval: [-5, 10], decisive: true };
    const withComparison = (comparison: object) => ({ ...command, report: { ...report, comparison: { models, pairs: [pair], conclusion: "", ...comparison } } });
    expect(() => g.when(withComparison({}))).toThrow(
      expect.objectContaining({ code: "validation", field: "report.comparison.pairs.0.decisive", message: expect.stringMatching(/^report\.comparison\.pairs\.0\.decisive: must be false/) }),
    );
    expect(() => g.when(withComparison({ models: { ...models, [a]: { ...models[a], pass_rate: 170 } }, pairs: [{ ...pair, decisive: false }] }))).toThrow(
      expect.objectContaining({ field: `report.comparison.models.${a}.pass_rate` }),
    );
    expect(g.when(withComparison({ pairs: [{ ...pair, decisive: false }] }))[0].type).toBe("ReportImported");
  });

  it("refuses a report with two labels for one model, a label missing from models, an unknown fault", () => {
    const g = given(runAggregate, [], { evaluation });
    const twoLabels = { ...report, models: { ...report.models, "openai/gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } } };
    expect(() => g.when({ ...command, report: twoLabels })).toThrow(/name the same provider\/model \(openai\/gpt-5-mini\)/);
    const missing = { ...report, results: [{ ...report.results[0], label: "gpt-9" }] };
    expect(() => g.when({ ...command, report: missing })).toThrow('report.results[0].label "gpt-9" is missing from report.models');
    const fault = { ...report, results: [{ ...report.results[0], fault: "bad_vibes" }] };
    expect(() => g.when({ ...command, report: fault })).toThrow('report.results[0].fault: unknown fault "bad_vibes"');
  });

  it("refuses a result the report cannot render or that contradicts another, naming the path and the rule", () => {
    const g = given(runAggregate, [], { evaluation });
    const ok = { scenario_key: "a", label: "gpt-5-mini", status: "passed", score: 0.9 };
    const refused = (results: Record<string, unknown>[], field: string, message: string) => {
      expect(() => g.when({ ...command, report: { ...report, results } })).toThrow(expect.objectContaining({ code: "validation", field, message }));
    };
    const { scenario_key: _key, ...keyless } = ok;
    refused([ok, keyless], "report.results[1].scenario_key", "report.results[1].scenario_key is required: the key of the scenario the result is for");
    refused([{ ...ok, scenario_key: " " }], "report.results[0].scenario_key", "report.results[0].scenario_key is required: the key of the scenario the result is for");
    refused([{ ...ok, scenario_key: 5 }], "report.results[0].scenario_key", "report.results[0].scenario_key is required: the key of the scenario the result is for");
    refused(
      [ok, { ...ok, scenario_key: "b" }, { ...ok, status: "failed", fault: "low_quality", score: 0.1 }],
      "report.results[2].scenario_key",
      'report.results[2]: scenario "a" × model "gpt-5-mini" repeats report.results[0] (one result per scenario and model)',
    );
    refused([{ ...ok, status: "weird" }], "report.results[0].status", "report.results[0].status must be one of passed, failed, errored");
    const { status: _status, ...statusless } = ok;
    refused([statusless], "report.results[0].status", "report.results[0].status must be one of passed, failed, errored");
    refused([{ ...ok, score: 5 }], "report.results[0].score", "report.results[0].score must be a number from 0 to 1");
    refused([{ ...ok, score: -0.1 }], "report.results[0].score", "report.results[0].score must be a number from 0 to 1");
    refused([{ ...ok, scores: { tone: 2 } }], "report.results[0].scores.tone", "report.results[0].scores.tone must be a number from 0 to 1");
    refused([{ ...ok, scores: [1] }], "report.results[0].scores", "report.results[0].scores must be an object keyed by criterion");
    // What the renderer reads as text or rebuilds a Replay from (it threw, and the run answered CONFLICT for good).
    refused([{ ...ok, label: 5 }], "report.results[0].label", "report.results[0].label must be a model label from report.models");
    refused([{ ...ok, label: "constructor" }], "report.results[0].label", 'report.results[0].label "constructor" is missing from report.models');
    refused([{ ...ok, prompt: 5 }], "report.results[0].prompt", "report.results[0].prompt must be a string");
    refused([{ ...ok, answer: 5 }], "report.results[0].answer", "report.results[0].answer: must be a string or null, got the number 5");
    refused([{ ...ok, tool_calls: { name: "x" } }], "report.results[0].tool_calls", "report.results[0].tool_calls: must be an array of tool calls, got object");
    refused([{ ...ok, error: 5 }], "report.results[0].error", "report.results[0].error: must be a string, an Error or null, got the number 5");
    refused([{ ...ok, metadata: "x" }], "report.results[0].metadata", 'report.results[0].metadata: must be an object, got the string "x"');
    // A pass threshold of 70 (a percentage) would render "pass ≥ 7000%": refused like a score.
    expect(() => g.when({ ...command, report: { ...report, results: [ok], threshold: 70 } })).toThrow(
      expect.objectContaining({ code: "validation", field: "report.threshold", message: "report.threshold must be a number from 0 to 1" }),
    );
    // Distinct pairs, nulls where a result may omit a figure, and scores in range are fine.
    const fine = [ok, { ...ok, scenario_key: "b", status: "errored", score: null, scores: { tone: 0, x: null }, answer: null, error: "timeout" }];
    expect(g.when({ ...command, report: { ...report, results: fine } })[0].type).toBe("ReportImported");
  });
});
