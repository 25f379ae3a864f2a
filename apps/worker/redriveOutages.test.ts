// The watchdog's re-drive count through outages of the bus and the store, as a review of real
// distributed runs found them: a re-drive that never reached the broker failed the run,
// overlapping rounds re-drove one stall several times, a start retried while the broker was down
// was re-driven (and its count started over) on each retry, and a completion job the bus
// refused counted its last pair twice; then, a run whose jobs alone the bus refused (its
// partition without a leader) kept every run after it from being re-driven, all of them RUNNING
// for ever, and stop() waited minutes for a round held up by a paused broker. Then a dispatcher
// whose clock was set back waited out the clock's error before re-driving a lost run.
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import type { EventStore } from "@verdict/domain";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import { Dispatcher } from "./dispatcher.js";
import { COMPLETE_TOPIC, REPLAY_TOPIC } from "./jobs.js";
import { startWorker, type RunningWorker, type WorkerRole } from "./startWorker.js";
import { FlakyBus, runEvents, seedRun, testIds, testWorkerOptions, waitFor } from "./testing.js";
import type { WatchdogSettings } from "./watchdog.js";

const STALL_MS = 60_000;
const HOUR = 3_600_000;
let now = Date.parse("2026-11-30T12:00:00.000Z");
const clock = { now: () => new Date(now) };

let worker: RunningWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

async function start(store: EventStore, bus: FlakyBus, roles: WorkerRole[], watchdog: WatchdogSettings = { stallMs: STALL_MS, maxRedrives: 2 }) {
  const info: string[] = [];
  const errors: string[] = [];
  worker = await startWorker(
    testWorkerOptions(store, bus, { clock, log: { info: (line: string) => void info.push(line), error: (line: string) => void errors.push(line) }, roles, watchdog }),
  );
  return { info, errors, dispatcher: worker.dispatcher! };
}

const replays = (bus: FlakyBus) => bus.published[REPLAY_TOPIC]?.length ?? 0;
const types = async (store: EventStore, runId = "r1") => (await runEvents(store, runId)).map((e) => e.type);
/** Until the dispatcher has read back every event of these runs (re-drives are counted from the log). */
const caughtUp = (store: EventStore, dispatcher: Dispatcher, runIds: string[]) =>
  waitFor(async () => dispatcher.handled === (await Promise.all(runIds.map((runId) => runEvents(store, runId)))).flat().length);
const failure = async (store: EventStore, runId: string) => {
  const failed = (await runEvents(store, runId)).find((e) => e.type === "RunFailed");
  return failed?.type === "RunFailed" ? failed.data.message : undefined;
};

describe("the watchdog's re-drives through outages", () => {
  it("a re-drive the broker refused does not count: a long outage fails no run, and says once that it cannot publish", async () => {
    // Broker stopped mid-run: each round appended RunRedriven, then failed to publish, and the
    // third failed the run "after 3 re-drives", its jobs sitting in Kafka all along.
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    const { info, errors, dispatcher } = await start(store, bus, ["dispatcher"]);
    await seedRun(store);
    await waitFor(() => replays(bus) === 6);
    bus.refuse = (topic) => topic === REPLAY_TOPIC;
    for (let round = 0; round < 5; round++) {
      now += STALL_MS;
      await dispatcher.sweep();
    }
    expect(await types(store)).toEqual(["RunStarted"]);
    // Said once: the worker's log shows an identical line at most every 30 s (RepeatLimiter).
    expect(errors).toEqual([
      "watchdog: cannot publish jobs, the job bus (broker) is unreachable (Connection error: connect ECONNREFUSED 127.0.0.1:9092): run r1 not re-driven, which does not count toward failing it; trying again in 30 s",
    ]);
    expect(dispatcher.tracked("r1")?.redrives).toBe(0);

    // The broker is back: re-drives count from the first one that went out.
    bus.refuse = () => false;
    for (let round = 1; round <= 3; round++) {
      now += STALL_MS;
      await dispatcher.sweep();
      if (round <= 2) await waitFor(() => dispatcher.tracked("r1")?.redrives === round);
    }
    expect(info.filter((line) => line.includes("published again by the watchdog"))).toEqual([
      "run r1: 6 replay jobs published again by the watchdog (no progress; re-drive 1) (0 already scored)",
      "run r1: 6 replay jobs published again by the watchdog (no progress; re-drive 2) (0 already scored)",
    ]);
    expect(await types(store)).toEqual(["RunStarted", "RunRedriven", "RunRedriven", "RunFailed"]);
    expect(replays(bus)).toBe(18);
  });

  it("rounds run one at a time: a round held up by the bus leaves the next ticks to pass, and one stall is re-driven once", async () => {
    // A store frozen for 65 s: the rounds started every tick piled up, and when it thawed four
    // RunRedriven landed for one run within half a second, each with its jobs published again.
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    // A stall of 40 ms: the watchdog's own timer ticks every 20 ms; its decisions follow `clock`.
    const { info, dispatcher } = await start(store, bus, ["dispatcher"], { stallMs: 40, maxRedrives: 3 });
    await seedRun(store);
    await waitFor(() => replays(bus) === 6);
    bus.hold();
    now += 1_000;
    await waitFor(() => bus.held === 1);
    await new Promise((resolve) => setTimeout(resolve, 200)); // ten ticks while the round is held
    expect(bus.held).toBe(1);
    bus.release();
    await waitFor(() => dispatcher.tracked("r1")?.redrives === 1);
    await new Promise((resolve) => setTimeout(resolve, 100)); // more ticks: re-driven, the run waits its stall time
    expect(await types(store)).toEqual(["RunStarted", "RunRedriven"]);
    expect(replays(bus)).toBe(12);
    expect(info.filter((line) => line.includes("published again by the watchdog"))).toHaveLength(1);
  });

  it("a run whose start is retried while the broker refuses its jobs is not the watchdog's until they went out", async () => {
    // Kafka down as a run started: each retry of the start replaced the tracked run (re-drives 0,
    // stall timed from the retry) while the watchdog re-drove it, every re-drive logged "re-drive 1".
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    bus.refuse = (topic) => topic === REPLAY_TOPIC;
    const { errors, dispatcher } = await start(store, bus, ["dispatcher"]);
    await seedRun(store);
    await waitFor(() => errors.some((line) => line.startsWith("run r1: its 6 replay jobs could not be published")));
    // Tracked as waiting for its start's jobs, which the dispatcher tries again beside its loop (stuckStart.test.ts).
    expect(dispatcher.tracked("r1")).toMatchObject({ unpublished: true, redrives: 0 });
    // The broker comes back between the start's tries, as the watchdog's round runs.
    bus.refuse = () => false;
    now += STALL_MS;
    await dispatcher.sweep();
    await waitFor(() => replays(bus) >= 6);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(replays(bus)).toBe(6); // the start's jobs, once: the watchdog had nothing to re-drive
    expect(await types(store)).toEqual(["RunStarted"]);
    expect(dispatcher.tracked("r1")).toMatchObject({ redrives: 0, lastProgressAt: now }); // timed from when its jobs went out
    expect(errors.filter((line) => line.startsWith("watchdog"))).toEqual([]);
  });

  it("a completion job the bus refused once counts the run's last pair once", async () => {
    // publishCompletion threw after RunCompletionRequested was appended: the retry counted the
    // last ResultScored again (scored 7 of 6).
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    let refusals = 1;
    bus.refuse = (topic) => topic === COMPLETE_TOPIC && refusals-- > 0;
    const { errors, dispatcher } = await start(store, bus, ["dispatcher", "replay"]);
    await seedRun(store);
    await waitFor(() => (bus.published[COMPLETE_TOPIC]?.length ?? 0) === 1);
    expect(errors).toEqual([expect.stringContaining("dispatcher: Connection error: connect ECONNREFUSED 127.0.0.1:9092; resuming in 1 s")]);
    expect(dispatcher.tracked("r1")).toMatchObject({ scored: 6, total: 6, requested: true });
    expect((await types(store)).filter((type) => type === "RunCompletionRequested")).toHaveLength(1);
  });

  it("a run whose jobs alone the bus refuses is failed after as many stall periods as a re-driven one, saying so; the runs after it are re-driven", async () => {
    // Replay jobs are keyed by run: a partition with no leader (a dead broker, replication factor
    // 1) refused r1's every time. r1 was tried first each round, its failure skipped r2, and a
    // refused re-drive counted nothing: after 10 stall periods both were still RUNNING, logged as
    // "the job bus (broker) is unreachable".
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    const { errors, dispatcher } = await start(store, bus, ["dispatcher"]);
    await seedRun(store, { runId: "r1" });
    await seedRun(store, { runId: "r2" });
    await waitFor(() => replays(bus) === 12);
    bus.refuse = (topic, jobs) => topic === REPLAY_TOPIC && jobs.some((job) => job.key === "r1");
    for (let round = 0; round < 10; round++) {
      now += STALL_MS;
      await dispatcher.sweep();
      await caughtUp(store, dispatcher, ["r1", "r2"]);
    }
    // r2 as any stalled run: re-driven twice (maxRedrives), then failed.
    expect(await types(store, "r2")).toEqual(["RunStarted", "RunRedriven", "RunRedriven", "RunFailed"]);
    expect(await failure(store, "r2")).toContain("no result for 6 of 6 pairs");
    // r1 in as many stall periods, with what kept its jobs from the bus.
    expect(await types(store, "r1")).toEqual(["RunStarted", "RunFailed"]);
    expect(await failure(store, "r1")).toBe(
      "its 6 replay jobs could not be published: the job bus refused them 2 times, 1 min apart, while it took other jobs (the partition they go to may have no leader); last error: Connection error: connect ECONNREFUSED 127.0.0.1:9092",
    );
    expect(replays(bus)).toBe(24);
    expect(errors.filter((line) => line.includes("unreachable"))).toEqual([]);
    expect(errors.filter((line) => line.includes("run r1"))).toEqual([
      "watchdog: the job bus refused the jobs of run r1 while it took other jobs (Connection error: connect ECONNREFUSED 127.0.0.1:9092): counted as re-drive 1 of 2 without progress; trying again in 60 s",
      "watchdog: the job bus refused the jobs of run r1 while it took other jobs (Connection error: connect ECONNREFUSED 127.0.0.1:9092): counted as re-drive 2 of 2 without progress; trying again in 60 s",
      expect.stringContaining("run r1 failed by the watchdog: its 6 replay jobs could not be published"),
    ]);
  });

  it("a run alone whose re-drive the bus refuses part way is not counted: its own chunks that went out are no sign the bus is up", async () => {
    // 251 scenarios x 2 models: 502 jobs in chunks of 500. The bus took the first chunk and refused
    // the second; the round counted that chunk as other jobs taken, and failed the run, alone,
    // "while it took other jobs".
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    const { errors, dispatcher } = await start(store, bus, ["dispatcher"]);
    await seedRun(store, { scenarios: Array.from({ length: 251 }, (_, i) => ({ key: `s${i}`, prompt: `p${i}`, position: i })) });
    await waitFor(() => replays(bus) === 502);
    bus.refuse = (topic, jobs) => topic === REPLAY_TOPIC && jobs.some((job) => (job.value as { n: number }).n >= 500);
    for (let round = 0; round < 5; round++) {
      now += STALL_MS;
      await dispatcher.sweep();
    }
    expect(await types(store)).toEqual(["RunStarted"]);
    expect(dispatcher.tracked("r1")).toMatchObject({ redrives: 0 });
    expect(errors.filter((line) => line.includes("while it took other jobs"))).toEqual([]);
    expect(errors.at(-1)).toContain("the job bus (broker) is unreachable");
  });

  it("an outage of the whole bus still fails no run, however many are stalled", async () => {
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    const { errors, dispatcher } = await start(store, bus, ["dispatcher"]);
    await seedRun(store, { runId: "r1" });
    await seedRun(store, { runId: "r2" });
    await waitFor(() => replays(bus) === 12);
    bus.refuse = () => true;
    for (let round = 0; round < 10; round++) {
      now += STALL_MS;
      await dispatcher.sweep();
    }
    expect(await types(store, "r1")).toEqual(["RunStarted"]);
    expect(await types(store, "r2")).toEqual(["RunStarted"]);
    expect(dispatcher.tracked("r1")).toMatchObject({ redrives: 0 });
    expect(dispatcher.tracked("r2")).toMatchObject({ redrives: 0 });
    expect(bus.attempts).toBe(2 + 10 * 2); // the starts', then both runs tried every round
    expect(errors).toEqual([
      "watchdog: cannot publish jobs, the job bus (broker) is unreachable (Connection error: connect ECONNREFUSED 127.0.0.1:9092): runs r1, r2 not re-driven, which does not count toward failing them; trying again in 30 s",
    ]);
  });

  it("stop() waits for a round held up by the bus only so long, and the round records nothing after it", async () => {
    // A paused broker held the round (kafkajs retries, a 30 s request timeout) and stop() with
    // it, past a SIGTERM's grace period.
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    const info: string[] = [];
    const log = { info: (line: string) => void info.push(line), error: () => undefined };
    const watchdog = { stallMs: STALL_MS, maxRedrives: 2 };
    const dispatcher = new Dispatcher({ store, bus, checkpoints: new MemoryCheckpointStore(), clock, ids: testIds, log, watchdog, stopWaitMs: 200 });
    dispatcher.start();
    await dispatcher.settled;
    await seedRun(store);
    await waitFor(() => replays(bus) === 6);
    bus.hold();
    now += STALL_MS;
    const round = dispatcher.sweep();
    await waitFor(() => bus.held === 1);
    try {
      const began = Date.now();
      const stopped = await Promise.race([dispatcher.stop().then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 2_000))]);
      expect(stopped).toBe(true);
      expect(Date.now() - began).toBeLessThan(1_000);
    } finally {
      bus.release();
    }
    await round;
    expect(replays(bus)).toBe(12); // the held jobs went out once released ...
    expect(await types(store)).toEqual(["RunStarted"]); // ... and the stopped dispatcher recorded nothing
    expect(info).toContain("dispatcher: stopped without its watchdog round, still waiting on the job bus or the store after 200 ms; it records nothing more");
    expect(info).toContain("run r1: 6 replay jobs published again, not recorded as a re-drive: this dispatcher no longer leads");
  });

  it("times a stall recorded in its future from when it sees it: a clock set back an hour re-drives a stall time later, not an hour", async () => {
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    const { dispatcher } = await start(store, bus, ["dispatcher"]);
    now += HOUR; // the jobs go out by a clock an hour ahead...
    await seedRun(store);
    await waitFor(() => replays(bus) === 6);
    now -= HOUR; // ...which is then set right
    await dispatcher.sweep(); // first seen: the stall is timed from now
    now += STALL_MS;
    await dispatcher.sweep();
    await waitFor(() => dispatcher.tracked("r1")?.redrives === 1);
    expect(replays(bus)).toBe(12);
  });
});
