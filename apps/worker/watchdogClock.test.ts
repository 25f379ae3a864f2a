// The watchdog times a stall from events' recorded times, which another process's clock (or this
// machine's, before it was set back) may have put in the future: a run started by a worker whose
// clock ran an hour ahead was not re-driven for that hour and more.
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { REPLAY_TOPIC } from "./jobs.js";
import { startWorker, type RunningWorker } from "./startWorker.js";
import { FlakyBus, runEvents, seedRun, testWorkerOptions, waitFor } from "./testing.js";

const STALL_MS = 60_000;
const HOUR = 3_600_000;
let now = Date.parse("2026-11-30T12:00:00.000Z");
const clock = { now: () => new Date(now) };

let worker: RunningWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

describe("the watchdog and a clock set back", () => {
  it("times a stall recorded in its future from when it saw it: the run is re-driven a stall time later, not an hour", async () => {
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    worker = await startWorker(testWorkerOptions(store, bus, { clock, roles: ["dispatcher"], watchdog: { stallMs: STALL_MS, maxRedrives: 2 } }));
    const dispatcher = worker.dispatcher!;
    now += HOUR; // the start is recorded by a clock an hour ahead...
    await seedRun(store);
    await waitFor(() => (bus.published[REPLAY_TOPIC]?.length ?? 0) === 6);
    now -= HOUR; // ...and the dispatcher's clock reads the real time
    await dispatcher.sweep(); // first seen: the stall is timed from now
    now += STALL_MS;
    await dispatcher.sweep();
    await waitFor(async () => (await runEvents(store, "r1")).some((e) => e.type === "RunRedriven"));
    expect(bus.published[REPLAY_TOPIC]).toHaveLength(12);
  });
});
