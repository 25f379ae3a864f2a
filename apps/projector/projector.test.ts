// The projector on the in-memory event store and an embedded (PGlite) read database: a run's
// life end to end through the domain's commands, redelivery, restart, rebuild, tenancy, progress.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemoryEventStore, createPgliteEventStore } from "@verdict/infra";
import { handleCommand, importedRunId, pairStream, resultAggregate, UnknownEventTypeError, type EventStore, type EventToAppend, type ExpectedVersion } from "@verdict/domain";
import { createProjector, type Projector } from "./projector.js";
import { rejectionLine, type RejectedEvent } from "./projection/rejections.js";
import { applyBatch } from "./projection/applyBatch.js";
import { readModelChecksum } from "./db/checksum.js";
import { readModelMigrations } from "./db/migrator.js";
import { ormDatabase, sqlOf } from "./db/sql.js";
import { createMemoryProgressBus } from "./progress/memoryProgressBus.js";
import type { RunProgress } from "./progress/progress.js";
import { openTestReadModels, resetReadModels, type OrmReadModels } from "./testing/testReadModels.js";
import {
  beginRun, CLAUDE, commandDeps, completeRun, createEvaluation, evaluationCommand, failRun, GPT, importFinishedReport, recordPair, recordVerdict, type Deps,
} from "./testing/runFixture.js";

let read: OrmReadModels;
let store: EventStore;
let deps: Deps;

beforeAll(async () => {
  read = await openTestReadModels();
});
afterAll(async () => {
  await read?.close();
});
beforeEach(async () => {
  await resetReadModels(read);
  store = createMemoryEventStore({ now: () => new Date("2026-11-30T12:00:00Z") });
  deps = commandDeps("acme");
});

const projectorOf = (extra: Partial<Parameters<typeof createProjector>[0]> = {}): Projector =>
  createProjector({ store, orm: read.orm, batchSize: 7, ...extra });
const checksum = () => readModelChecksum(ormDatabase(read.orm));

/** e1 with scenarios a, b; run r1 across two models, three pairs recorded (passed, failed, errored). */
async function halfRun() {
  await createEvaluation(store, deps, "e1", ["a", "b"]);
  const run = await beginRun(store, deps, "e1", "r1");
  await recordPair(store, deps, run, "a", GPT.label, "passed");
  await recordPair(store, deps, run, "a", CLAUDE.label, "failed");
  await recordPair(store, deps, run, "b", GPT.label, "errored");
  return run;
}

const allPairs = [
  { scenario_key: "a", model_label: GPT.label, pass: true },
  { scenario_key: "a", model_label: CLAUDE.label, pass: false },
  { scenario_key: "b", model_label: GPT.label, pass: false },
  { scenario_key: "b", model_label: CLAUDE.label, pass: true },
];

const completionSummary = {
  summary_by_model: {
    [GPT.label]: { provider: "openai", model: GPT.model, scenarios: 2, passed: 1, errored: 1, pass_rate: 50, avg_score: 1 },
    [CLAUDE.label]: { provider: "anthropic", model: CLAUDE.model, scenarios: 2, passed: 1, errored: 0, pass_rate: 50, avg_score: 0.6 },
  },
  fix_items: [
    { kind: "fault", fault: "expected_tool_not_called", count: 1, scenario_keys: ["a"], models: [CLAUDE.label], recommendation: "Call lookup first." },
    { kind: "fault", fault: "run_error", count: 1, scenario_keys: ["b"], models: [GPT.label], recommendation: "Raise the timeout." },
  ],
};

async function fullRun() {
  const run = await halfRun();
  await recordPair(store, deps, run, "b", CLAUDE.label, "passed");
  await recordVerdict(store, deps, "r1", CLAUDE.label);
  await completeRun(store, deps, "r1", allPairs, completionSummary);
  return run;
}

describe("a run's life in the read models", () => {
  it("plans every pair PENDING at RunStarted with the scenario it is evaluated on", async () => {
    await createEvaluation(store, deps, "e1", ["a", "b"]);
    await beginRun(store, deps, "e1", "r1");
    await projectorOf().catchUp();
    const run = await read.readModels.getRun("acme", "r1");
    expect(run).toMatchObject({ status: "RUNNING", number: 1, evaluationId: "e1", total: 4, completed: 0, origin: "engine" });
    expect(run?.startedAt).toBe(await recordedAt("RunStarted"));
    const results = await read.readModels.listResults("acme", "r1");
    expect(results.map((r) => [r.n, r.scenarioKey, r.modelLabel, r.status])).toEqual([
      [0, "a", GPT.label, "pending"], [1, "a", CLAUDE.label, "pending"], [2, "b", GPT.label, "pending"], [3, "b", CLAUDE.label, "pending"],
    ]);
    expect(results[2].scenario).toMatchObject({ key: "b", prompt: "Prompt for b", group: "refunds", expected_tools: ["lookup"] });
    expect(results[2]).toMatchObject({ group: "refunds", provider: "openai", position: 1 });
    const evaluation = await read.readModels.getEvaluation("acme", "e1");
    expect(evaluation).toMatchObject({ scenarioCount: 2, runCount: 1, latestRunId: "r1", latestRunNumber: 1, archived: false });
    const scenarios = await read.readModels.listScenarios("acme", "e1");
    expect(scenarios.map((s) => [s.key, s.group, s.position, s.enabled])).toEqual([["a", "billing", 0, true], ["b", "refunds", 1, true]]);
    expect(scenarios[0].expectations).toEqual({ tools: ["lookup"], contains: [], not_contains: [] });
  });

  it("counts scored results and splits usage between agent and judge", async () => {
    await halfRun();
    await projectorOf().catchUp();
    const run = await read.readModels.getRun("acme", "r1");
    expect(run).toMatchObject({ status: "RUNNING", total: 4, completed: 3, passed: 1, failed: 1, errored: 1 });
    expect(run).toMatchObject({ agentInputTokens: 20, agentOutputTokens: 10, agentCost: 0.0002, judgeCalls: 1, judgeInputTokens: 7, judgeCost: 0.00002 });
    const [a, , b] = await read.readModels.listResults("acme", "r1");
    expect(a).toMatchObject({ status: "passed", score: 1, answer: "Answer to a", toolCalls: [{ name: "lookup" }], costSource: "reported", judgeCalls: 1 });
    expect(b).toMatchObject({ status: "errored", fault: "run_error", error: "Timeout: agent took too long", costSource: "unpriced", cost: null });
    expect(await read.readModels.listResults("acme", "r1", { status: "pending" })).toHaveLength(1);
    expect((await read.readModels.listResults("acme", "r1", { model: CLAUDE.label, fault: "expected_tool_not_called" })).map((r) => r.scenarioKey)).toEqual(["a"]);
    expect(await read.readModels.progress("acme", "r1")).toMatchObject({ completed: 3, latest_result: { scenario_key: "b", model_label: GPT.label, status: "errored" } });
    const cells = await read.readModels.listResultCells("acme", "r1", { model: GPT.label });
    expect(cells).toEqual([
      expect.objectContaining({ n: 0, scenarioKey: "a", status: "passed", score: 1, fault: null, cost: 0.0001, costSource: "reported" }),
      expect.objectContaining({ n: 2, scenarioKey: "b", status: "errored", fault: "run_error", durationMs: 30_000 }),
    ]);
    expect(cells[0]).not.toHaveProperty("answer");
  });

  it("completes with the summary's model summaries and fix items, the verdict and the comparison", async () => {
    await fullRun();
    await projectorOf().catchUp();
    const run = await read.readModels.getRun("acme", "r1");
    expect(run).toMatchObject({ status: "COMPLETED", completed: 4, passed: 2, failed: 1, errored: 1 });
    expect(run?.completedAt).toBe(await recordedAt("RunCompleted"));
    // the verdict's own judge call counts toward the run's judge usage
    expect(run).toMatchObject({ judgeCalls: 3, judgeInputTokens: 114, judgeCost: 0.00104 });
    expect((await read.readModels.modelSummaries("acme", "r1")).map((m) => [m.label, m.position, m.passRate, m.provider])).toEqual([
      [GPT.label, 0, 50, "openai"], [CLAUDE.label, 1, 50, "anthropic"],
    ]);
    expect((await read.readModels.fixItems("acme", "r1")).map((f) => f.fault)).toEqual(["expected_tool_not_called", "run_error"]);
    expect((await read.readModels.fixItems("acme", "r1", { model: GPT.label })).map((f) => f.item.recommendation)).toEqual(["Raise the timeout."]);
    expect(await read.readModels.verdict("acme", "r1")).toMatchObject({ winner: CLAUDE.label, judge: "pass rate", judgeExchange: { kind: "verdict" } });
    expect(await read.readModels.comparison("acme", "r1")).toMatchObject({ seed: 42, resamples: 1000, confidence: 0.95, comparison: { conclusion: "not decisive" } });
  });

  it("labels the run with the judge its verdict was recorded with (the worker's, when the evaluation named no model)", async () => {
    const run = await halfRun();
    await projectorOf().catchUp();
    expect((await read.readModels.getRun("acme", "r1"))?.judgeLabel).toBeNull();
    await recordPair(store, deps, run, "b", CLAUDE.label, "passed");
    await recordVerdict(store, deps, "r1", CLAUDE.label, "scripted-judge");
    await completeRun(store, deps, "r1", allPairs, completionSummary);
    await projectorOf().catchUp();
    expect((await read.readModels.getRun("acme", "r1"))?.judgeLabel).toBe("scripted-judge");
    expect(await read.readModels.verdict("acme", "r1")).toMatchObject({ judge: "scripted-judge", judgeLabel: "scripted-judge" });
  });

  it("computes model summaries from the run's results when the completion carried none", async () => {
    const run = await halfRun();
    await recordPair(store, deps, run, "b", CLAUDE.label, "passed");
    await completeRun(store, deps, "r1", allPairs, {});
    await projectorOf().catchUp();
    const summaries = await read.readModels.modelSummaries("acme", "r1");
    expect(summaries.map((s) => [s.label, s.summary.scenarios, s.summary.passed, s.summary.errored, s.passRate])).toEqual([
      [GPT.label, 2, 1, 1, 50], [CLAUDE.label, 2, 1, 0, 50],
    ]);
    expect(summaries[0].summary).toMatchObject({ p50_duration_ms: 101, p95_duration_ms: 30_000, faults: { run_error: 1 }, cost: 0.0001 });
  });

  it("counts a replay's agent usage before its score arrives, the result still pending", async () => {
    const run = await beginRunWithOnePair();
    const pair = { run_id: "r1", scenario_key: "b", model_label: GPT.label };
    await handleCommand(store, resultAggregate, pairStream(run, "b", GPT.label), { type: "RecordReplay", ...pair, replay: { answer: "hm", input_tokens: 40, output_tokens: 2, cost: 0.003 } }, { ...deps, decideContext: { run } });
    await projectorOf().catchUp();
    expect(await read.readModels.getRun("acme", "r1")).toMatchObject({ completed: 1, agentInputTokens: 50, agentOutputTokens: 7, agentCost: 0.0031 });
    expect((await read.readModels.getResult("acme", "r1", 2))).toMatchObject({ status: "pending", answer: "hm", costSource: "reported" });
  });

  it("fails a run keeping the results recorded before the failure", async () => {
    const run = await beginRunWithOnePair();
    expect(run.runId).toBe("r1");
    await failRun(store, deps, "r1", "watchdog: no progress for 10 minutes");
    await projectorOf().catchUp();
    expect(await read.readModels.getRun("acme", "r1")).toMatchObject({ status: "FAILED", errorMessage: "watchdog: no progress for 10 minutes", completed: 1, total: 4 });
    expect((await read.readModels.listResults("acme", "r1", { status: "passed" })).map((r) => r.scenarioKey)).toEqual(["a"]);
  });

  it("turns an imported report into a COMPLETED run with its results, summaries and verdict", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    const imported = await importFinishedReport(store, deps, "e1", "ext-1", {
      models: { [GPT.label]: { provider: "openai", model: GPT.model, scenarios: 1, passed: 0, pass_rate: 0 } },
      verdict: { winner: null, rationale: null, judge: "rules" },
      fix_items: [{ kind: "fault", fault: "forbidden_content", models: [GPT.label] }],
      results: [{
        scenario_key: "refund", prompt: "Refund me", label: GPT.label, status: "failed", score: 0.4, fault: "forbidden_content", cost: 0.002, expect: { not_contains: ["sorry"] },
        diagnosis: { fault: "forbidden_content", summary: "Said sorry.", recommendation: "Do not apologise.", evidence: {} },
      }],
    });
    await projectorOf().catchUp();
    // The run is the platform's id for (tenant, the envelope's run_id), not the envelope's run_id.
    const runId = importedRunId("acme", "ext-1");
    expect(imported.run.state.runId).toBe(runId);
    expect(await read.readModels.getRun("acme", "ext-1")).toBeNull();
    expect(await read.readModels.getRun("acme", runId)).toMatchObject({ status: "COMPLETED", origin: "imported", total: 1, completed: 1, failed: 1, agentCost: 0.002 });
    const [result] = await read.readModels.listResults("acme", runId);
    expect(result).toMatchObject({ scenarioKey: "refund", provider: "openai", fault: "forbidden_content", scenario: { key: "refund", forbidden_patterns: ["sorry"] } });
    expect(await read.readModels.fixItems("acme", runId)).toMatchObject([{ kind: "fault", fault: "forbidden_content", models: [GPT.label] }]);
    expect(await read.readModels.verdict("acme", runId)).toMatchObject({ judge: "rules" });
  });

  it("computes an imported run's summaries, ranking and fix items from its results, not from the report's claims, and a rebuild writes the same", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    const result = (key: string, label: string, status: string, score: number) => ({
      scenario_key: key, prompt: `Question ${key}`, label, status, score, duration_ms: 100, input_tokens: 10, output_tokens: 5,
      ...(status === "failed" ? { fault: "ungrounded_answer", diagnosis: { fault: "ungrounded_answer", summary: "Wrong.", recommendation: "Answer the question.", evidence: {} } } : {}),
    });
    // A host's claims: 99 of 3 passed (in an event recorded before importReport refused a summary
    // its results do not give), and a fix item for a fault none of its results has.
    const claims = {
      summary_by_model: {
        [GPT.label]: { provider: "openai", model: GPT.model, scenarios: 3, passed: 99, errored: 0, pass_rate: 100, avg_score: 1 },
        [CLAUDE.label]: { provider: "anthropic", model: CLAUDE.model, scenarios: 3, passed: 0, errored: 0, pass_rate: 0, avg_score: 0 },
      },
    };
    await importFinishedReport(recordedBeforeSummaryCheck(store, claims), deps, "e1", "ext-lie", {
      summary_by_model: { [GPT.label]: { provider: "openai", model: GPT.model }, [CLAUDE.label]: { provider: "anthropic", model: CLAUDE.model } },
      fix_items: [{ kind: "fault", fault: "forbidden_content", models: [CLAUDE.label] }],
      verdict: { winner: CLAUDE.label, rationale: "The host's judge preferred it.", judge: "host-judge" },
      judge: "host-judge",
      results: [
        result("a", GPT.label, "passed", 1), result("a", CLAUDE.label, "passed", 1),
        result("b", GPT.label, "passed", 0.9), result("b", CLAUDE.label, "passed", 0.8),
        result("c", GPT.label, "failed", 0.2), result("c", CLAUDE.label, "passed", 0.7),
      ],
    });
    const projector = projectorOf();
    await projector.catchUp();
    const runId = importedRunId("acme", "ext-lie");
    const summaries = await read.readModels.modelSummaries("acme", runId);
    expect(summaries.map((s) => s.label)).toEqual([GPT.label, CLAUDE.label]);
    expect(summaries[0]).toMatchObject({ passRate: 66.7, avgScore: 0.7, summary: { scenarios: 3, passed: 2, errored: 0, pass_rate: 66.7, input_tokens: 30, faults: { ungrounded_answer: 1 } } });
    expect(summaries[1]).toMatchObject({ passRate: 100, avgScore: 0.833, summary: { scenarios: 3, passed: 3, pass_rate: 100, faults: {} } });
    expect(await read.readModels.fixItems("acme", runId)).toMatchObject([{ kind: "fault", fault: "ungrounded_answer", models: [GPT.label] }]);
    // The verdict and its judge are the report's; what it ranks is what the results give.
    const verdict = await read.readModels.verdict("acme", runId);
    expect(verdict).toMatchObject({ winner: CLAUDE.label, rationale: "The host's judge preferred it.", judge: "host-judge", judgeLabel: "host-judge" });
    expect((verdict!.ranking as Record<string, { passed: number }>)[GPT.label].passed).toBe(2);
    expect(await read.readModels.getRun("acme", runId)).toMatchObject({ total: 6, completed: 6, passed: 5, failed: 1 });
    const live = await checksum();
    await projector.rebuild();
    expect(await checksum()).toEqual(live);
  });

  it("a run is listed under the evaluation its run stream names, even when another evaluation scheduled the same id first (a lost race)", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    await createEvaluation(store, deps, "e2", ["a"]);
    const runId = importedRunId("acme", "ext-1");
    // The loser of two concurrent imports of ext-1: its evaluation numbered the run, then the run stream refused it.
    await evaluationCommand(store, deps, "e2", { type: "ImportReport", run_id: runId, tenant: "acme", source: "ci", agent_name: "SupportAgent", suite: "support", digest: "c".repeat(64), report: { models: {}, results: [] } });
    await importFinishedReport(store, deps, "e1", "ext-1", { models: { [GPT.label]: { provider: "openai", model: GPT.model } }, results: [] });
    await projectorOf().catchUp();
    expect(await read.readModels.getRun("acme", runId)).toMatchObject({ evaluationId: "e1", status: "COMPLETED", number: 1 });
    // e2's number was taken for a run that never became e2's: e2 has no run to head it.
    expect(await read.readModels.latestRun("acme", "e2")).toBeNull();
    expect(await read.readModels.getEvaluation("acme", "e2")).toMatchObject({ runCount: 0, latestRunId: null });
    expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ runCount: 1, latestRunId: runId });
  });
});

/**
 * The store as a process sees it when its connection drops between startRun's two appends: the
 * evaluation's RunScheduled is written, the run stream's first event is not.
 */
function losingRunStreamAppends(inner: EventStore): EventStore & { lose: boolean } {
  const wrapper = Object.create(inner) as EventStore & { lose: boolean };
  wrapper.lose = false;
  wrapper.append = async (streamId, events, options) => {
    if (wrapper.lose && streamId.startsWith("run-")) throw new Error("Connection terminated unexpectedly");
    return inner.append(streamId, events, options);
  };
  return wrapper;
}

/** Run r1 of e1 recorded, then r2 scheduled on the evaluation while its run stream's append is lost. */
async function runWithLostRunStream(): Promise<void> {
  await createEvaluation(store, deps, "e1", ["a"]);
  await beginRun(store, deps, "e1", "r1", [GPT]);
  const flaky = losingRunStreamAppends(store);
  flaky.lose = true;
  await expect(beginRun(flaky, deps, "e1", "r2", [GPT])).rejects.toThrow("Connection terminated unexpectedly");
}

describe("a run whose run stream was never written (the process died between startRun's two appends)", () => {
  it("never appears: not the evaluation's latest run, not listed, not counted, no progress; the next run still heads it", async () => {
    await runWithLostRunStream();
    expect((await store.readAll()).map((e) => e.type)).toContain("RunScheduled");
    expect(await store.readStream("run-r2")).toEqual([]);
    const projector = projectorOf();
    await projector.catchUp();
    expect(await read.readModels.getRun("acme", "r2")).toBeNull();
    expect(await read.readModels.progress("acme", "r2")).toBeNull();
    expect((await read.readModels.latestRun("acme", "e1"))?.id).toBe("r1");
    expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ runCount: 1, latestRunId: "r1", latestRunNumber: 1 });
    expect((await read.readModels.listRuns("acme", "e1")).edges.map((e) => e.node.id)).toEqual(["r1"]);
    // The number stays taken (a gap, never a duplicate); the next run heads the evaluation.
    await beginRun(store, deps, "e1", "r3", [GPT]);
    await projector.catchUp();
    expect(await read.readModels.getRun("acme", "r3")).toMatchObject({ number: 3, status: "RUNNING" });
    expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ runCount: 3, latestRunId: "r3", latestRunNumber: 3 });
    expect((await read.readModels.listRuns("acme", "e1")).edges.map((e) => e.node.id)).toEqual(["r3", "r1"]);
    const live = await checksum();
    await projector.rebuild();
    expect(await checksum()).toEqual(live);
  });

  it("migration 005 takes such a run's PENDING row, projected before, out of a read database, and the evaluation's latest run back", async () => {
    await runWithLostRunStream();
    await projectorOf().catchUp();
    const rebuilt = await checksum();
    // What RunScheduled projected before: a PENDING row that heads the evaluation.
    const sql = sqlOf(read.orm.em.fork());
    await sql.execute(
      `INSERT INTO runs (id, tenant, evaluation_id, number, origin, status, external, scheduled_at, updated_at)
       VALUES ('r2', 'acme', 'e1', 2, 'engine', 'PENDING', false, now(), now())`,
    );
    await sql.execute("UPDATE evaluations SET run_count = 2, latest_run_id = 'r2', latest_run_number = 2 WHERE id = 'e1'");
    expect((await read.readModels.latestRun("acme", "e1"))?.id).toBe("r2");
    const migration = readModelMigrations().find((m) => m.id === "005_runs_from_their_own_stream");
    await sql.script(migration!.sql);
    expect(await read.readModels.getRun("acme", "r2")).toBeNull();
    expect((await read.readModels.latestRun("acme", "e1"))?.id).toBe("r1");
    expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ runCount: 1, latestRunId: "r1", latestRunNumber: 1 });
    const migrated = await checksum();
    expect({ runs: migrated.runs, results: migrated.results }).toEqual({ runs: rebuilt.runs, results: rebuilt.results });
  });

  it("an import that died there appears once its retry writes the run stream, under the number it took", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    const flaky = losingRunStreamAppends(store);
    flaky.lose = true;
    const report = { models: { [GPT.label]: { provider: "openai", model: GPT.model } }, results: [{ scenario_key: "a", label: GPT.label, status: "passed" }] };
    await expect(importFinishedReport(flaky, deps, "e1", "nightly-2025.06.01", report)).rejects.toThrow("Connection terminated unexpectedly");
    await projectorOf().catchUp();
    const runId = importedRunId("acme", "nightly-2025.06.01");
    expect(await read.readModels.getRun("acme", runId)).toBeNull();
    expect(await read.readModels.latestRun("acme", "e1")).toBeNull();
    expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ runCount: 0, latestRunId: null });
    await importFinishedReport(store, deps, "e1", "nightly-2025.06.01", report);
    await projectorOf().catchUp();
    expect(await read.readModels.latestRun("acme", "e1")).toMatchObject({ id: runId, number: 1, status: "COMPLETED" });
    expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ runCount: 1, latestRunId: runId, latestRunNumber: 1 });
  });
});

/** Timestamps in read models are the events' own (metadata.recorded_at). */
async function recordedAt(type: string): Promise<string> {
  const event = (await store.readAll()).find((e) => e.type === type);
  return String(event?.metadata.recorded_at);
}

async function beginRunWithOnePair() {
  await createEvaluation(store, deps, "e1", ["a", "b"]);
  const run = await beginRun(store, deps, "e1", "r1");
  await recordPair(store, deps, run, "a", GPT.label, "passed");
  return run;
}

describe("delivery, restart and rebuild", () => {
  it("reapplying already-applied events changes nothing", async () => {
    await fullRun();
    const events = await store.readAll();
    const options = { name: "read-models", logFirstEvent: events[0].id };
    await applyBatch(read.orm.em, events.slice(0, 20), options);
    await applyBatch(read.orm.em, events.slice(20), options);
    const before = await checksum();
    const again = await applyBatch(read.orm.em, events, options);
    expect(again).toMatchObject({ applied: 0, skipped: events.length });
    const overlapping = await applyBatch(read.orm.em, events.slice(10, 30), options);
    expect(overlapping.applied).toBe(0);
    expect(await checksum()).toEqual(before);
  });

  it("a restarted projector resumes from its checkpoint and ends where a rebuild ends", async () => {
    const run = await halfRun();
    const events = await store.readAll();
    await applyBatch(read.orm.em, events.slice(0, 9), { name: "read-models", logFirstEvent: events[0].id });
    await recordPair(store, deps, run, "b", CLAUDE.label, "passed");
    await recordVerdict(store, deps, "r1", CLAUDE.label);
    await completeRun(store, deps, "r1", allPairs, completionSummary);
    const last = (await store.readAll()).at(-1)!;
    const projector = projectorOf();
    projector.start();
    await projector.waitFor(last.position);
    await projector.stop();
    const resumed = await checksum();
    expect(resumed.results.rows).toBe(4);
    await projectorOf().rebuild();
    expect(await checksum()).toEqual(resumed);
  });

  it("adds each batch's replays and scores to the run as a recount of its rows would give, and recounts when a cost changes", async () => {
    const run = await halfRun();
    await recordPair(store, deps, run, "b", CLAUDE.label, "passed");
    const recount = async () => (await sqlOf(read.orm.em.fork()).execute(
      `SELECT count(*) FILTER (WHERE r.status <> 'pending')::int AS completed, count(*) FILTER (WHERE r.status = 'passed')::int AS passed,
         sum(r.input_tokens)::int AS agent_in, sum(r.cost::numeric)::float8 AS agent_cost, sum(r.judge_calls)::int AS judge_calls,
         sum(r.judge_cost::numeric)::float8 AS judge_cost FROM results r WHERE r.run_id = 'r1'`,
    ))[0];
    const counted = async () => (await sqlOf(read.orm.em.fork()).execute(
      "SELECT completed, passed, agent_input_tokens::int AS agent_in, agent_cost, judge_calls, judge_cost FROM runs WHERE id = 'r1'",
    ))[0];
    await projectorOf({ batchSize: 1 }).catchUp(); // every replay and score a batch of its own
    expect(await counted()).toEqual({ completed: 4, passed: 2, agent_in: 30, agent_cost: 0.0003, judge_calls: 2, judge_cost: 0.00004 });
    expect(await counted()).toEqual(await recount());
    const live = await checksum();
    await projectorOf({ batchSize: 500 }).rebuild();
    expect(await checksum()).toEqual(live);
    // The same pair recorded again with another cost (a log the aggregate would not write): the run is recounted.
    const [replayed] = (await store.readAll()).filter((e) => e.type === "ReplayRecorded");
    const data = replayed.data as { replay: Record<string, unknown> };
    await store.append(replayed.streamId, [{ id: crypto.randomUUID(), type: replayed.type, schemaVersion: replayed.schemaVersion, metadata: replayed.metadata, data: { ...data, replay: { ...data.replay, cost: 0.5, input_tokens: 11 } } }]);
    await projectorOf({ batchSize: 1 }).catchUp();
    expect(await counted()).toMatchObject({ agent_in: 31, agent_cost: 0.5002 });
    expect(await counted()).toEqual(await recount());
  });

  it("counts a replay's own judge_usage instead of its judge exchanges, as the run's report does, whether the score comes in the replay's batch or a later one", async () => {
    await createEvaluation(store, deps, "e1", ["a", "b"]);
    const run = await beginRun(store, deps, "e1", "r1");
    const judge_usage = { calls: "5", input_tokens: 50, output_tokens: 5, cost: 0.5, model: "host-judge", by_kind: { score: 5 } };
    await recordPair(store, deps, run, "a", GPT.label, "passed", { judge_usage });
    await recordPair(store, deps, run, "a", CLAUDE.label, "passed");
    // A judge_usage that is not an object: the report counts no judge usage for that result at all.
    await recordPair(store, deps, run, "b", GPT.label, "passed", { judge_usage: null });
    const rows = async () => sqlOf(read.orm.em.fork()).execute(
      `SELECT n, judge_calls, judge_input_tokens::int AS judge_in, judge_cost, judge_by_kind, judge_model, judge_source FROM results WHERE run_id = 'r1' AND status <> 'pending' ORDER BY n`,
    );
    const runJudge = async () => (await sqlOf(read.orm.em.fork()).execute("SELECT judge_calls, judge_cost FROM runs WHERE id = 'r1'"))[0];
    const metered = { score: { calls: 1, input_tokens: 7, output_tokens: 3, cost: 0.00002 } };
    const expected = [
      { n: 0, judge_calls: 5, judge_in: 50, judge_cost: 0.5, judge_by_kind: { score: { calls: 5 } }, judge_model: "host-judge", judge_source: "reported" },
      { n: 1, judge_calls: 1, judge_in: 7, judge_cost: 0.00002, judge_by_kind: metered, judge_model: null, judge_source: "meter" },
      { n: 2, judge_calls: 0, judge_in: 0, judge_cost: null, judge_by_kind: null, judge_model: null, judge_source: null },
    ];
    await projectorOf({ batchSize: 1 }).catchUp(); // the score in a batch after its replay's
    expect(await rows()).toEqual(expected);
    expect(await runJudge()).toEqual({ judge_calls: 6, judge_cost: 0.50002 });
    await projectorOf({ batchSize: 500 }).rebuild(); // replay and score in one batch
    expect(await rows()).toEqual(expected);
    expect(await runJudge()).toEqual({ judge_calls: 6, judge_cost: 0.50002 });
  });

  it("refuses to follow another event log from the checkpoint of the one it projected, until rebuilt from it", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    await projectorOf().catchUp();
    // The same read database beside a new log (a new VERDICT_HOME): its evaluation sits before
    // the old checkpoint, so following from there would skip it for good.
    const first = store;
    store = createMemoryEventStore({ now: () => new Date("2026-11-30T12:00:00Z") });
    await createEvaluation(store, deps, "e2", ["b"]);
    const anotherLog = (await first.readAll({ limit: 1 }))[0].id;
    const thisLog = (await store.readAll({ limit: 1 }))[0].id;
    const refusal = `the read database holds read models of another event log (projected from the log whose first event is ${anotherLog}; this log's first event is ${thisLog})`;
    await expect(projectorOf().catchUp()).rejects.toThrow(refusal);
    const retried: unknown[] = [];
    const following = projectorOf({ retryDelayMs: 10, onRetry: (error) => retried.push(error) });
    following.start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(following.stop()).rejects.toThrow(refusal); // stopped for good, not retried
    expect(retried).toEqual([]);
    expect(await read.readModels.getEvaluation("acme", "e2")).toBeNull();
    // Empty, the new log is refused too.
    const empty = createMemoryEventStore();
    await expect(createProjector({ store: empty, orm: read.orm }).catchUp()).rejects.toThrow("this event log (DATABASE_URL, or VERDICT_HOME when it is unset) is empty: likely the wrong database");
    await projectorOf().rebuild();
    expect(await read.readModels.getEvaluation("acme", "e2")).not.toBeNull();
    expect(await read.readModels.getEvaluation("acme", "e1")).toBeNull();
    await createEvaluation(store, deps, "e3", ["c"]);
    expect(await projectorOf().catchUp()).toBeGreaterThan(0);
    // A checkpoint written before checkpoints named their log takes the log it follows next.
    await sqlOf(read.orm.em.fork()).execute("UPDATE projector_checkpoints SET log_first_event = NULL");
    await createEvaluation(store, deps, "e4", ["d"]);
    expect(await projectorOf().catchUp()).toBeGreaterThan(0);
    await expect(createProjector({ store: first, orm: read.orm }).catchUp()).rejects.toThrow("holds read models of another event log");
  });

  it("rebuild truncates and replays into identical rows", async () => {
    await fullRun();
    await createEvaluation(store, deps, "e2", ["x", "y", "z"]);
    await beginRun(store, deps, "e2", "r2", [GPT]);
    const projector = projectorOf();
    await projector.catchUp();
    const live = await checksum();
    expect(live.runs.rows).toBe(2);
    expect(live.results.rows).toBe(7);
    expect(live.verdicts.rows).toBe(1);
    await sqlOf(read.orm.em.fork()).execute("UPDATE results SET answer = 'tampered' WHERE n = 0");
    expect((await checksum()).results).not.toEqual(live.results);
    expect(await projector.rebuild()).toBe((await store.readAll()).length);
    expect(await checksum()).toEqual(live);
  });

  it("rebuilds a read database the log shares (the embedded default's one PGlite) batch by batch into identical rows", async () => {
    // The log in the read models' own PGlite, as `verdict start` keeps an embedded home: one
    // session, so a rebuild in one transaction would wait on its own reads of the log.
    const pglite = read.database.pglite!;
    const shared = await createPgliteEventStore({ db: pglite, soleWriter: true });
    try {
      await pglite.exec("TRUNCATE messages, streams");
      store = shared;
      await fullRun();
      await projectorOf({ database: read.sql }).catchUp();
      const live = await checksum();
      expect(live.results.rows).toBe(4);
      await read.sql.sql().execute("UPDATE results SET answer = 'tampered' WHERE n = 0");
      // A process that opens the home afterwards (`projector rebuild`) reads the log from the database.
      const reopened = await createPgliteEventStore({ db: pglite, soleWriter: true, migrate: false });
      const projector = createProjector({ store: reopened, database: read.sql, logSharesDatabase: true, batchSize: 3 });
      const counts: number[] = []; // what `projector rebuild` reports its progress from
      expect(await projector.rebuild((applied) => counts.push(applied))).toBe((await shared.readAll()).length);
      expect(counts.length).toBeGreaterThan(1);
      expect(counts.at(-1)).toBe((await shared.readAll()).length);
      expect(await checksum()).toEqual(live);
      expect(await projector.checkpoint()).toEqual((await shared.readAll()).at(-1)!.position);
      await reopened.close();
    } finally {
      await shared.close();
    }
  });

  /**
   * A log read one event a page (a byte budget of 1: every page is cut short after its first
   * event), projected with a batch size of 500 and a batch budget of 1 byte: catch-up, rebuild
   * and following each apply every event, one a transaction, into the same rows.
   */
  async function projectsThroughPagesCutByBytes(extra: Partial<Parameters<typeof createProjector>[0]> = {}) {
    await fullRun();
    await createEvaluation(store, deps, "e2", ["x", "y"]);
    const all = await store.readAll();
    const batches: number[] = [];
    const projector = () => projectorOf({ batchSize: 500, maxBatchBytes: 1, onBatch: (o) => batches.push(o.applied + o.skipped), ...extra });
    expect(await projector().catchUp()).toBe(all.length);
    expect(batches).toEqual(all.map(() => 1));
    const caughtUp = await checksum();
    expect(caughtUp.results.rows).toBe(4);
    expect(caughtUp.evaluations.rows).toBe(2);
    expect(await projector().rebuild()).toBe(all.length);
    expect(await checksum()).toEqual(caughtUp);
    await resetReadModels(read);
    batches.length = 0;
    const following = projector();
    following.start();
    await following.waitFor(all.at(-1)!.position);
    await following.stop();
    expect(await checksum()).toEqual(caughtUp);
    expect(batches).toEqual(all.map(() => 1));
  }

  it("projects every event through pages the store cut short by bytes, and bounds a following batch by bytes (memory store)", async () => {
    store = createMemoryEventStore({ now: () => new Date("2026-11-30T12:00:00Z"), maxPageBytes: 1 });
    await projectsThroughPagesCutByBytes();
  });

  it("projects every event through pages the store cut short by bytes, and bounds a following batch by bytes (PGlite, the embedded default)", async () => {
    // PGlite answers a page before any I/O: a batch taking whatever is already there took every page.
    const pglite = read.database.pglite!;
    const shared = await createPgliteEventStore({ db: pglite, soleWriter: true, maxPageBytes: 1 });
    try {
      await pglite.exec("TRUNCATE messages, streams");
      store = shared;
      await projectsThroughPagesCutByBytes({ database: read.sql, logSharesDatabase: true });
    } finally {
      await shared.close();
    }
  });

  it("rebuilds in one transaction while a projector follows the same database, losing and doubling nothing", async () => {
    const run = await halfRun();
    const live = projectorOf({ batchSize: 3 });
    live.start();
    await live.waitFor((await store.readAll()).at(-1)!.position);
    const rebuilding = projectorOf({ batchSize: 3 }).rebuild();
    await recordPair(store, deps, run, "b", CLAUDE.label, "passed");
    await recordVerdict(store, deps, "r1", CLAUDE.label);
    await rebuilding;
    await live.waitFor((await store.readAll()).at(-1)!.position);
    await live.stop();
    const after = await checksum();
    expect(await read.readModels.getRun("acme", "r1")).toMatchObject({ completed: 4, passed: 2 });
    await projectorOf().rebuild();
    expect(await checksum()).toEqual(after);
  });

  it("retries a failed subscription from the checkpoint, and stops for good at an unknown event type", async () => {
    await halfRun();
    let failures = 1;
    const flaky: EventStore = {
      ...store,
      subscribeAll(options) {
        if (failures-- > 0) throw new Error("connection terminated unexpectedly");
        return store.subscribeAll(options);
      },
    };
    const retried: unknown[] = [];
    const projector = createProjector({ store: flaky, orm: read.orm, retryDelayMs: 10, onRetry: (e) => retried.push((e as Error).message) });
    projector.start();
    await projector.waitFor((await store.readAll()).at(-1)!.position);
    expect(retried).toEqual(["connection terminated unexpectedly"]);
    expect(await read.readModels.getRun("acme", "r1")).toMatchObject({ completed: 3 });
    await store.append("run-r1", [{ id: "00000000-0000-4000-8000-999999999998", type: "SomethingNew", schemaVersion: 1, data: {}, metadata: { tenant: "acme" } }]);
    await expect(projector.running).rejects.toBeInstanceOf(UnknownEventTypeError);
    await expect(projector.stop()).rejects.toBeInstanceOf(UnknownEventTypeError);
    expect(retried).toHaveLength(1);
  });

  it("ends the subscription of each failed attempt: retried batches leave no subscription open, polling and holding abort listeners", async () => {
    await halfRun();
    // The batch fails after the subscription caught up and waits for more (its next read in flight).
    const database = ormDatabase(read.orm);
    let failures = 12;
    const failing = {
      sql: () => database.sql(),
      transaction: <T>(work: Parameters<typeof database.transaction<T>>[0]) =>
        failures-- > 0 ? Promise.reject(new Error("connection terminated unexpectedly")) : database.transaction(work),
    };
    let open = 0;
    const counted: EventStore = {
      ...store,
      subscribeAll(options) {
        const events = store.subscribeAll(options);
        return (async function* () {
          open += 1;
          try {
            yield* events;
          } finally {
            open -= 1;
          }
        })();
      },
    };
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const retried: unknown[] = [];
      const projector = createProjector({ store: counted, database: failing, batchSize: 500, retryDelayMs: 1, onRetry: (e) => retried.push(e) });
      projector.start();
      await projector.waitFor((await store.readAll()).at(-1)!.position);
      expect(retried).toHaveLength(12);
      await vi.waitFor(() => expect(open).toBe(1)); // the live one
      await projector.stop();
      await vi.waitFor(() => expect(open).toBe(0));
      expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it.each([
    ["through MikroORM", {}],
    ["on the PGlite instance itself, as the embedded default runs", { useInstance: true }],
  ])("passes over an event the read database refuses, recording it, and goes on; a rebuild meets it again and ends in the same rows (%s)", async (_via, { useInstance }: { useInstance?: boolean }) => {
    await createEvaluation(store, deps, "e1", ["a"]);
    // An event the domain would refuse at append (a NUL in its text), written by something that
    // did not ask the domain: PostgreSQL cannot store it in a text column (SQLSTATE class 22).
    const created = (await store.readAll()).find((e) => e.type === "EvaluationCreated")!;
    const refused = { ...created, id: "00000000-0000-4000-8000-999999999997", data: { ...created.data, evaluation_id: "e2", name: "bad\u0000name" } };
    await store.append("evaluation-e2", [{ id: refused.id, type: refused.type, schemaVersion: refused.schemaVersion, data: refused.data, metadata: refused.metadata }]);
    await createEvaluation(store, deps, "e3", ["b"]);
    const rejected: RejectedEvent[] = [];
    const projector = projectorOf({ onReject: (r) => rejected.push(r), ...(useInstance ? { database: read.sql } : {}) });
    await projector.catchUp();
    expect(rejected).toMatchObject([{ type: "EvaluationCreated", streamId: "evaluation-e2", streamVersion: 0n }]);
    expect(rejected[0].sqlState.slice(0, 2)).toBe("22");
    expect(rejectionLine(rejected[0])).not.toContain("bad");
    expect(await read.readModels.getEvaluation("acme", "e1")).not.toBeNull();
    expect(await read.readModels.getEvaluation("acme", "e2")).toBeNull();
    expect(await read.readModels.getEvaluation("acme", "e3")).not.toBeNull();
    const sql = sqlOf(read.orm.em.fork());
    const rows = await sql.execute<{ stream_id: string; sql_state: string }>("SELECT stream_id, sql_state FROM projector_rejections");
    expect(rows).toEqual([{ stream_id: "evaluation-e2", sql_state: rejected[0].sqlState }]);
    expect(await projector.checkpoint()).toEqual((await store.readAll()).at(-1)!.position);

    const live = await checksum();
    expect(await projector.rebuild()).toBe((await store.readAll()).length - 1);
    expect(await checksum()).toEqual(live);
    expect(rejected).toHaveLength(2);
    expect(await sql.execute("SELECT stream_id FROM projector_rejections")).toEqual([{ stream_id: "evaluation-e2" }]);

    // Following the log, a refused event is passed over the same way.
    await store.append("evaluation-e4", [{ ...refused, id: "00000000-0000-4000-8000-999999999996", data: { ...refused.data, evaluation_id: "e4" } }].map(({ id, type, schemaVersion, data, metadata }) => ({ id, type, schemaVersion, data, metadata })));
    await createEvaluation(store, deps, "e5", ["c"]);
    projector.start();
    await projector.waitFor((await store.readAll()).at(-1)!.position);
    await projector.stop();
    expect(rejected.map((r) => r.streamId)).toEqual(["evaluation-e2", "evaluation-e2", "evaluation-e4"]);
    expect(await read.readModels.getEvaluation("acme", "e5")).not.toBeNull();
  });

  it("tells of a refused event only once it is recorded, and a listener that throws does not stop the projector", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    const created = (await store.readAll()).find((e) => e.type === "EvaluationCreated")!;
    await store.append("evaluation-e2", [{ ...created, id: "00000000-0000-4000-8000-999999999995", data: { ...created.data, evaluation_id: "e2", name: "bad\u0000name" } }].map(({ id, type, schemaVersion, data, metadata }) => ({ id, type, schemaVersion, data, metadata })));
    await createEvaluation(store, deps, "e3", ["b"]);
    const seen: string[] = [];
    const projector = projectorOf({
      onReject: async () => {
        const rows = await sqlOf(read.orm.em.fork()).execute<{ stream_id: string }>("SELECT stream_id FROM projector_rejections");
        seen.push(...rows.map((r) => r.stream_id));
      },
    });
    await projector.catchUp();
    await expect.poll(() => seen).toEqual(["evaluation-e2"]);
    await createEvaluation(store, deps, "e4", ["c"]);
    const throwing = projectorOf({ onReject: () => { throw new Error("stderr closed"); } });
    await throwing.rebuild();
    expect(await read.readModels.getEvaluation("acme", "e3")).not.toBeNull();
    expect(await read.readModels.getEvaluation("acme", "e4")).not.toBeNull();
  });

  it("stops at an unknown event type naming its stream and position, or skips it when told to", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    await store.append("evaluation-e1", [{ id: "00000000-0000-4000-8000-999999999999", type: "SomethingNew", schemaVersion: 1, data: {}, metadata: { tenant: "acme" } }]);
    await createEvaluation(store, deps, "e2", ["b"]);
    await expect(projectorOf().catchUp()).rejects.toThrow(new UnknownEventTypeError("SomethingNew", "evaluation-e1", 2n, { commit: 4n, prepare: 4n }));
    expect(await read.readModels.getEvaluation("acme", "e2")).toBeNull();
    const unknown: unknown[] = [];
    await projectorOf({ skipUnknown: true, onUnknown: (e) => unknown.push(e) }).catchUp();
    expect(unknown).toEqual([{ type: "SomethingNew", streamId: "evaluation-e1", streamVersion: 2n, position: { commit: 4n, prepare: 4n } }]);
    expect(await read.readModels.getEvaluation("acme", "e2")).not.toBeNull();
  });
});

describe("tenancy and queries", () => {
  it("answers another tenant's ids with null or nothing", async () => {
    await fullRun();
    const globex = commandDeps("globex");
    await createEvaluation(store, globex, "g1", ["q"]);
    await projectorOf().catchUp();
    const models = read.readModels;
    expect(await models.getEvaluation("globex", "e1")).toBeNull();
    expect(await models.getRun("globex", "r1")).toBeNull();
    expect(await models.listResults("globex", "r1")).toEqual([]);
    expect(await models.fixItems("globex", "r1")).toEqual([]);
    expect(await models.modelSummaries("globex", "r1")).toEqual([]);
    expect(await models.verdict("globex", "r1")).toBeNull();
    expect(await models.comparison("globex", "r1")).toBeNull();
    expect(await models.progress("globex", "r1")).toBeNull();
    expect(await models.listScenarios("globex", "e1")).toEqual([]);
    expect((await models.listEvaluations("globex")).edges.map((e) => e.node.id)).toEqual(["g1"]);
    expect((await models.listEvaluations("acme")).edges.map((e) => e.node.id)).toEqual(["e1"]);
  });

  it("pages runs newest first and evaluations by cursor", async () => {
    await createEvaluation(store, deps, "e1", ["a"]);
    for (const id of ["r1", "r2", "r3"]) await beginRun(store, deps, "e1", id, [GPT]);
    await createEvaluation(store, deps, "e2", ["a"]);
    await projectorOf().catchUp();
    const first = await read.readModels.listRuns("acme", "e1", { first: 2 });
    expect(first.edges.map((e) => e.node.number)).toEqual([3, 2]);
    expect(first).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true } });
    const second = await read.readModels.listRuns("acme", "e1", { first: 2, after: first.pageInfo.endCursor });
    expect(second.edges.map((e) => e.node.id)).toEqual(["r1"]);
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect((await read.readModels.previousRun("acme", "r3"))?.id).toBe("r2");
    expect((await read.readModels.latestRun("acme", "e1"))?.id).toBe("r3");
    const evaluations = await read.readModels.listEvaluations("acme", { first: 1 });
    expect(evaluations.edges.map((e) => e.node.id)).toEqual(["e2"]);
    const rest = await read.readModels.listEvaluations("acme", { first: 1, after: evaluations.pageInfo.endCursor });
    expect(rest.edges.map((e) => e.node.id)).toEqual(["e1"]);
    await expect(read.readModels.listRuns("acme", "e1", { after: "nonsense" })).rejects.toThrow("after is not a cursor this list gave out");
    // Forged cursors of the right types but values the query cannot bind: refused, not a database error.
    const forged = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");
    for (const after of [forged(["nope", "x"]), forged(["2026-13-45T00:00:00Z", "x"]), forged(["2026-02-30T00:00:00Z", "x"]), forged([evaluations.edges[0].node.createdAt, "e\u0000"])]) {
      await expect(read.readModels.listEvaluations("acme", { after })).rejects.toThrow(expect.objectContaining({ code: "validation", field: "after" }));
    }
    for (const after of ["WzFlNDAwXQ", forged([1.5]), forged(["3"])]) {
      await expect(read.readModels.listRuns("acme", "e1", { after })).rejects.toThrow(expect.objectContaining({ code: "validation", field: "after" }));
    }
  });
});

describe("progress", () => {
  it("is published after the batch commits: a listener re-reading the run sees the same counts", async () => {
    const bus = createMemoryProgressBus();
    const seen: { progress: RunProgress; committed: number | undefined }[] = [];
    const reads: Promise<void>[] = [];
    await bus.subscribe("r1", (progress) => {
      // Kept in arrival order: the rereads run concurrently and may resolve out of order.
      const arrival: (typeof seen)[number] = { progress, committed: undefined };
      seen.push(arrival);
      reads.push(read.readModels.getRun("acme", "r1").then((run) => void (arrival.committed = run?.completed)));
    });
    const projector = projectorOf({ bus, batchSize: 500 });
    projector.start();
    const run = await beginRunWithOnePair();
    await recordPair(store, deps, run, "a", CLAUDE.label, "failed");
    await waitUntil(() => seen.some((s) => s.progress.completed === 2));
    await projector.stop();
    await Promise.all(reads);
    expect(seen.length).toBeGreaterThan(0);
    for (const { progress, committed } of seen) expect(committed).toBeGreaterThanOrEqual(progress.completed);
    expect(seen.at(-1)!.progress).toEqual({
      run_id: "r1", tenant: "acme", status: "RUNNING", total: 4, completed: 2, passed: 1, failed: 1, errored: 0,
      latest_result: { scenario_key: "a", model_label: CLAUDE.label, status: "failed", score: 0.2, fault: "expected_tool_not_called" },
    });
  });

  it("a batch that scores none of the run's pairs (its completion) still names the last result scored", async () => {
    await fullRun();
    const events = await store.readAll();
    const lastScored = events.findLastIndex((e) => e.type === "ResultScored");
    const options = { name: "read-models", logFirstEvent: events[0].id };
    await applyBatch(read.orm.em, events.slice(0, lastScored + 1), options);
    const completion = await applyBatch(read.orm.em, events.slice(lastScored + 1), options);
    expect(completion.progress).toEqual([
      expect.objectContaining({ run_id: "r1", status: "COMPLETED", completed: 4, latest_result: { scenario_key: "b", model_label: CLAUDE.label, status: "passed", score: 1, fault: null } }),
    ]);
  });

  it("a projector that died after committing a run's completion but before publishing it announces it when it starts again", async () => {
    // Publishing after the commit is best effort: the restarted projector resumed past the
    // completion, and a subscriber's last message stayed RUNNING for ever.
    await fullRun();
    const events = await store.readAll();
    await applyBatch(read.orm.em, events, { name: "read-models", logFirstEvent: events[0].id }); // committed, never published
    const bus = createMemoryProgressBus();
    const seen: RunProgress[] = [];
    await bus.subscribe("r1", (progress) => void seen.push(progress));
    const projector = projectorOf({ bus });
    projector.start();
    await waitUntil(() => seen.length > 0);
    await projector.stop();
    expect(seen).toEqual([expect.objectContaining({ run_id: "r1", status: "COMPLETED", completed: 4, total: 4 })]);
  });

  it("a progress whose publish failed is published again, as the run is now, until it goes through", async () => {
    const bus = createMemoryProgressBus();
    let refusals = 2;
    // The completion's publish is refused, then its retry: the last update, lost without a retry.
    const refused = (progress: RunProgress) => progress.status === "COMPLETED" && refusals-- > 0;
    const flaky = { ...bus, publish: (progress: RunProgress) => (refused(progress) ? Promise.reject(new Error("NOTIFY failed")) : bus.publish(progress)) };
    const seen: RunProgress[] = [];
    await bus.subscribe("r1", (progress) => void seen.push(progress));
    const errors: unknown[] = [];
    const projector = projectorOf({ bus: flaky, batchSize: 500, retryDelayMs: 20, onPublishError: (error) => void errors.push(error) });
    projector.start();
    await fullRun();
    await waitUntil(() => seen.some((p) => p.status === "COMPLETED"));
    await projector.stop();
    expect(errors).toHaveLength(2);
    expect(seen.at(-1)).toMatchObject({ run_id: "r1", status: "COMPLETED", completed: 4 });
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * `store`, appending ReportImported with `claims` laid over its report: an import recorded before
 * importReport refused a summary its results do not give, which a projector must still read.
 */
function recordedBeforeSummaryCheck(store: EventStore, claims: Record<string, unknown>): EventStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === "append") {
        return (streamId: string, events: EventToAppend[], options?: { expectedVersion?: ExpectedVersion }) =>
          target.append(streamId, events.map((e) => (e.type === "ReportImported" ? { ...e, data: { ...e.data, report: { ...(e.data.report as object), ...claims } } } : e)), options);
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
