// The dispatcher's leadership terms, with a checkpoint store that loses the lead on demand (as
// the PostgreSQL one does when the server ends its session; dispatcher.int.test.ts does it for
// real): it stands by, leads again, and stop() works in every state, releasing at most once.
import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import { Dispatcher } from "./dispatcher.js";
import { REPLAY_TOPIC } from "./jobs.js";
import { FlakyBus, RecordingBus, runEvents, seedRun, testClock, testIds, waitFor } from "./testing.js";

/** Leadership that `lose()` takes away, and that another process holds while `taken`. */
class LosingCheckpoints extends MemoryCheckpointStore {
  taken = false;
  releases = 0;
  private onLost: ((error: Error) => void) | null = null;

  override async acquire(name: string, onLost?: (error: Error) => void): Promise<boolean> {
    if (this.taken || !(await super.acquire(name))) return false;
    this.onLost = onLost ?? null;
    return true;
  }

  override async release(name: string): Promise<void> {
    this.releases += 1;
    await super.release(name);
  }

  async lose(name: string): Promise<void> {
    const onLost = this.onLost;
    this.onLost = null;
    await super.release(name); // the lease is gone, not released by the dispatcher
    onLost?.(new Error("session ended"));
  }
}

function setUp() {
  const store = createMemoryEventStore();
  const bus = new RecordingBus();
  const checkpoints = new LosingCheckpoints();
  const errors: string[] = [];
  const log = { info: () => undefined, error: (message: string) => void errors.push(message) };
  const dispatcher = new Dispatcher({ store, bus, checkpoints, clock: testClock, ids: testIds, log, standbyRetryMs: 20 });
  const replays = (runId: string) => (bus.published[REPLAY_TOPIC] ?? []).filter((job) => (job.value as { run_id: string }).run_id === runId);
  return { store, checkpoints, errors, dispatcher, replays };
}

describe("dispatcher leadership", () => {
  it("a lost lead is logged, taken again, and dispatching goes on; stop() releases once", async () => {
    const { store, checkpoints, errors, dispatcher, replays } = setUp();
    dispatcher.start();
    await waitFor(() => dispatcher.isLeading);
    await checkpoints.lose("dispatcher");
    expect(dispatcher.isLeading).toBe(false);
    expect(errors).toEqual([expect.stringContaining("dispatcher dispatcher lost its leadership (session ended)")]);
    await waitFor(() => dispatcher.isLeading);
    await seedRun(store, { runId: "after" });
    await waitFor(() => replays("after").length === 6);
    await dispatcher.stop();
    expect(checkpoints.releases).toBe(1);
    expect(dispatcher.isLeading).toBe(false);
  });

  it("a store closed under it is an error said once a second, not a loop that holds the thread", async () => {
    const { store, errors, dispatcher } = setUp();
    dispatcher.start();
    await waitFor(() => dispatcher.isLeading);
    await store.close(); // its subscriptions end at once, and so did every new one
    // A timer still fires: subscribing again at once was a chain of promises the thread never left.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual(["dispatcher: the event store ended its subscription (was it closed?); resuming in 1 s"]);
    await dispatcher.stop();
  });

  it("stop() while standing by after a loss returns and releases nothing", async () => {
    const { checkpoints, dispatcher } = setUp();
    dispatcher.start();
    await waitFor(() => dispatcher.isLeading);
    checkpoints.taken = true; // another process leads now
    await checkpoints.lose("dispatcher");
    await new Promise((resolve) => setTimeout(resolve, 60)); // a few standby rounds
    expect(dispatcher.isLeading).toBe(false);
    await dispatcher.stop();
    expect(checkpoints.releases).toBe(0);
  });

  it("a watchdog round in flight when the lead is lost records nothing more", async () => {
    // A round held up (a frozen store) recorded its re-drive after the "lost its leadership" line,
    // when another process already led.
    const store = createMemoryEventStore();
    const bus = new FlakyBus();
    const checkpoints = new LosingCheckpoints();
    const errors: string[] = [];
    let now = testClock.now().getTime();
    const log = { info: () => undefined, error: (message: string) => void errors.push(message) };
    const dispatcher = new Dispatcher({ store, bus, checkpoints, clock: { now: () => new Date(now) }, ids: testIds, log, standbyRetryMs: 20, watchdog: { stallMs: 60_000 } });
    dispatcher.start();
    await waitFor(() => dispatcher.isLeading);
    await seedRun(store);
    await waitFor(() => bus.published[REPLAY_TOPIC]?.length === 6);
    bus.hold();
    now += 60_000;
    const round = dispatcher.sweep();
    await waitFor(() => bus.held === 1);
    checkpoints.taken = true; // another process leads now
    await checkpoints.lose("dispatcher");
    bus.release();
    await round;
    expect(errors).toEqual([expect.stringContaining("lost its leadership")]);
    expect((await runEvents(store, "r1")).map((e) => e.type)).toEqual(["RunStarted"]);
    await dispatcher.stop();
  });
});
