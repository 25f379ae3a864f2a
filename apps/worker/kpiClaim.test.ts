// Several worker processes (one RunContexts each) settling one judge_defined run's KPIs: the claim
// on the run stream lets exactly one ask the judge, a crash after the claim is taken over once the
// claim expires, and every paid define call is recorded on the run that made it.
import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { ScriptedAgent } from "@verdict/infra/agents";
import { createEvaluation, evaluationAggregate, evaluationStream, eventRegistry, handleCommand, readWholeStream, startRun, WrongExpectedVersionError, type Clock, type EventStore } from "@verdict/domain";
import type { JudgeBackend } from "@verdict/infra/judges";
import { processPair } from "./pairWork.js";
import { handleCompletionJob } from "./completion.js";
import { handleReplayJob } from "./replayConsumer.js";
import { RunContexts } from "./runContext.js";
import { silentLog } from "./workerLog.js";
import { AGENT_SCRIPT, CLAUDE, GPT, pairEvents, runEvents, testClock, testIds } from "./testing.js";

const kpi = (key: string) => ({ key, name: key, description: `Measures ${key}.`, rubric: "1.0 fully, 0.0 not." });
const GOOD = JSON.stringify({ kpis: [kpi("accuracy"), kpi("tone"), kpi("next_step")] });
const USAGE = { input_tokens: 300, output_tokens: 120, cost: 0.004 };

/** A judge whose define answers come from `answers` in call order, each after its delay. */
function kpiJudge(answers: { text: string; delayMs: number }[]) {
  const calls = { define: 0, prompts: [] as string[] };
  const backend: JudgeBackend = {
    name: "kpi-judge",
    async complete(request) {
      if (request.kind !== "define") return '{"score": 0.9}';
      const answer = answers[Math.min(calls.define++, answers.length - 1)];
      calls.prompts.push(request.prompt);
      await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      return { text: answer.text, usage: USAGE };
    },
  };
  return { backend, calls };
}

function worker(store: EventStore, backend: JudgeBackend, clock: Clock = testClock) {
  return { store, runtime: ScriptedAgent.fromYaml(AGENT_SCRIPT), replayTimeoutMs: 5_000, clock, ids: testIds, actor: "worker:test", runs: new RunContexts(store, { backend }), log: silentLog, kpiClaimPollMs: 10 };
}

const commandDeps = { clock: testClock, ids: testIds, context: { tenant: "acme", actor: "t" } };
const JOBS = [[0, "order_status", GPT.label], [1, "order_status", CLAUDE.label], [2, "greeting", GPT.label]] as const;

async function newRun(store: EventStore): Promise<void> {
  const scenarios = [{ key: "order_status", prompt: "Where is order 4821?" }, { key: "greeting", prompt: "Hello" }];
  await createEvaluation(store, { evaluation_id: "e1", tenant: "acme", agent: "SupportAgent", name: "N", judge: { kind: "judge_defined", model: null }, scenarios }, commandDeps);
  await startRun(store, { run_id: "r1", evaluation_id: "e1", models: [GPT, CLAUDE] }, commandDeps);
}

const job = ([n, scenario_key, model_label]: (typeof JOBS)[number]) => ({ run_id: "r1", tenant: "acme", n, scenario_key, model_label });

async function settlements(store: EventStore) {
  return (await runEvents(store, "r1")).filter((e) => e.type === "KpiAuthoringRecorded").map((e) => e.data as { outcome: string; judge_exchange: unknown });
}

async function kpisDefined(store: EventStore) {
  return (await readWholeStream(store, evaluationStream("e1"))).map((r) => eventRegistry.parseRecorded(r)).filter((e) => e.type === "KpisDefined");
}

async function scoredKeys(store: EventStore, n: number): Promise<string[]> {
  const scored = (await pairEvents(store, "r1", n)).find((e) => e.type === "ResultScored");
  return Object.keys((scored?.data as { scores: Record<string, unknown> }).scores).sort();
}

describe("KPI authoring across worker processes", () => {
  it("three workers taking the first pairs of a run at once ask the judge once, and all score with the KPIs", async () => {
    const store = createMemoryEventStore();
    await newRun(store);
    const { backend, calls } = kpiJudge([{ text: GOOD, delayMs: 50 }]);
    await Promise.all(JOBS.map((j) => handleReplayJob(worker(store, backend), job(j))));
    expect(calls.define).toBe(1);
    const recorded = await settlements(store);
    expect(recorded).toHaveLength(1);
    expect(recorded[0].outcome).toBe("defined");
    expect(recorded[0].judge_exchange).not.toBeNull();
    for (const [n] of JOBS) expect(await scoredKeys(store, n)).toEqual(expect.arrayContaining(["accuracy", "next_step", "tone"]));
  });

  it("a run whose one define call answered unusably is not named by the evaluation as the one that defined KPIs", async () => {
    const store = createMemoryEventStore();
    await newRun(store);
    const { backend, calls } = kpiJudge([{ text: "nope", delayMs: 10 }, { text: GOOD, delayMs: 150 }]);
    await Promise.all(JOBS.map((j) => handleReplayJob(worker(store, backend), job(j))));
    expect(calls.define).toBe(1);
    const recorded = await settlements(store);
    expect(recorded.map((r) => r.outcome)).toEqual(["failed"]);
    expect(await kpisDefined(store)).toEqual([]);
  });

  it("a worker that died after KpisDefined: its successor takes the expired claim over and records the run's KPIs as defined, with the define call", async () => {
    let crashed = false;
    const kill = () => ((crashed = true), new Error("process killed"));
    const store = faulty(createMemoryEventStore(), (_stream, types) => (!crashed && types.includes("KpiAuthoringRecorded") ? kill() : null));
    await newRun(store);
    const { backend, calls } = kpiJudge([{ text: GOOD, delayMs: 0 }]);
    await expect(handleReplayJob(worker(store, backend), job(JOBS[0]))).rejects.toThrow("process killed");
    // Redelivered to a fresh worker after the claim expired (the judge timeout plus the margin).
    const later = { now: () => new Date(testClock.now().getTime() + 10 * 60_000) };
    await handleReplayJob(worker(store, backend, later), job(JOBS[0]));
    expect(calls.define).toBe(1);
    const recorded = await settlements(store);
    expect(recorded.map((r) => r.outcome)).toEqual(["defined"]);
    expect(recorded[0].judge_exchange).toMatchObject({ usage: expect.objectContaining({ input_tokens: 300 }) });
    expect(await kpisDefined(store)).toHaveLength(1);
  });

  it("a worker waiting on a claim uses the holder's outcome, even a judge that timed out, and asks nothing itself", async () => {
    const store = createMemoryEventStore();
    await newRun(store);
    const { backend: hanging } = kpiJudge([{ text: GOOD, delayMs: 2_000 }]);
    const { backend, calls } = kpiJudge([{ text: GOOD, delayMs: 0 }]);
    const first = handleReplayJob({ ...worker(store, hanging), runs: new RunContexts(store, { backend: hanging, timeoutMs: 200 }) }, job(JOBS[0]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await handleReplayJob(worker(store, backend), job(JOBS[1]));
    await first;
    expect(calls.define).toBe(0);
    expect((await settlements(store)).map((r) => r.outcome)).toEqual(["failed"]);
  });

  it("a write race lost on the evaluation stream is not recorded as an unusable answer: the job fails, no pair is scored, and its redelivery settles the KPIs", async () => {
    const inner = createMemoryEventStore();
    let racing = true;
    const store = faulty(inner, (streamId, types) => racing && types.includes("KpisDefined") ? new WrongExpectedVersionError(streamId, 0n, 1n) : null);
    await newRun(store);
    const { backend } = kpiJudge([{ text: GOOD, delayMs: 0 }]);
    const deps = worker(store, backend);
    await expect(handleReplayJob(deps, job(JOBS[0]))).rejects.toThrow(/lost a concurrent write/);
    expect(await settlements(store)).toEqual([]);
    expect((await pairEvents(store, "r1", 0)).some((e) => e.type === "ResultScored")).toBe(false);
    racing = false;
    await handleReplayJob(deps, job(JOBS[0]));
    expect((await settlements(store)).map((r) => r.outcome)).toEqual(["defined"]);
    expect(await scoredKeys(store, 0)).toEqual(expect.arrayContaining(["accuracy", "next_step", "tone"]));
  });

  it("a write race lost on the run stream fails the job instead of scoring the pair without KPIs", async () => {
    const inner = createMemoryEventStore();
    let racing = true;
    const store = faulty(inner, (streamId, types) => racing && types.includes("KpiAuthoringRecorded") ? new WrongExpectedVersionError(streamId, 0n, 1n) : null);
    await newRun(store);
    const { backend } = kpiJudge([{ text: GOOD, delayMs: 0 }]);
    const deps = worker(store, backend);
    await expect(handleReplayJob(deps, job(JOBS[0]))).rejects.toThrow(/lost a concurrent write/);
    expect((await pairEvents(store, "r1", 0)).some((e) => e.type === "ResultScored")).toBe(false);
    racing = false;
    await handleReplayJob(deps, job(JOBS[0]));
    expect((await settlements(store)).map((r) => r.outcome)).toEqual(["defined"]);
    expect(await scoredKeys(store, 0)).toEqual(expect.arrayContaining(["accuracy", "next_step", "tone"]));
  });

  it("a run that scored pairs before its KPIs were settled (in flight at the upgrade) records why it has none, asks nothing, and goes on without them", async () => {
    const store = createMemoryEventStore();
    await newRun(store);
    const { backend, calls } = kpiJudge([{ text: GOOD, delayMs: 0 }]);
    const deps = worker(store, backend);
    const run = await deps.runs.get("r1");
    // As a worker before KPI settlement scored it.
    await processPair(deps, run!, 0, { replay: true });
    await handleReplayJob(deps, job(JOBS[1]));
    expect(calls.define).toBe(0);
    const [settled] = await settlements(store);
    expect(settled).toMatchObject({ outcome: "failed", message: expect.stringContaining("pairs were already scored without them") });
    expect(await scoredKeys(store, 1)).not.toContain("tone");
    expect(await kpisDefined(store)).toEqual([]);
  });
});


describe("KPI authoring on the worker's other paths", () => {
  it("a completion job that finds no pair scored settles the KPIs first, and every pair scores with them", async () => {
    const store = createMemoryEventStore();
    await newRun(store);
    const { backend, calls } = kpiJudge([{ text: GOOD, delayMs: 0 }]);
    expect(await handleCompletionJob(worker(store, backend), { run_id: "r1", tenant: "acme" })).toBe("completed");
    expect(calls.define).toBe(1);
    expect((await settlements(store)).map((r) => r.outcome)).toEqual(["defined"]);
    for (const n of [0, 1, 2, 3]) expect(await scoredKeys(store, n)).toEqual(expect.arrayContaining(["accuracy", "next_step", "tone"]));
  });

  it("the judge reads the evaluation's earlier completed runs: a second run asks again after the first got no KPIs, with the first's pass rate", async () => {
    const store = createMemoryEventStore();
    await newRun(store);
    const { backend, calls } = kpiJudge([{ text: "nope", delayMs: 0 }, { text: GOOD, delayMs: 0 }]);
    expect(await handleCompletionJob(worker(store, backend), { run_id: "r1", tenant: "acme" })).toBe("completed");
    await startRun(store, { run_id: "r2", evaluation_id: "e1", models: [GPT, CLAUDE] }, commandDeps);
    await handleReplayJob(worker(store, backend), { ...job(JOBS[0]), run_id: "r2" });
    expect(calls.define).toBe(2);
    expect(calls.prompts[0]).not.toContain("- run 1:");
    expect(calls.prompts[1]).toMatch(/- run 1: pass rate \S+ \(\d of 4 passed\)/);
  });

  it("a define call asked before the KPIs were cleared and answered after records nothing: the run scores without them, saying why, and the next run asks", async () => {
    const store = createMemoryEventStore();
    await newRun(store);
    await startRun(store, { run_id: "r2", evaluation_id: "e1", models: [GPT, CLAUDE] }, commandDeps);
    // Both runs ask at once: the first call is answered in 50 ms, the second after the clear below.
    const { backend, calls } = kpiJudge([{ text: GOOD, delayMs: 50 }, { text: GOOD, delayMs: 400 }, { text: GOOD, delayMs: 0 }]);
    const jobs = Promise.all(["r1", "r2"].map((run_id) => handleReplayJob(worker(store, backend), { ...job(JOBS[0]), run_id })));
    while ((await kpisDefined(store)).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls.define).toBe(2);
    await handleCommand(store, evaluationAggregate, evaluationStream("e1"), { type: "ClearKpis", evaluation_id: "e1", tenant: "acme", cleared_by: "t" }, commandDeps);
    await jobs;
    const [first] = (await kpisDefined(store)).map((e) => (e.data as { run_id: string }).run_id);
    const late = first === "r1" ? "r2" : "r1";
    const lateSettled = (await runEvents(store, late)).find((e) => e.type === "KpiAuthoringRecorded")!.data as { outcome: string; reason: string };
    expect(lateSettled).toMatchObject({ outcome: "failed", reason: expect.stringContaining("cleared while its judge was defining them") });
    expect((await kpisDefined(store)).map((e) => (e.data as { run_id: string }).run_id)).toEqual([first]);
    await startRun(store, { run_id: "r3", evaluation_id: "e1", models: [GPT] }, commandDeps);
    await handleReplayJob(worker(store, backend), { ...job(JOBS[0]), run_id: "r3" });
    expect(calls.define).toBe(3);
    expect((await kpisDefined(store)).map((e) => (e.data as { run_id: string }).run_id)).toEqual([first, "r3"]);
  });
});

/** The store, but an append whose event types `fault` answers with an error throws it instead. */
function faulty(inner: EventStore, fault: (streamId: string, types: string[]) => Error | null): EventStore {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === "append") {
        return async (...args: Parameters<EventStore["append"]>) => {
          const error = fault(args[0], args[1].map((e) => e.type));
          if (error) throw error;
          return target.append(...args);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
