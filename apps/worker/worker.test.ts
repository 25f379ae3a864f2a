import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { ScriptedAgent } from "@verdict/infra/agents";
import { providerJudges, ScriptedJudge, type JudgeBackend } from "@verdict/infra/judges";
import { startFakeModelProvider } from "@verdict/infra/testing";
import { handleCommand, loadAggregate, pairStream, resultAggregate, runAggregate, runStream } from "@verdict/domain";
import type { AgentRuntime, ConsumeOptions, DeliveredJob, EventStore, JobConsumer } from "@verdict/domain";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import { readWorkerConfig } from "./config.js";
import { COMPLETE_TOPIC, REPLAY_TOPIC } from "./jobs.js";
import { startWorker, type RunningWorker } from "./startWorker.js";
import { AGENT_SCRIPT, CLAUDE, GPT, RecordingBus, SCENARIOS, pairEvents, runEnded, runEvents, seedRun, testIds, testWorkerOptions, waitFor } from "./testing.js";

const JUDGE_SCRIPT = `
judge: scripted-judge
defaults:
  score: '{"score": 0.9}'
  recommend: '{"recommendation": "Call lookup_order before answering."}'
answers:
  - kind: verdict
    answer: { winner: claude-sonnet-5, rationale: "Friendlier answers." }
    usage: { input_tokens: 900, output_tokens: 40, cost: 0.002 }
`;

const WORKER_ENV = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/verdict", KAFKA_BROKERS: "127.0.0.1:9092", VERDICT_AGENT: "scripted:examples/agent.yaml" };

const PROVIDER_KEY = "sk-worker-test-PROVIDERKEY";

let worker: RunningWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

async function start(store: EventStore, bus: RecordingBus, extra: Partial<Parameters<typeof startWorker>[0]> = {}) {
  worker = await startWorker(testWorkerOptions(store, bus, extra));
  return worker;
}

describe("a run through dispatcher, replay consumers and completion", () => {
  it("records one result per pair and the verdict, comparison and RunCompleted once", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    await start(store, bus);
    await seedRun(store);
    await waitFor(() => runEnded(store, "r1"));

    expect(bus.published[REPLAY_TOPIC]).toHaveLength(6);
    expect(bus.published[REPLAY_TOPIC][0]).toEqual({ key: "r1", value: { run_id: "r1", tenant: "acme", n: 0, scenario_key: "order_status", model_label: "gpt-5-mini" } });
    for (let n = 0; n < 6; n++) expect((await pairEvents(store, "r1", n)).map((e) => e.type)).toEqual(["ReplayRecorded", "ResultScored"]);

    const events = await runEvents(store, "r1");
    expect(events.map((e) => e.type)).toEqual(["RunStarted", "RunCompletionRequested", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
    const byType = Object.fromEntries(events.map((e) => [e.type, e.data as Record<string, any>]));
    // gpt passes order_status (tool called) and greeting; claude only greeting; both leak "password".
    expect(byType.RunCompleted).toMatchObject({ scored: 6, passed: 3 });
    expect(byType.VerdictRecorded.verdict).toMatchObject({ winner: "gpt-5-mini", judge: "pass rate" });
    expect(byType.VerdictRecorded.judge_exchange).toBeNull();
    expect(byType.ComparisonRecorded).toMatchObject({ seed: 0, resamples: 5000, confidence: 0.95 });
    const summary = byType.RunCompleted.summary;
    expect(Object.keys(summary.summary_by_model)).toEqual(["gpt-5-mini", "claude-sonnet-5"]);
    expect(summary.fix_items.map((f: { fault: string }) => f.fault).sort()).toEqual(["expected_tool_not_called", "forbidden_content"]);
    expect(summary).toHaveProperty("criteria");
    expect(summary).toHaveProperty("recommendations");
    expect(summary.verdict).toEqual(byType.VerdictRecorded.verdict);
    expect(summary).not.toHaveProperty("results");
    expect(bus.published[COMPLETE_TOPIC]).toEqual([{ key: "r1", value: { run_id: "r1", tenant: "acme" } }]);
  });

  it("a run recorded with a criterion type the Scorer now refuses (older data) still scores it null and completes", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    await start(store, bus);
    await seedRun(store, { models: [GPT], criteria: [{ key: "length", type: "min_length", config: { chars: 20 } }, { key: "x", type: "contain" }] });
    await waitFor(() => runEnded(store, "r1"));

    const scored = (await pairEvents(store, "r1", 1)).find((e) => e.type === "ResultScored")?.data as Record<string, any>;
    expect(scored.scores).toMatchObject({ length: 1, x: null });
    expect((await runEvents(store, "r1")).at(-1)?.type).toBe("RunCompleted");
  });

  it("names the topics it uses, with the deployment's prefix, when it starts", async () => {
    const lines: string[] = [];
    await start(createMemoryEventStore(), new RecordingBus(), { topicPrefix: "acme.", log: { info: (line) => lines.push(line), error: (line) => lines.push(line) } });
    expect(lines).toContain("started: dispatcher, replay, complete (topics acme.verdict.replay, acme.verdict.complete)");
  });

  it("a run whose agent is unreachable completes with every pair a run error, and its log line says so", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    const lines: string[] = [];
    const unreachable: AgentRuntime = {
      name: "http:http://127.0.0.1:1",
      replay: async () => {
        throw new Error("agent unreachable: connect ECONNREFUSED 127.0.0.1:1");
      },
    };
    await start(store, bus, { runtime: unreachable, log: { info: (line) => lines.push(line), error: (line) => lines.push(line) } });
    await seedRun(store);
    await waitFor(() => runEnded(store, "r1"));

    expect((await runEvents(store, "r1")).at(-1)?.type).toBe("RunCompleted");
    expect(lines).toContain("run r1 completed (6 of 6 pairs scored, 6 of them run errors)");
  });

  it("scores with the scripted judge and records its exchanges on ResultScored and the verdict", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    await start(store, bus, { judge: ScriptedJudge.fromYaml(JUDGE_SCRIPT) });
    await seedRun(store, { judge: { kind: "llm", model: "scripted-judge" }, judgeLabel: "scripted-judge" });
    await waitFor(() => runEnded(store, "r1"));

    const scored = (await pairEvents(store, "r1", 1))[1].data as Record<string, any>; // order_status × claude
    expect(scored.fault).toBe("expected_tool_not_called");
    expect(scored.scores.task_completion).toBe(0.9);
    expect(scored.judge_exchanges.map((x: { kind: string }) => x.kind)).toEqual(["score", "recommend"]);
    expect(scored.judge_exchanges[0]).toMatchObject({ raw_answer: '{"score": 0.9}', parsed: { score: 0.9 }, error: null, usage: { model: "scripted-judge" } });
    expect(scored.judge_exchanges[0].prompt_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(scored.recommendation).toContain("Call lookup_order before answering.");

    const events = await runEvents(store, "r1");
    const verdict = events.find((e) => e.type === "VerdictRecorded")!.data as Record<string, any>;
    expect(verdict.verdict).toMatchObject({ winner: "claude-sonnet-5", rationale: "Friendlier answers.", judge: "scripted-judge" });
    expect(verdict.judge_exchange).toMatchObject({ kind: "verdict", usage: { input_tokens: 900, output_tokens: 40, cost: 0.002 } });
    const completed = events.find((e) => e.type === "RunCompleted")!.data as Record<string, any>;
    expect(completed.summary.judge).toBe("scripted-judge");
    expect(completed.summary.judge_usage.by_kind).toMatchObject({ score: 6, verdict: 1 });
    expect(completed.summary.judge_usage.run).toMatchObject({ calls: 1, cost: 0.002 });
  });

  it("a judge backend that never answers: each call is skipped after VERDICT_JUDGE_TIMEOUT_MS with its reason, and the run completes on rules", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    const hung: JudgeBackend = { name: "hung-judge", complete: () => new Promise(() => undefined) };
    const { judgeTimeoutMs } = readWorkerConfig({ ...WORKER_ENV, VERDICT_JUDGE_TIMEOUT_MS: "25" }, []);
    await start(store, bus, { judge: hung, judgeTimeoutMs });
    await seedRun(store, { judge: { kind: "llm", model: "hung-judge" }, judgeLabel: "hung-judge" });
    await waitFor(() => runEnded(store, "r1"));

    const scored = (await pairEvents(store, "r1", 0)).find((e) => e.type === "ResultScored")?.data as Record<string, any>;
    expect(scored.judge_exchanges[0]).toMatchObject({ kind: "score", raw_answer: null, error: "the judge call failed: JudgeTimeout: no answer within 25 ms" });
    expect((await runEvents(store, "r1")).at(-1)?.type).toBe("RunCompleted");
  });

  it("judges on a model provider through the AI SDK: the run's judge model picks the route, the provider's tokens and model are recorded", async () => {
    const provider = await startFakeModelProvider({ apiKey: PROVIDER_KEY, answer: (request) => (request.system?.includes("comparing model cohorts") ? '{"winner": "gpt-5-mini", "rationale": "Uses the tools."}' : '{"score": 0.7}') });
    try {
      const store = createMemoryEventStore();
      const bus = new RecordingBus();
      await start(store, bus, { judge: providerJudges({ OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: provider.baseURL }) });
      await seedRun(store, { judge: { kind: "llm", model: "openai/judge-deployment" }, judgeLabel: "openai/judge-deployment" });
      await waitFor(() => runEnded(store, "r1"));

      expect(new Set(provider.requests.map((r) => r.model))).toEqual(new Set(["judge-deployment"]));
      const scored = (await pairEvents(store, "r1", 0))[1].data as Record<string, any>;
      expect(scored.scores.task_completion).toBe(0.7);
      expect(scored.judge_exchanges[0]).toMatchObject({ parsed: { score: 0.7 }, error: null, usage: { model: "judge-deployment-2026-01-01", input_tokens: expect.any(Number), output_tokens: 4 } });
      const events = await runEvents(store, "r1");
      expect(events.find((e) => e.type === "VerdictRecorded")!.data).toMatchObject({ verdict: { winner: "gpt-5-mini", rationale: "Uses the tools.", judge: "openai/judge-deployment" } });
      expect(JSON.stringify(events)).not.toContain(PROVIDER_KEY);
    } finally {
      await provider.close();
    }
  });

  it("a run pinned to a provider the worker has no key for fails, naming what to set, and no agent or other provider is called", async () => {
    const provider = await startFakeModelProvider({ apiKey: PROVIDER_KEY, answer: () => '{"score": 1}' });
    try {
      const store = createMemoryEventStore();
      const bus = new RecordingBus();
      let replays = 0;
      const agent = ScriptedAgent.fromYaml(AGENT_SCRIPT);
      const counting: AgentRuntime = { name: agent.name, replay: (scenario, spec, options) => ((replays += 1), agent.replay(scenario, spec, options)) };
      await start(store, bus, { runtime: counting, judge: providerJudges({ OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: provider.baseURL }) });
      await seedRun(store, { judge: { kind: "llm", model: "claude-haiku-4-5" }, judgeLabel: "claude-haiku-4-5" });
      await waitFor(() => runEnded(store, "r1"));

      const failed = (await runEvents(store, "r1")).find((e) => e.type === "RunFailed")!.data as Record<string, any>;
      expect(failed.message).toBe(
        `the run's judge cannot be reached: the judge model "claude-haiku-4-5" is served by Anthropic, which is not configured: set ANTHROPIC_API_KEY (configured: OpenAI), or pin a configured provider, e.g. openai/<model>`,
      );
      expect(replays).toBe(0);
      expect(provider.requests).toEqual([]);
    } finally {
      await provider.close();
    }
  });

  it("a judge answering with NUL, a lone surrogate or 700 KB of text still completes the run, its text kept storable", async () => {
    const padded = JSON.stringify({ score: 0.5, pad: "z".repeat(700_000) });
    // A usable recommendation, 400,000 characters of it: it reaches the result and its diagnosis.
    const longAdvice = JSON.stringify({ recommendation: `Call lookup_order first. ${"z".repeat(400_000)}` });
    // The verdict's JSON carries escapes that parse to a NUL and a lone surrogate; its raw answer ends in a NUL of its own.
    const verdictAnswer = '{"winner": "gpt-5-mini", "rationale": "Fewer leaks\\u0000 overall \\ud800"}\u0000';
    // JSON strings are YAML double-quoted scalars, escapes and all.
    const script = ["judge: hostile", "defaults:", `  score: ${JSON.stringify(padded)}`, `  recommend: ${JSON.stringify(longAdvice)}`, `  verdict: ${JSON.stringify(verdictAnswer)}`].join("\n");
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    await start(store, bus, { judge: ScriptedJudge.fromYaml(script) });
    await seedRun(store, { judge: { kind: "llm", model: "hostile" }, judgeLabel: "hostile" });
    await waitFor(() => runEnded(store, "r1"), 20_000);
    const events = await runEvents(store, "r1");
    expect(events.map((e) => e.type)).toEqual(["RunStarted", "RunCompletionRequested", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
    const verdict = events[2].data as Record<string, any>;
    expect(verdict.verdict.rationale).toBe("Fewer leaks\ufffd overall \ufffd");
    expect(verdict.judge_exchange.raw_answer.endsWith("\ufffd")).toBe(true);
    const scored = (await pairEvents(store, "r1", 0))[1].data as Record<string, any>;
    expect(scored.judge_exchanges[0].parsed).toMatchObject({ score: 0.5 });
    expect(Buffer.byteLength(scored.judge_exchanges[0].raw_answer)).toBeLessThanOrEqual(20_000);
    expect(scored.judge_exchanges[0].raw_answer.endsWith("…")).toBe(true);
    // gpt-5-mini skipped lookup_order on order_status: the judge's advice is its recommendation.
    const refined = (await pairEvents(store, "r1", 0))[1].data as Record<string, any>;
    expect(refined.recommendation.startsWith("Call lookup_order first.")).toBe(true);
    expect(Buffer.byteLength(refined.recommendation)).toBeLessThanOrEqual(20_000);
  });

  it("a run asking for a judge this worker does not have is scored and labelled as rules only", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    await start(store, bus, { judge: null });
    await seedRun(store, { judge: { kind: "llm", model: "claude-opus-5" }, judgeLabel: "claude-opus-5" });
    await waitFor(() => runEnded(store, "r1"));
    const events = await runEvents(store, "r1");
    const verdict = events.find((e) => e.type === "VerdictRecorded")!.data as Record<string, any>;
    expect(verdict).toMatchObject({ judge_label: null, judge_exchange: null, verdict: { judge: "pass rate" } });
    const summary = (events.find((e) => e.type === "RunCompleted")!.data as Record<string, any>).summary;
    expect(summary).not.toHaveProperty("judge");
    expect(summary).not.toHaveProperty("judge_usage");
    expect(((await pairEvents(store, "r1", 0))[1].data as Record<string, any>).judge_exchanges).toEqual([]);
  });

  it("a job failing the same way every time fails its run, naming the pair and the error", async () => {
    const inner = createMemoryEventStore();
    const store: EventStore = Object.assign(Object.create(inner) as EventStore, {
      append: (streamId: string, events: Parameters<EventStore["append"]>[1], options?: Parameters<EventStore["append"]>[2]) => {
        if (events.some((e) => e.type === "ResultScored")) return Promise.reject(new TypeError("scores cannot be stored"));
        return inner.append(streamId, events, options);
      },
    });
    await start(store, new RecordingBus());
    await seedRun(store);
    await waitFor(() => runEnded(store, "r1"));
    const events = await runEvents(store, "r1");
    expect(events.filter((e) => e.type === "RunFailed")).toHaveLength(1);
    expect((events.at(-1)!.data as { message: string }).message).toMatch(/^replay job for pair \d \(\w+ × [\w.-]+\) failed 3 times: scores cannot be stored$/);
  });

  it("a failure that may pass (the store unreachable) is redelivered until it does, never failing the run", async () => {
    const inner = createMemoryEventStore();
    let refusals = 5;
    const store: EventStore = Object.assign(Object.create(inner) as EventStore, {
      append: (streamId: string, events: Parameters<EventStore["append"]>[1], options?: Parameters<EventStore["append"]>[2]) => {
        if (events.some((e) => e.type === "ResultScored") && refusals-- > 0) return Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432"));
        return inner.append(streamId, events, options);
      },
    });
    await start(store, new RecordingBus());
    await seedRun(store);
    await waitFor(() => runEnded(store, "r1"));
    expect((await runEvents(store, "r1")).at(-1)?.type).toBe("RunCompleted");
    expect(refusals).toBeLessThan(0);
  });

  it("does not dispatch an external run; scores what the host records and completes on its request", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    let agentCalls = 0;
    const agent = ScriptedAgent.fromYaml(AGENT_SCRIPT);
    await start(store, bus, { runtime: { name: "counting", replay: (...args) => (agentCalls++, agent.replay(...args)) } });
    await seedRun(store, { external: true, models: [{ label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" }] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bus.published[REPLAY_TOPIC]).toBeUndefined();

    const { hostRecords, requestCompletion } = await import("./testingHost.js");
    await hostRecords(store, "r1", [
      { scenario_key: "order_status", model_label: "gpt-5-mini", replay: { answer: "Order 4821 ships Friday with tracking.", tool_calls: [{ name: "lookup_order" }] } },
      { scenario_key: "greeting", model_label: "gpt-5-mini", replay: { answer: "Hello! How can I help you today?" } },
    ]);
    await waitFor(async () => (await pairEvents(store, "r1", 1)).length === 2);
    await requestCompletion(store, "r1", 2);
    await waitFor(() => runEnded(store, "r1"));
    const events = await runEvents(store, "r1");
    const failed = events.find((e) => e.type === "RunFailed")!.data as Record<string, any>;
    expect(failed.message).toBe("The external run did not report every selected scenario and model exactly once: missing refund × gpt-5-mini");
    expect(events.some((e) => e.type === "VerdictRecorded")).toBe(false);
    expect(agentCalls).toBe(0);
    expect((await pairEvents(store, "r1", 0)).map((e) => e.type)).toEqual(["ReplayRecorded", "ResultScored"]);
  });

  it("an engine run asked to complete early still completes once, after its last pair", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    const { requestCompletion } = await import("./testingHost.js");
    await seedRun(store);
    await requestCompletion(store, "r1", 0);
    await start(store, bus);
    await waitFor(() => runEnded(store, "r1"));
    const types = (await runEvents(store, "r1")).map((e) => e.type);
    expect(types).toEqual(["RunStarted", "RunCompletionRequested", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
    expect(bus.published[COMPLETE_TOPIC]).toHaveLength(1);
  });

  it("a restart with a bus that lost its jobs re-drives the runs in flight at the checkpoint", async () => {
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    const lost = new RecordingBus();
    await start(store, lost, { checkpoints, roles: ["dispatcher"] });
    await seedRun(store);
    await waitFor(() => (lost.published[REPLAY_TOPIC]?.length ?? 0) === 6);
    await worker!.stop(); // the jobs die with this bus: nobody consumed them
    const fresh = new RecordingBus();
    await start(store, fresh, { checkpoints });
    await waitFor(() => runEnded(store, "r1"));
    expect(fresh.published[REPLAY_TOPIC]).toHaveLength(6);
    expect((await runEvents(store, "r1")).filter((e) => e.type === "RunCompleted")).toHaveLength(1);
  });

  /** Run r1, external: the host records its six pairs (each one a scoring job) on a dispatcher-only worker, whose bus is then lost. */
  async function externalOnLostBus(store: EventStore, checkpoints: MemoryCheckpointStore, ask: boolean): Promise<RecordingBus> {
    const lost = new RecordingBus();
    await start(store, lost, { checkpoints, roles: ["dispatcher"] });
    await seedRun(store, { external: true });
    const { hostRecords, requestCompletion } = await import("./testingHost.js");
    const answer = { answer: "Order 4821 shipped yesterday and arrives on Friday for sure." };
    await hostRecords(store, "r1", SCENARIOS.flatMap((s) => [GPT, CLAUDE].map((m) => ({ scenario_key: s.key, model_label: m.label, replay: answer }))));
    await waitFor(() => (lost.published[REPLAY_TOPIC]?.length ?? 0) === 6);
    if (ask) {
      await requestCompletion(store, "r1", 0);
      await waitFor(() => (lost.published[COMPLETE_TOPIC]?.length ?? 0) === 1);
    }
    await worker!.stop(); // saves the checkpoint past every event above; the jobs die with this bus
    return lost;
  }

  it("a restart after an external run's host asked to complete publishes its completion job again", async () => {
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    await externalOnLostBus(store, checkpoints, true);
    const fresh = new RecordingBus();
    await start(store, fresh, { checkpoints });
    await waitFor(() => runEnded(store, "r1"), 3000);
    expect(fresh.published[COMPLETE_TOPIC]).toHaveLength(1);
    const types = (await runEvents(store, "r1")).map((e) => e.type);
    expect(types).toEqual(["RunStarted", "RunCompletionRequested", "RunRedriven", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
  });

  it("a restart before an external run's host asked to complete scores its recorded pairs and waits for the host", async () => {
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    await externalOnLostBus(store, checkpoints, false);
    const fresh = new RecordingBus();
    await start(store, fresh, { checkpoints });
    await waitFor(async () => (await Promise.all([0, 1, 2, 3, 4, 5].map((n) => pairEvents(store, "r1", n)))).every((p) => p.length === 2), 3000);
    expect(fresh.published[COMPLETE_TOPIC]).toBeUndefined();
    expect(await runEnded(store, "r1")).toBe(false);
  });

  it("a checkpoint that does not record an external run's completion request (saved by an older version) still gets the run completed", async () => {
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    await externalOnLostBus(store, checkpoints, true);
    const saved = (await checkpoints.load("dispatcher"))!;
    (saved.state.runs as Record<string, { requested: boolean }>).r1.requested = false;
    await checkpoints.save("dispatcher", saved);
    const fresh = new RecordingBus();
    await start(store, fresh, { checkpoints });
    await waitFor(() => runEnded(store, "r1"), 3000);
    expect((await runEvents(store, "r1")).at(-1)?.type).toBe("RunCompleted");
  });

  it("a restarted dispatcher resumes after its checkpoint: finished runs are not read again", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    const checkpoints = new MemoryCheckpointStore();
    await start(store, bus, { checkpoints });
    await seedRun(store);
    // RunStarted, 6 ReplayRecorded, 6 ResultScored, RunCompletionRequested, RunCompleted.
    await waitFor(() => worker!.dispatcher!.handled === 15);
    await worker!.stop();
    await seedRun(store, { runId: "r2" });
    await start(store, bus, { checkpoints });
    await waitFor(() => worker!.dispatcher!.handled === 15);
    expect(await runEnded(store, "r2")).toBe(true);
    // Only r2's 15 events were handled after the restart; r1 was never read or dispatched again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(worker!.dispatcher!.handled).toBe(15);
    expect(bus.published[REPLAY_TOPIC].filter((j) => (j.value as { run_id: string }).run_id === "r1")).toHaveLength(6);
    expect(bus.published[REPLAY_TOPIC].filter((j) => (j.value as { run_id: string }).run_id === "r2")).toHaveLength(6);
  });

  it("takes concurrency x jobsPerReplaySlot replay jobs at once, while the agent never sees more than concurrency replays", async () => {
    const store = createMemoryEventStore();
    const bus = new InFlightBus();
    const agent = new CountingAgent();
    await start(store, bus, { runtime: agent, concurrency: 1, jobsPerReplaySlot: 2 });
    await seedRun(store);
    await waitFor(() => runEnded(store, "r1"));
    expect(agent.replays).toBe(6);
    expect(agent.mostAtOnce).toBe(1);
    expect(bus.mostAtOnce).toBe(2);
  });

  it("stop({ leaveWaiting }): the jobs waiting for an agent slot leave without replaying, and only the running replay is waited for", async () => {
    // Each waiting job ran its replay after the stop: a shutdown took one agent call per job taken.
    const { store, agent } = await stoppedMidRun(300, { leaveWaiting: true });
    expect(agent.replays).toBe(1);
    expect(await runEnded(store, "r1")).toBe(false);
  });

  it("stop() without it replays every job already taken (verdict start's drain, which a second Ctrl-C gives up)", async () => {
    const { agent } = await stoppedMidRun(100, {});
    expect(agent.replays).toBeGreaterThan(1);
  });

  it("refuses a jobsPerReplaySlot that is not a whole number >= 1, naming it", async () => {
    for (const jobsPerReplaySlot of [0, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(start(createMemoryEventStore(), new RecordingBus(), { jobsPerReplaySlot })).rejects.toThrow(`jobsPerReplaySlot must be a whole number >= 1 (got ${jobsPerReplaySlot})`);
    }
    worker = null;
  });
});

describe("a worker whose start fails part way", () => {
  it("stops the dispatcher and the consumers it had started, then rejects with the cause", async () => {
    // As a broker that refuses to create the completion topic: the dispatcher leads and the
    // replay consumer runs by then. Left running, they kept `verdict start` from ever exiting.
    const stopped: string[] = [];
    const bus = new (class extends RecordingBus {
      override async consume(topic: string, handler: (job: DeliveredJob) => Promise<void>, options: ConsumeOptions): Promise<JobConsumer> {
        if (topic === COMPLETE_TOPIC) throw new Error("Kafka refused to create topic verdict.complete");
        const consumer = await super.consume(topic, handler, options);
        return { stop: () => (stopped.push(topic), consumer.stop()) };
      }
    })();
    const checkpoints = new MemoryCheckpointStore();
    await expect(start(createMemoryEventStore(), bus, { checkpoints })).rejects.toThrow("Kafka refused to create topic verdict.complete");
    expect(stopped).toEqual([REPLAY_TOPIC]);
    // The dispatcher gave up its lead: another may take it.
    expect(await checkpoints.acquire("dispatcher")).toBe(true);
  });
});

/** Counts the replay jobs its consumers are handling at once. */
class InFlightBus extends RecordingBus {
  mostAtOnce = 0;
  #now = 0;

  override consume(topic: string, handler: (job: DeliveredJob) => Promise<void>, options: ConsumeOptions): Promise<JobConsumer> {
    if (topic !== REPLAY_TOPIC) return super.consume(topic, handler, options);
    return super.consume(topic, async (job) => {
      this.mostAtOnce = Math.max(this.mostAtOnce, ++this.#now);
      try {
        await handler(job);
      } finally {
        this.#now -= 1;
      }
    }, options);
  }
}

/** A worker of one agent slot holding 6 jobs, stopped once its first replay (of `delayMs`) began. */
async function stoppedMidRun(delayMs: number, options: { leaveWaiting?: boolean }) {
  const store = createMemoryEventStore();
  const agent = new CountingAgent(delayMs);
  const running = await start(store, new RecordingBus(), { runtime: agent, concurrency: 1, jobsPerReplaySlot: 6 });
  await seedRun(store);
  await waitFor(() => agent.replays >= 1);
  await running.stop(options);
  worker = null;
  return { store, agent };
}

/** The scripted agent, each replay taking `delayMs` (5 ms): counts the replays it is asked for at once. */
class CountingAgent implements AgentRuntime {
  readonly name = "counting";
  readonly #inner = ScriptedAgent.fromYaml(AGENT_SCRIPT);
  replays = 0;
  mostAtOnce = 0;
  #now = 0;

  constructor(private readonly delayMs = 5) {}

  async replay(...args: Parameters<AgentRuntime["replay"]>): ReturnType<AgentRuntime["replay"]> {
    this.replays += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, ++this.#now);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      return await this.#inner.replay(...args);
    } finally {
      this.#now -= 1;
    }
  }
}

/** A bus that keeps (records) one topic's jobs without delivering them while `dropping` is set: jobs lost beyond redelivery. */
class DroppingBus extends RecordingBus {
  dropping = true;

  constructor(private readonly lost = REPLAY_TOPIC) {
    super();
  }

  override async publish(topic: string, jobs: Parameters<RecordingBus["publish"]>[1]): Promise<void> {
    if (topic === this.lost && this.dropping) {
      (this.published[topic] ??= []).push(...jobs);
      return;
    }
    await super.publish(topic, jobs);
  }
}

const ALL_PAIRS = "order_status × gpt-5-mini, order_status × claude-sonnet-5, greeting × gpt-5-mini, greeting × claude-sonnet-5, refund × gpt-5-mini, refund × claude-sonnet-5";

describe("the dispatcher's watchdog", () => {
  const STALL_MS = 60_000;
  let now = Date.parse("2026-11-30T12:00:00.000Z");
  const clock = { now: () => new Date(now) };
  const watchdog = { stallMs: STALL_MS, maxRedrives: 2 };

  /** A worker whose bus loses `topic`'s jobs, and run r1 once `published` of them are gone. */
  async function runLosing(topic: string, published: number): Promise<{ store: EventStore; bus: DroppingBus }> {
    const store = createMemoryEventStore();
    const bus = new DroppingBus(topic);
    await start(store, bus, { clock, watchdog });
    await seedRun(store);
    await waitFor(() => (bus.published[topic]?.length ?? 0) === published);
    return { store, bus };
  }

  it("leaves a run alone while it is younger than the stall time", async () => {
    const { store, bus } = await runLosing(REPLAY_TOPIC, 6);
    now += STALL_MS - 1;
    await worker!.dispatcher!.sweep();
    expect(bus.published[REPLAY_TOPIC]).toHaveLength(6);
    expect(await runEnded(store, "r1")).toBe(false);
  });

  it("re-drives a run whose replay jobs were lost, and the run completes", async () => {
    const { store, bus } = await runLosing(REPLAY_TOPIC, 6);
    bus.dropping = false;
    now += STALL_MS;
    await worker!.dispatcher!.sweep();
    await waitFor(() => runEnded(store, "r1"));
    expect(bus.published[REPLAY_TOPIC]).toHaveLength(12);
    const types = (await runEvents(store, "r1")).map((e) => e.type);
    expect(types).toEqual(["RunStarted", "RunRedriven", "RunCompletionRequested", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
  });

  it("fails a run that makes no progress after its re-drives, once, saying why", async () => {
    const { store, bus } = await runLosing(REPLAY_TOPIC, 6);
    for (let round = 0; round < 3; round++) {
      now += STALL_MS;
      await worker!.dispatcher!.sweep();
      // Counted when the dispatcher reads its RunRedriven back from the log.
      if (round < 2) await waitFor(() => worker!.dispatcher!.tracked("r1")?.redrives === round + 1);
    }
    await waitFor(() => runEnded(store, "r1"));
    expect(bus.published[REPLAY_TOPIC]).toHaveLength(18); // published, then 2 re-drives
    const failed = (await runEvents(store, "r1")).filter((e) => e.type === "RunFailed");
    expect(failed).toHaveLength(1);
    expect((failed[0].data as { message: string }).message).toBe(
      `no result for 6 of 6 pairs (${ALL_PAIRS}) after 2 re-drives 1 min apart: their replay jobs were lost or never finish`,
    );
    now += STALL_MS;
    await worker!.dispatcher!.sweep(); // the failed run is no longer tracked
    expect((await runEvents(store, "r1")).filter((e) => e.type === "RunFailed")).toHaveLength(1);
  });

  it("leaves an external run alone until its host asks to complete, then re-drives its lost completion job", async () => {
    const store = createMemoryEventStore();
    const bus = new DroppingBus(COMPLETE_TOPIC);
    await start(store, bus, { clock, watchdog });
    await seedRun(store, { external: true, models: [GPT] });
    now += STALL_MS;
    await worker!.dispatcher!.sweep();
    expect(bus.published[REPLAY_TOPIC]).toBeUndefined(); // the host has recorded nothing yet: not stalled, just not done
    const { requestCompletion } = await import("./testingHost.js");
    await requestCompletion(store, "r1", 0);
    await waitFor(() => (bus.published[COMPLETE_TOPIC]?.length ?? 0) === 1);
    bus.dropping = false;
    now += STALL_MS;
    await worker!.dispatcher!.sweep();
    await waitFor(() => runEnded(store, "r1"), 3000);
    expect(bus.published[COMPLETE_TOPIC]).toHaveLength(2);
    const failed = (await runEvents(store, "r1")).filter((e) => e.type === "RunFailed");
    expect((failed[0].data as { message: string }).message).toMatch(/^The external run did not report every selected scenario and model exactly once: missing order_status × gpt-5-mini/);
  });

  it("publishes a lost completion job again, and the run completes once", async () => {
    const { store, bus } = await runLosing(COMPLETE_TOPIC, 1);
    bus.dropping = false;
    now += STALL_MS;
    await worker!.dispatcher!.sweep();
    await waitFor(() => runEnded(store, "r1"));
    expect(bus.published[COMPLETE_TOPIC]).toHaveLength(2);
    expect(bus.published[REPLAY_TOPIC]).toHaveLength(6); // the pairs were all scored: only the completion is re-driven
    expect((await runEvents(store, "r1")).filter((e) => e.type === "RunCompleted")).toHaveLength(1);
  });

  /** A dispatcher-only worker (a process that may die on the jobs it publishes) restarted on the same checkpoint, and the replay jobs it published. */
  async function restartDispatcher(store: EventStore, checkpoints: MemoryCheckpointStore, said = "started"): Promise<DroppingBus> {
    await worker?.stop();
    const bus = new DroppingBus();
    const lines: string[] = [];
    const log = { info: (line: string) => void lines.push(line), error: (line: string) => void lines.push(line) };
    await start(store, bus, { clock, watchdog, checkpoints, roles: ["dispatcher"], log });
    await waitFor(() => lines.some((line) => line.includes(said)));
    return bus;
  }

  it("counts each restart as a re-drive: a run restarted enough without progress gets no more jobs and is failed once stalled, naming its pairs", async () => {
    // A worker dying on one of a run's jobs restarts into it: each restart reset the stall and
    // published every job again, and the run stayed RUNNING for ever.
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    let bus = await restartDispatcher(store, checkpoints);
    await seedRun(store);
    await waitFor(() => (bus.published[REPLAY_TOPIC]?.length ?? 0) === 6);
    for (let restart = 1; restart <= 2; restart++) {
      now += 1_000; // a supervisor's restart: far less than the stall time
      bus = await restartDispatcher(store, checkpoints, "6 replay jobs published again after a restart (0 scored at the dispatcher's checkpoint)");
      await waitFor(() => worker!.dispatcher!.tracked("r1")?.redrives === restart);
    }
    now += 1_000;
    // Re-driven enough: nothing more for a worker that may be crashing on one of the jobs.
    bus = await restartDispatcher(store, checkpoints, "jobs not published again after a restart: re-driven 2 times without progress");
    expect(bus.published[REPLAY_TOPIC]).toBeUndefined();
    expect(await runEnded(store, "r1")).toBe(false);
    now += STALL_MS; // stalled since its last re-drive: the next start fails it
    bus = await restartDispatcher(store, checkpoints, "failed by the watchdog");
    expect(bus.published[REPLAY_TOPIC]).toBeUndefined();
    const events = await runEvents(store, "r1");
    expect(events.map((e) => e.type)).toEqual(["RunStarted", "RunRedriven", "RunRedriven", "RunFailed"]);
    expect(events[1].data).toEqual({ cause: "restart", jobs: "replay", pending: 6 });
    expect((events[3].data as { message: string }).message).toBe(
      `no result for 6 of 6 pairs (${ALL_PAIRS}) after 2 re-drives without progress, 2 of them after a restart (a worker may be crashing on one of these pairs): their replay jobs were lost or never finish`,
    );
  });

  it("a run re-driven to the limit whose pairs were all scored while no dispatcher led is completed, not failed, when one leads again", async () => {
    // The restart decided from the checkpoint alone, before reading the log after it: a run at
    // its re-drive limit was failed as stalled though every pair had a result.
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    const unread = new RecordingBus(); // a dispatcher alone: its jobs reach no consumer
    await start(store, unread, { clock, watchdog, checkpoints, roles: ["dispatcher"] });
    await seedRun(store);
    await waitFor(() => (unread.published[REPLAY_TOPIC]?.length ?? 0) === 6);
    for (let round = 1; round <= 2; round++) {
      now += STALL_MS;
      await worker!.dispatcher!.sweep();
      await waitFor(() => worker!.dispatcher!.tracked("r1")?.redrives === round);
    }
    await worker!.stop();
    // The dispatcher is down; replay workers take the jobs and score every pair.
    const replays = new RecordingBus();
    await start(store, replays, { clock, watchdog, checkpoints, roles: ["replay"] });
    await replays.publish(REPLAY_TOPIC, unread.published[REPLAY_TOPIC].slice(0, 6));
    for (let n = 0; n < 6; n++) await waitFor(async () => (await pairEvents(store, "r1", n)).some((e) => e.type === "ResultScored"));
    await worker!.stop();
    now += STALL_MS * 5; // back after a deploy longer than the stall time
    await start(store, new RecordingBus(), { clock, watchdog, checkpoints, roles: ["dispatcher", "complete"] });
    await waitFor(() => runEnded(store, "r1"));
    expect((await runEvents(store, "r1")).map((e) => e.type).at(-1)).toBe("RunCompleted");
  });

  it("fails a stalled run whose last recorded pair carries an earlier time than one recorded before it", async () => {
    // Recorded times are not in log order (a replay kept after a failed scoring has the time it
    // was taken; hosts' clocks differ): checked by time, such a run was never failed.
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    await start(store, bus, { clock, watchdog, roles: ["dispatcher"] });
    await seedRun(store);
    await waitFor(() => bus.published[REPLAY_TOPIC]?.length === 6);
    const run = (await loadAggregate(store, runAggregate, runStream("r1"))).state;
    const record = (scenario: string, model: string, at: number) =>
      handleCommand(store, resultAggregate, pairStream(run, scenario, model),
        { type: "RecordReplay", run_id: "r1", scenario_key: scenario, model_label: model, replay: { answer: "an answer long enough to pass" } },
        { clock: { now: () => new Date(at) }, ids: testIds, context: { tenant: "acme", actor: "worker" }, decideContext: { run } });
    // Both in the dispatcher's past (a time in its future counts as read: watchdog.test.ts).
    await record("refund", GPT.label, now - 500);
    await record("refund", CLAUDE.label, now - 1_000); // appended last, timed 500 ms earlier
    await waitFor(() => worker!.dispatcher!.tracked("r1")?.lastProgressAt === now - 1_000);
    for (let round = 1; round <= 3; round++) {
      now += STALL_MS + 1_000;
      await worker!.dispatcher!.sweep();
      if (round <= 2) await waitFor(() => worker!.dispatcher!.tracked("r1")?.redrives === round);
    }
    expect((await runEvents(store, "r1")).map((e) => e.type)).toEqual(["RunStarted", "RunRedriven", "RunRedriven", "RunFailed"]);
  });

  it("a restart publishes only the pairs without a result, and a run that progresses after it is not failed", async () => {
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    // Only the gpt-5-mini pairs (even n) reach the consumers; the others are lost with the bus.
    const halfBus = new (class extends RecordingBus {
      override async publish(topic: string, jobs: Parameters<RecordingBus["publish"]>[1]): Promise<void> {
        await super.publish(topic, jobs.filter((job) => topic !== REPLAY_TOPIC || (job.value as { n: number }).n % 2 === 0));
      }
    })();
    await start(store, halfBus, { clock, watchdog, checkpoints });
    await seedRun(store);
    await waitFor(() => worker!.dispatcher!.tracked("r1")?.scored === 3);
    await worker!.stop();
    now += STALL_MS * 5; // a long deploy: the run's last result is old
    const fresh = new RecordingBus();
    await start(store, fresh, { clock, watchdog, checkpoints });
    await waitFor(() => runEnded(store, "r1"));
    expect(fresh.published[REPLAY_TOPIC].map((job) => (job.value as { n: number }).n)).toEqual([1, 3, 5]);
    const types = (await runEvents(store, "r1")).map((e) => e.type);
    expect(types).toEqual(["RunStarted", "RunRedriven", "RunCompletionRequested", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
  });
});
