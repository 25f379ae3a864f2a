// A run whose start cannot be published (replay jobs are keyed by run: its partition without a
// leader) held the dispatch loop, which retried that one event every second while every run
// behind it in the log waited: not dispatched, not counted, not completed (docs/review-history.md,
// "holds the dispatch loop"). Its start is now retried beside the loop, with backoff, and saved
// with the checkpoint until its jobs went out, so the runs after it go on and none is lost.
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import type { EventStore } from "@verdict/domain";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import { Dispatcher } from "./dispatcher.js";
import { REPLAY_TOPIC } from "./jobs.js";
import { startWorker, type RunningWorker } from "./startWorker.js";
import { FlakyBus, runEnded, runEvents, seedRun, testClock, testIds, testWorkerOptions, waitFor } from "./testing.js";

const REFUSED = "Connection error: connect ECONNREFUSED 127.0.0.1:9092";

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

function dispatcherOn(store: EventStore, bus: FlakyBus, checkpoints: MemoryCheckpointStore, lines: { info: string[]; errors: string[] }) {
  const log = { info: (line: string) => void lines.info.push(line), error: (line: string) => void lines.errors.push(line) };
  const dispatcher = new Dispatcher({ store, bus, checkpoints, clock: testClock, ids: testIds, log, startRetryMs: 20, startRetryMaxMs: 80, checkpointMs: 10 });
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
    await seedRun(store, { runId: "r1" });
    await seedRun(store, { runId: "r2" });
    await waitFor(() => replaysOf(bus, "r2") === 6);
    await waitFor(() => lines.errors.length >= 4);
    expect(lines.errors.slice(0, 4)).toEqual([
      `run r1: its 6 replay jobs could not be published (${REFUSED}); trying again in 20 ms, beside the other runs`,
      `run r1: its 6 replay jobs could not be published (${REFUSED}; try 2); trying again in 40 ms, beside the other runs`,
      `run r1: its 6 replay jobs could not be published (${REFUSED}; try 3); trying again in 80 ms, beside the other runs`,
      `run r1: its 6 replay jobs could not be published (${REFUSED}; try 4); trying again in 80 ms, beside the other runs`,
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

    const bus = new FlakyBus();
    const lines = { info: [] as string[], errors: [] as string[] };
    const next = dispatcherOn(store, bus, checkpoints, lines);
    await waitFor(() => replaysOf(bus, "r1") === 6);
    await waitFor(() => next.tracked("r1")?.unpublished === undefined);
    // r2's went out before: the new leader's restart re-drive publishes them again; r1's are its start's.
    expect((await runEvents(store, "r1")).map((e) => e.type)).toEqual(["RunStarted"]);
    expect(lines.info).toContain("run r1: 6 replay jobs published on try 1");
  });

  it("is not retried once it ended (failed or completed) while it waited", async () => {
    const store = createMemoryEventStore();
    const bus = partitionedBus(new Set(["r1"]));
    const lines = { info: [] as string[], errors: [] as string[] };
    const dispatcher = dispatcherOn(store, bus, new MemoryCheckpointStore(), lines);
    await seedRun(store, { runId: "r1" });
    await waitFor(() => lines.errors.length >= 2);
    const { handleCommand, runAggregate, runStream } = await import("@verdict/domain");
    await handleCommand(store, runAggregate, runStream("r1"), { type: "FailRun", run_id: "r1", message: "cancelled" }, { clock: testClock, ids: testIds, context: { tenant: "acme", actor: "test" } });
    await waitFor(() => dispatcher.tracked("r1") === undefined);
    bus.refuse = () => false;
    const attempts = bus.attempts;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(bus.attempts).toBe(attempts);
    expect(replaysOf(bus, "r1")).toBe(0);
  });
});
