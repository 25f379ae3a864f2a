// The watchdog's re-drive count through outages of the bus and the store, as a review of real
// distributed runs found them: a re-drive that never reached the broker failed the run,
// overlapping rounds re-drove one stall several times, a start retried while the broker was down
// was re-driven (and its count started over) on each retry, and a completion job the bus
// refused counted its last pair twice.
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { ScriptedAgent } from "@verdict/infra/agents";
import type { EventStore } from "@verdict/domain";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import { COMPLETE_TOPIC, REPLAY_TOPIC } from "./jobs.js";
import { startWorker, type RunningWorker, type WorkerRole } from "./startWorker.js";
import { AGENT_SCRIPT, FlakyBus, runEvents, seedRun, testIds, waitFor } from "./testing.js";
import type { WatchdogSettings } from "./watchdog.js";

const STALL_MS = 60_000;
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
  worker = await startWorker({
    store,
    bus,
    runtime: ScriptedAgent.fromYaml(AGENT_SCRIPT),
    judge: null,
    checkpoints: new MemoryCheckpointStore(),
    clock,
    ids: testIds,
    log: { info: (line) => void info.push(line), error: (line) => void errors.push(line) },
    concurrency: 3,
    roles,
    watchdog,
  });
  return { info, errors, dispatcher: worker.dispatcher! };
}

const replays = (bus: FlakyBus) => bus.published[REPLAY_TOPIC]?.length ?? 0;
const types = async (store: EventStore) => (await runEvents(store, "r1")).map((e) => e.type);

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
    await waitFor(() => errors.some((line) => line.includes("resuming in 1 s")));
    expect(dispatcher.tracked("r1")).toBeUndefined();
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
});
