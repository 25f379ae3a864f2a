// Messages on the worker's topics that are not jobs (JSON null, a number, a list): each is
// dropped once with a log line naming the rule, never redelivered, and the runs go on.
import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { ScriptedAgent } from "@verdict/infra/agents";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import { COMPLETE_TOPIC, REPLAY_TOPIC } from "./jobs.js";
import { startWorker } from "./startWorker.js";
import type { WorkerLog } from "./workerLog.js";
import { AGENT_SCRIPT, RecordingBus, runEnded, runEvents, seedRun, testClock, testIds, waitFor } from "./testing.js";

describe("poison messages on the job topics", () => {
  it("drops a job that is null, a number or a list once, naming the rule, and the run still completes", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    const errors: string[] = [];
    const log: WorkerLog = { info: () => undefined, error: (message) => void errors.push(message) };
    const worker = await startWorker({
      store, bus, runtime: ScriptedAgent.fromYaml(AGENT_SCRIPT), judge: null, checkpoints: new MemoryCheckpointStore(),
      clock: testClock, ids: testIds, log, concurrency: 1,
    });
    try {
      const poison = [null, 42, ["r1"]].map((value) => ({ key: "r1", value }));
      await bus.publish(REPLAY_TOPIC, poison);
      await bus.publish(COMPLETE_TOPIC, poison);
      await seedRun(store);
      await waitFor(() => runEnded(store, "r1"));
      expect((await runEvents(store, "r1")).at(-1)?.type).toBe("RunCompleted");
      // A redelivered poison job would log again (or throw before logging at all).
      await waitFor(() => errors.length >= 6);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(errors.sort()).toEqual([
        "dropped: verdict.complete job: (message): Invalid input: expected object, received array",
        "dropped: verdict.complete job: (message): Invalid input: expected object, received null",
        "dropped: verdict.complete job: (message): Invalid input: expected object, received number",
        "dropped: verdict.replay job: (message): Invalid input: expected object, received array",
        "dropped: verdict.replay job: (message): Invalid input: expected object, received null",
        "dropped: verdict.replay job: (message): Invalid input: expected object, received number",
      ]);
    } finally {
      await worker.stop();
    }
  });

  it("a job naming a huge scenario key is dropped with a log line of bounded length", async () => {
    const store = createMemoryEventStore();
    const bus = new RecordingBus();
    const errors: string[] = [];
    const log: WorkerLog = { info: () => undefined, error: (message) => void errors.push(message) };
    await seedRun(store, { runId: "r2" });
    const worker = await startWorker({ store, bus, runtime: ScriptedAgent.fromYaml(AGENT_SCRIPT), judge: null, roles: ["replay"], clock: testClock, ids: testIds, log });
    try {
      const huge = "k".repeat(1024 * 1024);
      await bus.publish(REPLAY_TOPIC, [{ key: "r2", value: { run_id: "r2", tenant: "acme", n: 0, scenario_key: huge, model_label: "gpt-5-mini" } }]);
      await waitFor(() => errors.length === 1);
      expect(errors[0]).toMatch(/^dropped: verdict\.replay job names pair 0 \(k{120}… \(1,048,576 chars\) × gpt-5-mini\), not in run r2's selection$/);
    } finally {
      await worker.stop();
    }
  });
});
