import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { ScriptedAgent } from "@verdict/infra/agents";
import { resultStream, toEventsToAppend, type AgentRuntime, type EventStore } from "@verdict/domain";
import { handleCompletionJob, type CompletionDeps } from "./completion.js";
import { handleReplayJob } from "./replayConsumer.js";
import { Limiter } from "@verdict/infra/limiter";
import { SLOT_WAIT_RECHECK_MS } from "./pairWork.js";
import { RunContexts } from "./runContext.js";
import { silentLog } from "./workerLog.js";
import { AGENT_SCRIPT, pairEvents, runEvents, seedRun, testClock, testIds } from "./testing.js";

function countingAgent(inner: AgentRuntime = ScriptedAgent.fromYaml(AGENT_SCRIPT)) {
  const agent = { calls: 0, name: "counting", replay: (...args: Parameters<AgentRuntime["replay"]>) => (agent.calls++, inner.replay(...args)) };
  return agent;
}

function deps(store: EventStore, runtime: AgentRuntime, replayTimeoutMs = 5_000): CompletionDeps {
  return { store, runtime, replayTimeoutMs, clock: testClock, ids: testIds, actor: "worker:test", runs: new RunContexts(store, { backend: null }), log: silentLog };
}

const job = (n: number, scenario_key: string, model_label: string) => ({ run_id: "r1", tenant: "acme", n, scenario_key, model_label });
const ALL = [job(0, "order_status", "gpt-5-mini"), job(1, "order_status", "claude-sonnet-5"), job(2, "greeting", "gpt-5-mini"), job(3, "greeting", "claude-sonnet-5"), job(4, "refund", "gpt-5-mini"), job(5, "refund", "claude-sonnet-5")];

describe("replay jobs", () => {
  it("a redelivered job whose pair is recorded does nothing", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const agent = countingAgent();
    const d = deps(store, agent);
    expect(await handleReplayJob(d, ALL[0])).toBe("scored");
    const before = await store.readAll();
    expect(await handleReplayJob(d, ALL[0])).toBe("already-scored");
    expect(await handleReplayJob(deps(store, agent), ALL[0])).toBe("already-scored"); // another worker, cold cache
    expect(await store.readAll()).toHaveLength(before.length);
    expect(agent.calls).toBe(1);
  });

  it("two jobs for one pair taken at once (a dispatcher's republish) call the agent once", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const agent = countingAgent();
    const d = { ...deps(store, agent), agentSlots: new Limiter(4), pairsInFlight: new Map() };
    const outcomes = await Promise.all([handleReplayJob(d, ALL[0]), handleReplayJob(d, ALL[0]), handleReplayJob(d, ALL[0])]);
    expect(outcomes.sort()).toEqual(["already-scored", "already-scored", "scored"]);
    expect(agent.calls).toBe(1); // each job checked the pair before any had recorded it: 3 calls
    expect(d.pairsInFlight.size).toBe(0);
  });

  it("a pair recorded elsewhere while its job waited for an agent slot is not replayed again", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const agent = countingAgent();
    const slots = new Limiter(1);
    const d = { ...deps(store, agent), agentSlots: slots };
    // The one slot is held while another worker records and scores pair 0.
    let free!: () => void;
    const held = slots.run(() => new Promise<void>((resolve) => (free = resolve)));
    const waiting = handleReplayJob(d, ALL[0]);
    await new Promise((resolve) => setTimeout(resolve, SLOT_WAIT_RECHECK_MS + 30)); // a wait long enough to look again
    expect(await handleReplayJob(deps(store, agent), ALL[0])).toBe("scored"); // the other worker
    free();
    await held;
    expect(await waiting).toBe("already-scored");
    expect(agent.calls).toBe(1);
  });

  it("a run that ended while its pair was replaying takes no result for it", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const d = deps(store, countingAgent());
    let ended = false;
    const outcome = await handleReplayJob({ ...d, stillRunning: async () => !ended, runtime: { name: "slow", replay: async (...args) => ((ended = true), countingAgent().replay(...args)) } }, ALL[0]);
    expect(outcome).toBe("run-ended");
    expect(await pairEvents(store, "r1", 0)).toEqual([]); // it recorded the replay and its score after RunFailed
  });

  it("a crash between ReplayRecorded and ResultScored is finished by the redelivery, without replaying again", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const recorded = { type: "ReplayRecorded" as const, data: { ...ALL[1], replay: { answer: "It will arrive soon, I am fairly sure of that.", tool_calls: [] } } };
    const { tenant: _t, ...data } = recorded.data;
    await store.append(resultStream("r1", 1), toEventsToAppend([{ type: "ReplayRecorded", data }], { tenant: "acme", actor: "worker:dead" }, { clock: testClock, ids: testIds }), { expectedVersion: "noStream" });
    const agent = countingAgent();
    expect(await handleReplayJob(deps(store, agent), ALL[1])).toBe("scored");
    expect(agent.calls).toBe(0);
    const events = await pairEvents(store, "r1", 1);
    expect(events.map((e) => e.type)).toEqual(["ReplayRecorded", "ResultScored"]);
    expect(events[1].data).toMatchObject({ status: "failed", fault: "expected_tool_not_called", n: 1 });
  });

  it("a pair scored on its first delivery is one append of ReplayRecorded and ResultScored at no stream", async () => {
    const inner = createMemoryEventStore();
    await seedRun(inner);
    const appends: Array<{ streamId: string; types: string[]; expected: unknown }> = [];
    const store: EventStore = Object.assign(Object.create(inner) as EventStore, {
      append: (streamId: string, events: Parameters<EventStore["append"]>[1], options?: Parameters<EventStore["append"]>[2]) => {
        appends.push({ streamId, types: events.map((e) => e.type), expected: options?.expectedVersion });
        return inner.append(streamId, events, options);
      },
    });
    expect(await handleReplayJob(deps(store, countingAgent()), ALL[2])).toBe("scored");
    expect(appends).toEqual([{ streamId: resultStream("r1", 2), types: ["ReplayRecorded", "ResultScored"], expected: "noStream" }]);
    expect((await inner.readStream(resultStream("r1", 2))).map((e) => [e.type, e.streamVersion])).toEqual([["ReplayRecorded", 0n], ["ResultScored", 1n]]);
  });

  it("scoring that throws keeps the replay; the redelivery scores it without replaying again", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const agent = countingAgent();
    const d = deps(store, agent);
    const run = (await d.runs.get("r1"))!;
    const evaluate = run.runner.evaluate.bind(run.runner);
    let failures = 1;
    run.runner.evaluate = ((...args: Parameters<typeof evaluate>) => {
      if (failures-- > 0) return Promise.reject(new Error("judge unreachable"));
      return evaluate(...args);
    }) as typeof run.runner.evaluate;
    await expect(handleReplayJob(d, ALL[0])).rejects.toThrow("judge unreachable");
    expect((await pairEvents(store, "r1", 0)).map((e) => e.type)).toEqual(["ReplayRecorded"]);
    expect(await handleReplayJob(d, ALL[0])).toBe("scored");
    expect((await pairEvents(store, "r1", 0)).map((e) => e.type)).toEqual(["ReplayRecorded", "ResultScored"]);
    expect(agent.calls).toBe(1);
  });

  it("two workers racing on one pair record one replay; the loser scores the winner's replay", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: AgentRuntime = { name: "slow", replay: async () => (await gate, { answer: "slow answer that lost the race for sure" }) };
    const fast: AgentRuntime = { name: "fast", replay: async () => ({ answer: "Order 4821 shipped yesterday, tracking attached.", tool_calls: [{ name: "lookup_order" }] }) };
    const losing = handleReplayJob(deps(store, slow), ALL[0]);
    expect(await handleReplayJob(deps(store, fast), ALL[0])).toBe("scored");
    release();
    expect(await losing).toBe("already-scored");
    const events = await pairEvents(store, "r1", 0);
    expect(events.map((e) => e.type)).toEqual(["ReplayRecorded", "ResultScored"]);
    expect((events[0].data as { replay: { answer: string } }).replay.answer).toContain("Order 4821");
  });

  it("a hanging agent becomes a run_error replay after the timeout", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const hanging: AgentRuntime = { name: "hanging", replay: () => new Promise(() => undefined) };
    const started = Date.now();
    expect(await handleReplayJob(deps(store, hanging, 50), ALL[2])).toBe("scored");
    expect(Date.now() - started).toBeLessThan(2_000);
    const [replayed, scored] = await pairEvents(store, "r1", 2);
    expect((replayed.data as { replay: { error: string } }).replay.error).toBe("ReplayTimeoutError: replay did not finish within 50 ms");
    expect(scored.data).toMatchObject({ status: "errored", fault: "run_error", pass: false });
  });

  it("a throwing agent and an unusable replay are recorded as run errors, not redelivered", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const throwing: AgentRuntime = { name: "throwing", replay: async () => Promise.reject(new TypeError("boom")) };
    expect(await handleReplayJob(deps(store, throwing), ALL[3])).toBe("scored");
    expect(((await pairEvents(store, "r1", 3))[0].data as { replay: { error: string } }).replay.error).toBe("TypeError: boom");
    const fractional: AgentRuntime = { name: "odd", replay: async () => ({ answer: "ok, done with the refund now", input_tokens: 1.5 }) };
    expect(await handleReplayJob(deps(store, fractional), ALL[4])).toBe("scored");
    const error = ((await pairEvents(store, "r1", 4))[0].data as { replay: { error: string } }).replay.error;
    expect(error).toMatch(/^the replay could not be recorded: .*input_tokens/);
  });

  it("a replay too deeply nested to serialize is recorded as the pair's run error, not a failure of the run", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = { deeper: deep };
    const nested: AgentRuntime = { name: "nested", replay: async () => ({ answer: "Order 4821 shipped yesterday.", metadata: { deep } }) };
    expect(await handleReplayJob(deps(store, nested), ALL[0])).toBe("scored");
    const [recorded, scored] = await pairEvents(store, "r1", 0);
    expect((recorded.data as { replay: { error: string } }).replay.error).toBe("ReplayError: replay.metadata: nested too deeply to be recorded as JSON: give a flatter value");
    expect(scored.data).toMatchObject({ status: "errored", fault: "run_error", pass: false });
  });

  it("drops a job naming a pair outside the run's selection, and one for an unknown run", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const d = deps(store, countingAgent());
    expect(await handleReplayJob(d, { ...ALL[0], model_label: "gpt-4" })).toBe("invalid");
    expect(await handleReplayJob(d, { ...ALL[0], n: "zero" })).toBe("invalid");
    expect(await handleReplayJob(d, { ...ALL[0], run_id: "r9" })).toBe("unknown-run");
    expect(await store.readAll()).toHaveLength(1);
  });

  it("drops a replay or completion job naming another tenant than its run's, appending nothing", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const d = deps(store, countingAgent());
    expect(await handleReplayJob(d, { ...ALL[0], tenant: "globex" })).toBe("invalid");
    expect(await handleCompletionJob(d, { run_id: "r1", tenant: "globex" })).toBe("invalid");
    expect(await store.readAll()).toHaveLength(1);
  });
});

/** Each pair's ReplayRecorded and ResultScored data of run r1, by pair index. */
async function recordedPairs(store: ReturnType<typeof createMemoryEventStore>) {
  const replays = new Map<number, any>();
  const scored = new Map<number, any>();
  for (let n = 0; n < 6; n++) {
    const [r, s] = await pairEvents(store, "r1", n);
    replays.set(n, r.data);
    scored.set(n, s.data);
  }
  return { replays, scored };
}

describe("completion jobs", () => {
  it("two completion jobs racing record one verdict, one comparison, one RunCompleted", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const agent = countingAgent();
    for (const j of ALL) await handleReplayJob(deps(store, agent), j);
    const outcomes = await Promise.all([handleCompletionJob(deps(store, agent), { run_id: "r1", tenant: "acme" }), handleCompletionJob(deps(store, agent), { run_id: "r1", tenant: "acme" })]);
    expect(outcomes.sort()).toEqual(["already-ended", "completed"]);
    const types = (await runEvents(store, "r1")).map((e) => e.type);
    expect(types).toEqual(["RunStarted", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
    expect(await handleCompletionJob(deps(store, agent), { run_id: "r1", tenant: "acme" })).toBe("already-ended");
    expect(await handleReplayJob(deps(store, agent), ALL[0])).toBe("run-ended");
    expect(agent.calls).toBe(6);
  });

  it("finishes pairs whose jobs were lost before completing an engine run", async () => {
    const store = createMemoryEventStore();
    await seedRun(store, { models: [{ label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" }] });
    const agent = countingAgent();
    expect(await handleCompletionJob(deps(store, agent), { run_id: "r1", tenant: "acme" })).toBe("completed");
    expect(agent.calls).toBe(3);
    const events = await runEvents(store, "r1");
    // One model: a verdict event with no verdict (nothing compared) and no comparison.
    expect(events.map((e) => e.type)).toEqual(["RunStarted", "VerdictRecorded", "RunCompleted"]);
    expect((events[1].data as { verdict: unknown }).verdict).toBeNull();
    expect(events[2].data).toMatchObject({ scored: 3, passed: 2 });
  });

  it("a process without a runtime leaves an engine run with unscored pairs for later", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    await handleReplayJob(deps(store, countingAgent()), ALL[0]);
    const completionOnly = { ...deps(store, countingAgent()), runtime: null };
    expect(await handleCompletionJob(completionOnly, { run_id: "r1", tenant: "acme" })).toBe("not-ready");
    expect((await runEvents(store, "r1")).map((e) => e.type)).toEqual(["RunStarted"]);
  });

  it("the recorded summary equals a rebuild of the report from the events", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const agent = countingAgent();
    for (const j of ALL) await handleReplayJob(deps(store, agent), j);
    await handleCompletionJob(deps(store, agent), { run_id: "r1", tenant: "acme" });
    const { reportFromRun } = await import("./runReport.js");
    const events = await runEvents(store, "r1");
    const pick = <T>(type: string) => events.find((e) => e.type === type)!.data as T;
    const { replays, scored } = await recordedPairs(store);
    const report = reportFromRun({ started: pick("RunStarted"), replays, scored, verdict: pick("VerdictRecorded"), comparison: pick("ComparisonRecorded") });
    const { results: _r, ...rebuilt } = report.toJSON() as unknown as Record<string, unknown>;
    expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(pick<{ summary: unknown }>("RunCompleted").summary));
    expect(report.toMarkdown()).toContain("gpt-5-mini");
  });

  it("rebuilds each result's scores in the order they were scored, whatever order the store gives their keys", async () => {
    const store = createMemoryEventStore();
    await seedRun(store);
    const agent = countingAgent();
    for (const j of ALL) await handleReplayJob(deps(store, agent), j);
    const { runResults } = await import("./runReport.js");
    const started = (await runEvents(store, "r1")).find((e) => e.type === "RunStarted")!.data as any;
    const { replays, scored: asScored } = await recordedPairs(store);
    // As jsonb hands keys back: sorted by length (here simply reversed, so the order surely changes).
    const reversed = new Map([...asScored].map(([n, s]) => [n, { ...s, scores: Object.fromEntries(Object.entries(s.scores).reverse()) }]));
    const keys = (scored: Map<number, any>) => runResults({ started, replays, scored }).map((result) => Object.keys(result.scores));
    const original = [...asScored.values()].map((s) => Object.keys(s.scores));
    expect(original.some((k) => k.length > 1)).toBe(true);
    expect(keys(reversed)).toEqual(original);
  });
});
