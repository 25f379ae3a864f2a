// Bytes on verdict.replay that are not a JSON job (garbage, an empty message), written to the
// partition of a run ahead of its jobs, on a real broker: each bus hands them to the worker,
// which drops them with a log line naming the rule, and the run behind them completes.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresEventStore } from "@verdict/infra/eventstore";
import { KafkaJobBus, decodeMessage } from "@verdict/infra/jobbus";
import { ScriptedAgent } from "@verdict/infra/agents";
import { loadKafkajs } from "@verdict/infra/lazy";
import type { EventStore, JobBus } from "@verdict/domain";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { MemoryCheckpointStore } from "./checkpoints/index.js";
import { jobNames } from "./jobs.js";
import { KafkaBatchJobBus } from "./kafkaBatchBus.js";
import { startWorker } from "./startWorker.js";
import type { WorkerLog } from "./workerLog.js";
import { AGENT_SCRIPT, runEnded, runEvents, seedRun, waitFor } from "./testing.js";

const brokers = (process.env.KAFKA_BROKERS || "127.0.0.1:9092").split(",").map((b) => b.trim());

describe("decodeMessage", () => {
  it("parses JSON and says what is wrong with anything else, without echoing its bytes", () => {
    expect(decodeMessage(Buffer.from('{"run_id":"r1"}'))).toEqual({ run_id: "r1" });
    expect(decodeMessage(Buffer.from("null"))).toBeNull();
    expect(decodeMessage(Buffer.from("password=hunter2"))).toEqual({ reason: "not JSON (16 bytes)" });
    expect(decodeMessage(null)).toEqual({ reason: "empty message" });
    expect(decodeMessage(Buffer.alloc(0))).toEqual({ reason: "empty message" });
  });
});

describe.each([
  ["KafkaBatchJobBus (the worker's)", (clientId: string): JobBus => new KafkaBatchJobBus({ brokers, partitions: 3, clientId })],
  ["KafkaJobBus", (clientId: string): JobBus => new KafkaJobBus({ brokers, partitions: 3, clientId })],
])("poison bytes on verdict.replay through %s", (_name, makeBus) => {
  let db: TestDatabase;
  let store: EventStore;

  beforeAll(async () => {
    db = await createTestDatabase("verdict_worker_poison");
    store = await createPostgresEventStore({ connectionString: db.url });
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it("drops garbage and empty messages, and the run keyed to the same partition completes", async () => {
    const prefix = `p${randomBytes(4).toString("hex")}.`;
    const names = jobNames(prefix);
    const bus = makeBus(`poison-${prefix}`);
    const errors: string[] = [];
    const log: WorkerLog = { info: () => undefined, error: (message) => void errors.push(message) };
    const worker = await startWorker({
      store, bus, runtime: ScriptedAgent.fromYaml(AGENT_SCRIPT), judge: null, checkpoints: new MemoryCheckpointStore(),
      topicPrefix: prefix, log, concurrency: 2,
    });
    const { Kafka, logLevel } = loadKafkajs();
    const producer = new Kafka({ clientId: `poison-producer-${prefix}`, brokers, logLevel: logLevel.NOTHING }).producer();
    try {
      await producer.connect();
      // Keyed by the run id, as the dispatcher keys its jobs: the same partition, ahead of them.
      await producer.send({ topic: names.replayTopic, messages: [{ key: "poison1", value: "password=hunter2 {" }, { key: "poison1", value: null }, { key: "poison1", value: "" }] });
      await seedRun(store, { runId: "poison1" });
      await waitFor(() => runEnded(store, "poison1"), 60_000);
      expect((await runEvents(store, "poison1")).at(-1)?.type).toBe("RunCompleted");
      expect(errors.filter((e) => e.startsWith("dropped:")).sort()).toEqual([
        "dropped: verdict.replay job: (message): empty message",
        "dropped: verdict.replay job: (message): empty message",
        "dropped: verdict.replay job: (message): not JSON (18 bytes)",
      ]);
      expect(errors.join("\n")).not.toContain("hunter2");
    } finally {
      await producer.disconnect();
      await worker.stop();
      await bus.close();
    }
  }, 90_000);
});
