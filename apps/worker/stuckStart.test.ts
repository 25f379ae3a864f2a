// A run whose start cannot be published (replay jobs are keyed by run: its partition without a
// leader) held the dispatch loop, which retried that one event every second while every run
// behind it in the log waited: not dispatched, not counted, not completed (docs/review-history.md,
// "holds the dispatch loop"). Its start is now retried beside the loop, with backoff, and saved
// with the checkpoint until its jobs went out, so the runs after it go on and none is lost.
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { handleCommand, loadAggregate, pairStream, resultAggregate, runAggregate, runStream, type EventStore } from "@verdict/domain";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import { Dispatcher, type DispatcherOptions } from "./dispatcher.js";
import { REPLAY_TOPIC } from "./jobs.js";
import { startWorker, type RunningWorker } from "./startWorker.js";
import { FlakyBus, GPT, runEnded, runEvents, seedRun, testClock, testIds, testWorkerOptions, waitFor } from "./testing.js";

const REFUSED = "Connection error: connect ECONNREFUSED 127.0.0.1:9092";
const NOT_COUNTED = "; the job bus took no other jobs since the last try: not counted toward failing the run";

let worker: RunningWorker | null = null;
const dispatchers: Dispatcher[] = [];
afterEach(async () => {
  await worker?.stop();
  worker = null;
  for (const dispatcher of dispatchers.splice(0)) await dispatcher.stop();
});

/** A bus that refuses every replay job of the runs in `stuck` (their partition has no leader) and takes the rest. */
function partitionedBus(stuck: Set<string>): FlakyBus {
  const bus = new FlakyBus();
  bus.refuse = (topic, jobs) => topic === REPLAY_TOPIC && jobs.some((job) => stuck.has((job.value as { run_id: string }).run_id));
  return bus;
}

const replaysOf = (bus: FlakyBus, runId: string) => (bus.published[REPLAY_TOPIC] ?? []).filter((job) => (job.value as { run_id: string }).run_id === runId).length;

function dispatcherOn(store: EventStore, bus: FlakyBus, checkpoints: MemoryCheckpointStore, lines: { info: string[]; errors: string[] }, extra: Partial<DispatcherOptions> = {}) {
  const log = { info: (line: string) => void lines.info.push(line), error: (line: string) => void lines.errors.push(line) };
  const dispatcher = new Dispatcher({ store, bus, checkpoints, clock: testClock, ids: testIds, log, startRetryMs: 20, startRetryMaxMs: 80, checkpointMs: 10, ...extra });
  dispatchers.push(dispatcher);
  dispatcher.start();
  return dispatcher;
}

describe("a run whose start cannot be published", () => {
  it("does not hold the runs after it: they are dispatched, scored and completed while it waits", async () => {
    const store = createMemoryEventStore();
    const bus = partitionedBus(new Set(["r1"]));
    worker = await startWorker(testWorkerOptions(store, bus));
    await seedRun(store, { runId: "r1" });
    await seedRun(store, { runId: "r2" });
    await waitFor(() => runEnded(store, "r2"));
    expect((await runEvents(store, "r2")).map((e) => e.type)).toEqual(["RunStarted", "RunCompletionRequested", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
    expect(replaysOf(bus, "r1")).toBe(0);
    expect((await runEvents(store, "r1")).map((e) => e.type)).toEqual(["RunStarted"]);
    // Its partition has a leader again: r1's jobs go out on a retry, and it completes too.
    bus.refuse = () => false;
    await waitFor(() => runEnded(store, "r1"), 30_000);
    expect((await runEvents(store, "r1")).map((e) => e.type)).toEqual(["RunStarted", "RunCompletionRequested", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
    expect(replaysOf(bus, "r1")).toBe(6);
  });

  it("is retried with growing waits, says so, and is not the watchdog's until its jobs went out", async () => {
    const store = createMemoryEventStore();
    const bus = partitionedBus(new Set(["r1"]));
    const lines = { info: [] as string[], errors: [] as string[] };
    const dispatcher = dispatcherOn(store, bus, new MemoryCheckpointStore(), lines);
    // r2 first: no other publish between r1's tries, so none is counted as refused while the bus took other jobs.
    await seedRun(store, { runId: "r2" });
    await seedRun(store, { runId: "r1" });
    await waitFor(() => replaysOf(bus, "r2") === 6);
    await waitFor(() => lines.errors.length >= 4);
    expect(lines.errors.slice(0, 4)).toEqual([
      `run r1: its 6 replay jobs could not be published (${REFUSED}); trying again in 20 ms, beside the other runs`,
      `run r1: its 6 replay jobs could not be published (${REFUSED}; try 2)${NOT_COUNTED}; trying again in 40 ms, beside the other runs`,
      `run r1: its 6 replay jobs could not be published (${REFUSED}; try 3)${NOT_COUNTED}; trying again in 80 ms, beside the other runs`,
      `run r1: its 6 replay jobs could not be published (${REFUSED}; try 4)${NOT_COUNTED}; trying again in 80 ms, beside the other runs`,
    ]);
    expect(lines.errors.some((line) => line.includes("resuming in 1 s"))).toBe(false);
    // Tracked, so its scored pairs count and a restart knows it, but waiting for its start.
    expect(dispatcher.tracked("r1")).toMatchObject({ unpublished: true, redrives: 0 });
    expect(dispatcher.tracked("r1")?.lastProgressAt).toBeUndefined();
    // The watchdog leaves it to its retries: no re-drive, no refusal counted.
    await dispatcher.sweep();
    expect((await runEvents(store, "r1")).map((e) => e.type)).toEqual(["RunStarted"]);
    bus.refuse = () => false;
    await waitFor(() => replaysOf(bus, "r1") === 6);
    await waitFor(() => dispatcher.tracked("r1")?.unpublished === undefined);
    expect(dispatcher.tracked("r1")).toMatchObject({ redrives: 0, lastProgressAt: testClock.now().getTime() });
    expect(lines.info.filter((line) => line.startsWith("run r1:"))).toEqual([expect.stringMatching(/^run r1: 6 replay jobs published on try (\d+)$/)]);
    expect(Number(/try (\d+)$/.exec(lines.info.find((line) => line.startsWith("run r1:"))!)![1])).toBeGreaterThan(4);
    // Once out, it is not tried again.
    const attempts = bus.attempts;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bus.attempts).toBe(attempts);
    expect(replaysOf(bus, "r1")).toBe(6);
  });

  it("is kept with the checkpoint: a dispatcher that leads next publishes its jobs (at least once)", async () => {
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    const refusing = partitionedBus(new Set(["r1"]));
    const first = dispatcherOn(store, refusing, checkpoints, { info: [], errors: [] });
    await seedRun(store, { runId: "r1" });
    await seedRun(store, { runId: "r2" });
    await waitFor(() => replaysOf(refusing, "r2") === 6);
    // Its checkpoint is past r1's start, with r1 still to publish.
    await waitFor(async () => ((await checkpoints.load("dispatcher"))?.state.runs as Record<string, { unpublished?: boolean }> | undefined)?.r1?.unpublished === true);
    await first.stop();
    dispatchers.splice(dispatchers.indexOf(first), 1);
    const saved = (await checkpoints.load("dispatcher"))?.state.runs as Record<string, { startTries: number }>;

    const bus = new FlakyBus();
    const lines = { info: [] as string[], errors: [] as string[] };
    const next = dispatcherOn(store, bus, checkpoints, lines);
    await waitFor(() => replaysOf(bus, "r1") === 6);
    await waitFor(() => next.tracked("r1")?.unpublished === undefined);
    // r2's went out before: the new leader's restart re-drive publishes them again; r1's are its start's.
    expect((await runEvents(store, "r1")).map((e) => e.type)).toEqual(["RunStarted"]);
    // Its tries are counted on from the checkpoint, the first of this leader's at once.
    expect(lines.info).toContain(`run r1: 6 replay jobs published on try ${saved.r1.startTries + 1}`);
  });

  it("is not retried once it ended (failed or completed) while it waited", async () => {
    const store = createMemoryEventStore();
    const bus = partitionedBus(new Set(["r1"]));
    const lines = { info: [] as string[], errors: [] as string[] };
    const dispatcher = dispatcherOn(store, bus, new MemoryCheckpointStore(), lines);
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 2);
    await handleCommand(store, runAggregate, runStream("r1"), { type: "FailRun", run_id: "r1", message: "cancelled" }, { clock: testClock, ids: testIds, context: { tenant: "acme", actor: "test" } });
    await waitFor(() => dispatcher.tracked("r1") === undefined);
    bus.refuse = () => false;
    const attempts = bus.attempts;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(bus.attempts).toBe(attempts);
    expect(replaysOf(bus, "r1")).toBe(0);
  });
});

// Refused for ever, such a start was tried every 30 s for ever, its run RUNNING and nobody told.
// Its tries now count as the watchdog counts re-drives the bus refused: only those refused while
// the bus took other jobs (startRetries.ts). The retries run on real short timers; the stall
// window on this clock, moved by hand.
describe("a run whose start the bus keeps refusing", () => {
  const STALL_MS = 60_000;
  let now = Date.parse("2026-11-30T12:00:00.000Z");
  const clock = { now: () => new Date(now) };
  const types = async (store: EventStore, runId: string) => (await runEvents(store, runId)).map((e) => e.type);
  const counted = (k: number) => (line: string) => line.startsWith("run r1:") && line.includes(`counted as refusal ${k};`);

  function setUp(stuck: Set<string>, watchdog: DispatcherOptions["watchdog"] = { stallMs: STALL_MS }) {
    const store = createMemoryEventStore();
    const bus = partitionedBus(stuck);
    const lines = { info: [] as string[], errors: [] as string[] };
    const dispatcher = dispatcherOn(store, bus, new MemoryCheckpointStore(), lines, { clock, watchdog });
    return { store, bus, lines, dispatcher };
  }

  /** Another run starts and its jobs go out: the bus takes other jobs; then r1 is tried again. */
  async function anotherRunGoesOut(store: EventStore, bus: FlakyBus, lines: { errors: string[] }, runId: string) {
    await seedRun(store, { runId });
    await waitFor(() => replaysOf(bus, runId) === 6);
    const seen = lines.errors.length;
    await waitFor(() => lines.errors.slice(seen).some((line) => line.startsWith("run r1:")));
  }

  it("is failed once the bus refused it 3 times while it took other runs' jobs, the first a stall window ago, saying so", async () => {
    const { store, bus, lines, dispatcher } = setUp(new Set(["r1"]));
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 1);
    await anotherRunGoesOut(store, bus, lines, "r2");
    expect(lines.errors.filter(counted(1))).toEqual([
      expect.stringMatching(
        /^run r1: its 6 replay jobs could not be published \(Connection error: connect ECONNREFUSED 127\.0\.0\.1:9092; try \d+\) while the job bus took other jobs: counted as refusal 1; the run fails at 3 or more once the first is 1 min old; trying again in \d+ ms, beside the other runs$/,
      ),
    ]);
    now += STALL_MS / 2;
    await anotherRunGoesOut(store, bus, lines, "r3");
    expect(lines.errors.filter(counted(2))).toHaveLength(1);
    expect(await types(store, "r1")).toEqual(["RunStarted"]);
    now += STALL_MS / 2;
    await seedRun(store, { runId: "r4" });
    await waitFor(() => runEnded(store, "r1"));

    expect(await types(store, "r1")).toEqual(["RunStarted", "RunFailed"]);
    const failed = (await runEvents(store, "r1")).find((e) => e.type === "RunFailed");
    const message = failed?.type === "RunFailed" ? failed.data.message : "";
    const shape =
      /^its 6 replay jobs could not be published: the job bus refused them 3 times in 1 min while it took other jobs \(the partition they go to may have no leader\) \((\d+) tries since the run started, none went out\); last error: Connection error: connect ECONNREFUSED 127\.0\.0\.1:9092$/;
    expect(message).toMatch(shape);
    expect(Number(shape.exec(message)![1])).toBeGreaterThanOrEqual(4);
    expect(lines.errors).toContain(`run r1 failed by the watchdog: ${message}`);
    expect(dispatcher.tracked("r1")).toBeUndefined();
    for (const runId of ["r2", "r3", "r4"]) expect(await types(store, runId)).toEqual(["RunStarted"]);
    // Failed, it is tried no more.
    const attempts = bus.attempts;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(bus.attempts).toBe(attempts);
  });

  it("fails nothing through an outage of the whole bus longer than the stall window, counts from when the bus takes jobs again, and goes out when it can", async () => {
    const { store, bus, lines, dispatcher } = setUp(new Set());
    bus.refuse = () => true;
    await seedRun(store, { runId: "r1" });
    await seedRun(store, { runId: "r2" });
    for (let round = 0; round < 4; round++) {
      now += STALL_MS;
      const seen = lines.errors.length;
      await waitFor(() => lines.errors.slice(seen).filter((line) => line.startsWith("run r1:")).length >= 2);
    }
    expect(await types(store, "r1")).toEqual(["RunStarted"]);
    expect(await types(store, "r2")).toEqual(["RunStarted"]);
    expect(lines.errors.filter((line) => line.includes("counted as refusal"))).toEqual([]);
    const notCounted = /^run r1: .*; try \d+\); the job bus took no other jobs since the last try: not counted toward failing the run; trying again in \d+ ms, beside the other runs$/;
    expect(lines.errors.filter((line) => notCounted.test(line)).length).toBeGreaterThanOrEqual(7); // every try after its first
    expect(dispatcher.tracked("r1")).toMatchObject({ unpublished: true });
    expect(dispatcher.tracked("r1")?.startRefusals).toBeUndefined();

    // The bus is back but for r1's partition: r2's start goes out, and r1's count starts now, not at the outage.
    bus.refuse = (topic, jobs) => topic === REPLAY_TOPIC && jobs.some((job) => (job.value as { run_id: string }).run_id === "r1");
    await waitFor(() => lines.errors.some(counted(1)));
    expect(replaysOf(bus, "r2")).toBe(6);
    expect(dispatcher.tracked("r1")).toMatchObject({ unpublished: true, startRefusals: 1, startRefusedSince: now });
    bus.refuse = () => false;
    await waitFor(() => replaysOf(bus, "r1") === 6);
    await waitFor(() => dispatcher.tracked("r1")?.unpublished === undefined);
    expect(await types(store, "r1")).toEqual(["RunStarted"]);
  });

  it("is not failed when its jobs go out after refusals that counted: its count ends with its start", async () => {
    const stuck = new Set(["r1"]);
    const { store, bus, lines, dispatcher } = setUp(stuck);
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 1);
    for (const runId of ["r2", "r3", "r4"]) {
      now += STALL_MS / 6;
      await anotherRunGoesOut(store, bus, lines, runId);
    }
    // 3 counted, within a third of the stall window: not failed yet.
    await waitFor(() => lines.errors.some(counted(3)));
    expect(dispatcher.tracked("r1")).toMatchObject({ unpublished: true, startRefusals: 3 });
    stuck.delete("r1");
    await waitFor(() => dispatcher.tracked("r1")?.unpublished === undefined);
    expect(replaysOf(bus, "r1")).toBe(6);
    expect(dispatcher.tracked("r1")).toMatchObject({ lastProgressAt: now });
    for (const count of ["startTries", "startRefusals", "startRefusedSince"] as const) expect(dispatcher.tracked("r1")?.[count]).toBeUndefined();
    // Long after, its old count fails nothing: stalled, it is the watchdog's like any run, re-driven first.
    now += STALL_MS * 2;
    await dispatcher.sweep();
    await waitFor(async () => (await types(store, "r1")).includes("RunRedriven"));
    expect(await types(store, "r1")).toEqual(["RunStarted", "RunRedriven"]);
  });

  it("with the watchdog off (VERDICT_WATCHDOG_STALL_MS=0), is tried until its jobs go out, and says so", async () => {
    const stuck = new Set(["r1"]);
    const { store, bus, lines, dispatcher } = setUp(stuck, { stallMs: null });
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 1);
    for (const runId of ["r2", "r3", "r4", "r5"]) {
      now += STALL_MS * 10;
      await anotherRunGoesOut(store, bus, lines, runId);
    }
    expect(lines.errors[0]).toBe(`run r1: its 6 replay jobs could not be published (${REFUSED}) (the watchdog is off: tried until they go out); trying again in 20 ms, beside the other runs`);
    expect(lines.errors.filter((line) => line.includes("counted"))).toEqual([]);
    expect(await types(store, "r1")).toEqual(["RunStarted"]);
    expect(dispatcher.tracked("r1")).toMatchObject({ unpublished: true });
    expect(dispatcher.tracked("r1")?.startRefusals).toBeUndefined();
    stuck.delete("r1");
    await waitFor(() => replaysOf(bus, "r1") === 6);
    expect(await types(store, "r1")).toEqual(["RunStarted"]);
  });
});

// The review of the counted start refusals (startRetries.ts): what crashed the worker, what
// counted a run's own chunks, what was left behind or logged after a stop.
describe("a run whose start the bus keeps refusing, reviewed", () => {
  const STALL_MS = 60_000;
  let now = Date.parse("2026-12-01T12:00:00.000Z");
  const clock = { now: () => new Date(now) };
  const watchdog = { stallMs: STALL_MS };
  const types = async (store: EventStore, runId: string) => (await runEvents(store, runId)).map((e) => e.type);
  const counted = (k: number) => (line: string) => line.startsWith("run r1:") && line.includes(`counted as refusal ${k};`);
  const newLines = () => ({ info: [] as string[], errors: [] as string[] });
  const linesOf = (lines: { errors: string[] }, prefix: string) => lines.errors.filter((line) => line.startsWith(prefix));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function anotherRunGoesOut(store: EventStore, bus: FlakyBus, lines: { errors: string[] }, runId: string) {
    await seedRun(store, { runId });
    await waitFor(() => replaysOf(bus, runId) === 6);
    const seen = lines.errors.length;
    await waitFor(() => lines.errors.slice(seen).some((line) => line.startsWith("run r1:")));
  }

  function setUpOn(store: EventStore, checkpoints: MemoryCheckpointStore, bus: FlakyBus, lines: { info: string[]; errors: string[] }) {
    return dispatcherOn(store, bus, checkpoints, lines, { clock, watchdog });
  }

  /** A bus refusing the replay jobs of the runs in `stuck`, on a fresh store and checkpoints. */
  function setUp(stuck: Set<string>, checkpoints = new MemoryCheckpointStore()) {
    const store = createMemoryEventStore();
    const bus = partitionedBus(stuck);
    const lines = newLines();
    return { store, bus, lines, dispatcher: setUpOn(store, checkpoints, bus, lines) };
  }

  /** A store whose reads of run r1's stream throw while `down.r1` is set (the start was read already). */
  function storeDownFor(inner: EventStore, down: { r1: boolean }): EventStore {
    return new Proxy(inner, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop !== "readStream" || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
        return (...args: unknown[]) => (down.r1 && args[0] === runStream("r1") ? Promise.reject(new Error("store down")) : value.apply(target, args));
      },
    });
  }

  it("is failed once the store is back when it failed as the run was to be failed: logged, tried on, no unhandled rejection", async () => {
    // The store's error was an unhandled rejection (the worker process crashed), and the run's tries stopped.
    const unhandled: unknown[] = [];
    const onUnhandled = (error: unknown) => void unhandled.push(error);
    process.on("unhandledRejection", onUnhandled);
    try {
      const inner = createMemoryEventStore();
      const down = { r1: false };
      const bus = partitionedBus(new Set(["r1"]));
      const lines = newLines();
      const dispatcher = dispatcherOn(storeDownFor(inner, down), bus, new MemoryCheckpointStore(), lines, { clock, watchdog });
      await seedRun(inner, { runId: "r1" });
      await waitFor(() => lines.errors.length >= 1);
      for (const runId of ["r2", "r3"]) await anotherRunGoesOut(inner, bus, lines, runId);
      now += STALL_MS;
      down.r1 = true;
      await anotherRunGoesOut(inner, bus, lines, "r4");
      await waitFor(() => lines.info.includes("run r1: not failed by the watchdog (store down)"));
      const tries = bus.attempts;
      await waitFor(() => bus.attempts > tries + 1); // still tried
      expect(dispatcher.tracked("r1")).toMatchObject({ unpublished: true, startRefusals: 3 });
      down.r1 = false;
      await seedRun(inner, { runId: "r5" });
      await waitFor(() => runEnded(inner, "r1"));
      expect(await types(inner, "r1")).toEqual(["RunStarted", "RunFailed"]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("is tried on when the store fails as a new leader asks whether it ended, and goes out once it is back", async () => {
    const inner = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    const first = setUpOn(inner, checkpoints, partitionedBus(new Set(["r1"])), newLines());
    await seedRun(inner, { runId: "r1" });
    await waitFor(async () => ((await checkpoints.load("dispatcher"))?.state.runs as Record<string, { unpublished?: boolean }> | undefined)?.r1?.unpublished === true);
    await first.stop();
    const down = { r1: true };
    const bus = new FlakyBus();
    const lines = newLines();
    setUpOn(storeDownFor(inner, down), checkpoints, bus, lines);
    await waitFor(() => lines.errors.some((line) => line === "run r1: its start's try failed (store down); trying again in 20 ms"));
    down.r1 = false;
    await waitFor(() => replaysOf(bus, "r1") === 6);
  });


  it("keeps its count through a dispatcher restart: the next leader counts on and fails it", async () => {
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    const bus = partitionedBus(new Set(["r1"]));
    const lines = newLines();
    const first = setUpOn(store, checkpoints, bus, lines);
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 1);
    await anotherRunGoesOut(store, bus, lines, "r2");
    now += STALL_MS / 2;
    await anotherRunGoesOut(store, bus, lines, "r3");
    await waitFor(() => lines.errors.some(counted(2)));
    await first.stop();
    expect(((await checkpoints.load("dispatcher"))?.state.runs as Record<string, unknown>).r1).toMatchObject({ unpublished: true, startRefusals: 2 });

    const next = newLines();
    const leader = setUpOn(store, checkpoints, bus, next);
    await waitFor(() => next.errors.some((line) => line.startsWith("run r1:")));
    now += STALL_MS / 2;
    await seedRun(store, { runId: "r4" }); // its jobs go out, and r1's next try fails it
    await waitFor(() => runEnded(store, "r1"));
    expect(await types(store, "r1")).toEqual(["RunStarted", "RunFailed"]);
    expect(next.errors).toContainEqual(expect.stringMatching(/^run r1 failed by the watchdog: .* refused them 3 times in 1 min /));
    expect(leader.tracked("r1")).toBeUndefined();
  });

  it("starts its count over on progress on one of its pairs: 3 more counted refusals fail it, naming the jobs still to publish", async () => {
    const { store, bus, lines, dispatcher } = setUp(new Set(["r1"]));
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 1);
    for (const runId of ["r2", "r3", "r4"]) await anotherRunGoesOut(store, bus, lines, runId);
    await waitFor(() => lines.errors.some(counted(3)));
    // Pair 0 replayed and scored after all (an earlier term's job went out).
    const run = (await loadAggregate(store, runAggregate, runStream("r1"))).state;
    const deps = { clock, ids: testIds, context: { tenant: "acme", actor: "worker" }, decideContext: { run } };
    const pair = { run_id: "r1", scenario_key: "order_status", model_label: GPT.label };
    await handleCommand(store, resultAggregate, pairStream(run, pair.scenario_key, pair.model_label), { type: "RecordReplay", ...pair, replay: { answer: "an answer long enough to pass" } }, deps);
    await handleCommand(store, resultAggregate, pairStream(run, pair.scenario_key, pair.model_label), { type: "ScoreResult", ...pair, status: "passed", score: 1, scores: {}, pass: true }, deps);
    await waitFor(() => dispatcher.tracked("r1")?.scored === 1);
    expect(dispatcher.tracked("r1")?.startRefusals).toBeUndefined();
    const reset = lines.errors.length;
    now += STALL_MS * 2;
    for (const [k, runId] of [[1, "r5"], [2, "r6"]] as const) {
      await anotherRunGoesOut(store, bus, lines, runId);
      await waitFor(() => lines.errors.slice(reset).some(counted(k)));
      expect(await types(store, "r1")).toEqual(["RunStarted"]);
    }
    // The tries name the jobs they publish: the 5 pairs without a result.
    expect(lines.errors.slice(reset).find(counted(2))).toMatch(/^run r1: its 5 replay jobs could not be published /);
    now += STALL_MS;
    await seedRun(store, { runId: "r7" });
    await waitFor(() => runEnded(store, "r1"));
    const failed = (await runEvents(store, "r1")).find((e) => e.type === "RunFailed");
    expect(failed?.type === "RunFailed" && failed.data.message).toMatch(/^its 5 replay jobs could not be published: the job bus refused them 3 times in 1 min /);
  });

  it("does not count the chunks of its own jobs a try got out as the bus taking other jobs: alone, it is never failed", async () => {
    // 251 scenarios × 2 models: 502 jobs, published 500 at a time; the bus takes the first chunk and refuses the second.
    const { store, bus, lines, dispatcher } = setUp(new Set());
    bus.refuse = (topic, jobs) => topic === REPLAY_TOPIC && jobs.some((job) => (job.value as { n: number }).n >= 500);
    const scenarios = Array.from({ length: 251 }, (_, i) => ({ key: `s${i}`, prompt: `p${i}`, position: i }));
    await seedRun(store, { runId: "r1", scenarios });
    for (let round = 0; round < 4; round++) {
      now += STALL_MS;
      const seen = lines.errors.length;
      await waitFor(() => linesOf({ errors: lines.errors.slice(seen) }, "run r1:").length >= 2);
    }
    expect(lines.errors.filter((line) => line.includes("counted as refusal"))).toEqual([]);
    expect(await types(store, "r1")).toEqual(["RunStarted"]);
    expect(dispatcher.tracked("r1")).toMatchObject({ unpublished: true });
    expect(dispatcher.tracked("r1")?.startRefusals).toBeUndefined();
    // Another run's jobs going out still count.
    await seedRun(store, { runId: "r2" });
    await waitFor(() => lines.errors.some(counted(1)), 10_000);
  });

  it("leaves no try behind when it ends while a try is in flight", async () => {
    const { store, bus, lines, dispatcher } = setUp(new Set(["r1"]));
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 1);
    bus.hold();
    await waitFor(() => bus.held >= 1);
    await handleCommand(store, runAggregate, runStream("r1"), { type: "FailRun", run_id: "r1", message: "cancelled" }, { clock, ids: testIds, context: { tenant: "acme", actor: "test" } });
    await waitFor(() => dispatcher.tracked("r1") === undefined);
    bus.release();
    await sleep(100);
    // Private: nothing else shows an entry left behind, but it stayed for the rest of the term.
    expect((dispatcher as unknown as { starts: { pending: Map<string, unknown> } }).starts.pending.size).toBe(0);
  });

  it("is not tried by a new leader when it ended after the checkpoint was saved", async () => {
    const store = createMemoryEventStore();
    const checkpoints = new MemoryCheckpointStore();
    const first = setUpOn(store, checkpoints, partitionedBus(new Set(["r1"])), newLines());
    await seedRun(store, { runId: "r1" });
    await waitFor(async () => ((await checkpoints.load("dispatcher"))?.state.runs as Record<string, { unpublished?: boolean }> | undefined)?.r1?.unpublished === true);
    await first.stop();
    await handleCommand(store, runAggregate, runStream("r1"), { type: "FailRun", run_id: "r1", message: "cancelled" }, { clock, ids: testIds, context: { tenant: "acme", actor: "test" } });
    // The new leader reads the log late (a busy store): its first try comes before it reads the end.
    const late: EventStore = Object.create(store, {
      subscribeAll: {
        value: async function* (...args: Parameters<EventStore["subscribeAll"]>) {
          await sleep(100);
          yield* store.subscribeAll(...args);
        },
      },
    }) as EventStore;
    const bus = new FlakyBus();
    const leader = setUpOn(late, checkpoints, bus, newLines());
    await waitFor(() => leader.isLeading && leader.tracked("r1") === undefined);
    await sleep(100);
    expect(replaysOf(bus, "r1")).toBe(0);
  });

  it("says a try refused as the dispatcher stops is the next leader's, not that it tries again", async () => {
    const { store, bus, lines, dispatcher } = setUp(new Set(["r1"]));
    bus.hold();
    await seedRun(store, { runId: "r1" });
    await waitFor(() => bus.held >= 1); // its start, in the dispatch loop
    const stopping = dispatcher.stop();
    bus.release();
    await stopping;
    expect(linesOf(lines, "run r1:")).toEqual([`run r1: its 6 replay jobs could not be published (${REFUSED}); this dispatcher no longer leads: the next one tries them`]);
  });

  it("is waited for by a stopping dispatcher while a try is in flight, which then records nothing", async () => {
    const { store, bus, lines, dispatcher } = setUp(new Set(["r1"]));
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 1);
    bus.hold();
    await waitFor(() => bus.held >= 1); // a try beside the loop
    let stopped = false;
    const stopping = dispatcher.stop().then(() => (stopped = true));
    await sleep(100);
    expect(stopped).toBe(false);
    const seen = lines.errors.length;
    bus.release();
    await stopping;
    await sleep(50);
    expect(lines.errors.slice(seen)).toEqual([]);
  });

  it("counts from when the clock says now when it was set back: the first refusal is not left in the future", async () => {
    const { store, bus, lines } = setUp(new Set(["r1"]));
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 1);
    now += 10 * STALL_MS; // a clock ahead, then set right
    await anotherRunGoesOut(store, bus, lines, "r2");
    await waitFor(() => lines.errors.some(counted(1)));
    now -= 10 * STALL_MS;
    for (const runId of ["r3", "r4"]) await anotherRunGoesOut(store, bus, lines, runId);
    await waitFor(() => lines.errors.some(counted(3)));
    now += STALL_MS;
    await seedRun(store, { runId: "r5" });
    await waitFor(() => runEnded(store, "r1"));
  });

  it("writes no checkpoint for a try that counts nothing", async () => {
    const checkpoints = new MemoryCheckpointStore();
    const { store, bus, lines } = setUp(new Set(), checkpoints);
    bus.refuse = () => true;
    await seedRun(store, { runId: "r1" });
    await waitFor(() => linesOf(lines, "run r1:").length >= 2);
    await sleep(50);
    const saves = checkpoints.saves;
    const seen = linesOf(lines, "run r1:").length;
    await waitFor(() => linesOf(lines, "run r1:").length >= seen + 3);
    expect(checkpoints.saves).toBe(saves);
  });
});
