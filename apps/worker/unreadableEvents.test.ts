// One event the dispatcher cannot read (appended raw, bypassing every command) is passed over:
// its run is failed with the reason, the log line names where it is, and other runs dispatch.
import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { resultStream } from "@verdict/domain";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import { Dispatcher } from "./dispatcher.js";
import { REPLAY_TOPIC } from "./jobs.js";
import { RecordingBus, runEvents, seedRun, testClock, testIds, waitFor } from "./testing.js";

function setUp() {
  const store = createMemoryEventStore();
  const bus = new RecordingBus();
  const errors: string[] = [];
  const log = { info: () => undefined, error: (message: string) => void errors.push(message) };
  const dispatcher = new Dispatcher({ store, bus, checkpoints: new MemoryCheckpointStore(), clock: testClock, ids: testIds, log });
  const replays = (runId: string) => (bus.published[REPLAY_TOPIC] ?? []).filter((job) => (job.value as { run_id: string }).run_id === runId);
  return { store, errors, dispatcher, replays };
}

describe("dispatcher and an unreadable event", () => {
  it("fails the event's run naming stream and position, and keeps dispatching other runs", async () => {
    const { store, errors, dispatcher, replays } = setUp();
    await seedRun(store, { runId: "ext", external: true });
    const garbage = { id: "6f1c2d3e-4b5a-4c6d-8e7f-901234567890", type: "ReplayRecorded", schemaVersion: 1, data: { run_id: "ext", replay: "not a replay" }, metadata: { tenant: "acme" } };
    await store.append(resultStream("ext", 0), [garbage], { expectedVersion: "noStream" });
    await seedRun(store, { runId: "after" });
    dispatcher.start();
    try {
      await waitFor(() => replays("after").length === 6);
      const line = errors.find((e) => e.includes("unreadable"));
      expect(line).toMatch(/passed over unreadable ReplayRecorded in stream result-ext\.0 at version 0 \(log position \d+\/\d+\): event ReplayRecorded v1 is invalid/);
      const last = (await runEvents(store, "ext")).at(-1);
      expect(last).toMatchObject({ type: "RunFailed", data: { message: expect.stringContaining("ReplayRecorded in stream result-ext.0") } });
      expect(dispatcher.tracked("ext")).toBeUndefined();
      expect(errors.filter((e) => e.includes("resuming"))).toEqual([]);
    } finally {
      await dispatcher.stop();
    }
  });
});
