// The worker on real services: the PostgreSQL event store and checkpoints, Kafka consumer
// groups. Two worker processes' worth of roles (two buses, two checkpoint stores) run a 2-model
// run to completion; only one dispatcher leads. Needs PostgreSQL (bash infra/services/postgres.sh)
// and Kafka (bash infra/services/kafka.sh start; KAFKA_BROKERS, default 127.0.0.1:9092).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresEventStore } from "@verdict/infra/eventstore";
import { KafkaJobBus } from "@verdict/infra/jobbus";
import { ScriptedAgent } from "@verdict/infra/agents";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import type { AgentRuntime, EventStore } from "@verdict/domain";
import { PostgresCheckpointStore } from "./checkpoints/index.js";
import { startWorker, type RunningWorker } from "./startWorker.js";
import { silentLog } from "./workerLog.js";
import { AGENT_SCRIPT, pairEvents, runEnded, runEvents, seedRun, waitFor } from "./testing.js";
import { agentFile, brokers, spawnWorker, type WorkerChild } from "./testingProcess.js";


/** The run ends, each of its `pairs` replayed and scored once, and it completed with one verdict: nothing lost, nothing twice. */
async function expectCompletedOnce(store: EventStore, runId: string, pairs: number): Promise<void> {
  await waitFor(() => runEnded(store, runId), 120_000);
  for (let n = 0; n < pairs; n++) expect((await pairEvents(store, runId, n)).map((e) => e.type)).toEqual(["ReplayRecorded", "ResultScored"]);
  const types = (await runEvents(store, runId)).map((e) => e.type);
  expect(types.filter((t) => t === "RunCompleted")).toHaveLength(1);
  expect(types.filter((t) => t === "VerdictRecorded")).toHaveLength(1);
}
describe("worker on PostgreSQL and Kafka", () => {
  let db: TestDatabase;
  let store: EventStore;
  const closers: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    db = await createTestDatabase("verdict_worker");
    store = await createPostgresEventStore({ connectionString: db.url });
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await store?.close();
    await db?.drop();
  });

  /** One worker process's roles; on `on`, another database and its store, for a test no earlier worker may serve. */
  async function workerProcess(
    prefix: string,
    runtime: AgentRuntime = ScriptedAgent.fromYaml(AGENT_SCRIPT),
    on: { url: string; store: EventStore } = { url: db.url, store },
  ): Promise<{ worker: RunningWorker; checkpoints: PostgresCheckpointStore }> {
    const bus = new KafkaJobBus({ brokers, partitions: 3, clientId: `worker-int-${randomBytes(3).toString("hex")}` });
    const checkpoints = await PostgresCheckpointStore.create({ connectionString: on.url });
    const worker = await startWorker({
      store: on.store,
      bus,
      runtime,
      judge: null,
      checkpoints,
      topicPrefix: prefix,
      replayKey: "pair",
      concurrency: 2,
      log: silentLog,
    });
    closers.push(() => checkpoints.close(), () => bus.close(), () => worker.stop());
    return { worker, checkpoints };
  }

  it("runs a 2-model run to completion with one result per pair, one dispatcher leading", async () => {
    const prefix = `t${randomBytes(4).toString("hex")}.`;
    const a = await workerProcess(prefix);
    const b = await workerProcess(prefix);
    await waitFor(() => Boolean(a.worker.dispatcher?.isLeading || b.worker.dispatcher?.isLeading), 20_000);
    await seedRun(store, { runId: "int1" });
    await waitFor(() => runEnded(store, "int1"), 90_000);

    expect([a.worker.dispatcher?.isLeading, b.worker.dispatcher?.isLeading].filter(Boolean)).toHaveLength(1);
    for (let n = 0; n < 6; n++) expect((await pairEvents(store, "int1", n)).map((e) => e.type)).toEqual(["ReplayRecorded", "ResultScored"]);
    const events = await runEvents(store, "int1");
    expect(events.map((e) => e.type)).toEqual(["RunStarted", "RunCompletionRequested", "VerdictRecorded", "ComparisonRecorded", "RunCompleted"]);
    expect(events[4].data).toMatchObject({ scored: 6, passed: 3 });

    const leader = a.worker.dispatcher?.isLeading ? a : b;
    await waitFor(async () => ((await leader.checkpoints.load(`${prefix}dispatcher`))?.position ?? null) !== null);
  }, 120_000);

  it("scores an answer holding a NUL and an unpaired surrogate, recorded with U+FFFD in their place", async () => {
    // PostgreSQL stores neither; appended as they were, every append of the pair failed and was redelivered.
    const garbled: AgentRuntime = { name: "garbled", replay: async () => ({ answer: "Order\u0000 4821 shipped yesterday, arriving Friday \ud83d" }) };
    const own = await createTestDatabase("verdict_worker_nul");
    const ownStore = await createPostgresEventStore({ connectionString: own.url });
    closers.push(() => own.drop(), () => ownStore.close());
    const only = await workerProcess(`t${randomBytes(4).toString("hex")}.`, garbled, { url: own.url, store: ownStore });
    await waitFor(() => Boolean(only.worker.dispatcher?.isLeading), 20_000);
    await seedRun(ownStore, { runId: "nul1" });
    await waitFor(() => runEnded(ownStore, "nul1"), 60_000);
    const [replayed, scored] = await pairEvents(ownStore, "nul1", 0);
    expect((replayed.data as { replay: unknown }).replay).toMatchObject({ answer: "Order\ufffd 4821 shipped yesterday, arriving Friday \ufffd" });
    expect(scored.type).toBe("ResultScored");
    expect((await runEvents(ownStore, "nul1")).at(-1)).toMatchObject({ type: "RunCompleted", data: { scored: 6 } });
  }, 90_000);

  it("checkpoint leadership: a second process waits until the leader lets go", async () => {
    const first = await PostgresCheckpointStore.create({ connectionString: db.url });
    const second = await PostgresCheckpointStore.create({ connectionString: db.url });
    closers.push(() => first.close(), () => second.close());
    expect(await first.acquire("lead-test")).toBe(true);
    expect(await first.acquire("lead-test")).toBe(true);
    expect(await second.acquire("lead-test")).toBe(false);
    await first.save("lead-test", { position: { commit: 12n, prepare: 34n }, state: { runs: { r: { scored: 1 } } } });
    expect(await second.load("lead-test")).toEqual({ position: { commit: 12n, prepare: 34n }, state: { runs: { r: { scored: 1 } } } });
    await first.release("lead-test");
    expect(await second.acquire("lead-test")).toBe(true);
  });
});

describe("apps/worker/main.ts as a process", () => {
  it("starts from its environment, completes a run, and stops cleanly on SIGTERM", async () => {
    const db = await createTestDatabase("verdict_worker_main");
    const store = await createPostgresEventStore({ connectionString: db.url });
    const worker = spawnWorker({
      DATABASE_URL: db.url,
      VERDICT_AGENT: `scripted:${await agentFile(AGENT_SCRIPT)}`,
      VERDICT_TOPIC_PREFIX: `m${randomBytes(4).toString("hex")}.`,
    });
    try {
      await waitFor(() => worker.stderr().includes("started: dispatcher, replay, complete"), 30_000);
      await seedRun(store, { runId: "main1" });
      await waitFor(() => runEnded(store, "main1"), 90_000);
      expect((await runEvents(store, "main1")).at(-1)?.type).toBe("RunCompleted");
      worker.child.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
      expect(worker.stderr()).toContain("SIGTERM: stopping");
    } finally {
      worker.child.kill("SIGKILL");
      await store.close();
      await db.drop();
    }
  }, 150_000);

  it("a worker killed with SIGKILL mid-run: another finishes the run with exactly one result per pair", async () => {
    const db = await createTestDatabase("verdict_worker_kill");
    const store = await createPostgresEventStore({ connectionString: db.url });
    const env = {
      DATABASE_URL: db.url,
      VERDICT_AGENT: `scripted:${await agentFile('default: { answer: "Order 4821 ships on Friday; tracking attached.", latency_ms: 150 }')}`,
      VERDICT_TOPIC_PREFIX: `k${randomBytes(4).toString("hex")}.`,
    };
    const first = spawnWorker(env);
    let second: WorkerChild | null = null;
    const scenarios = Array.from({ length: 12 }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?`, position: i }));
    try {
      await waitFor(() => first.stderr().includes("started: dispatcher, replay, complete"), 30_000);
      await seedRun(store, { runId: "kill1", scenarios });
      const scoredCount = async () => (await store.readAll({ filter: { eventTypes: ["ResultScored"] } })).length;
      await waitFor(async () => (await scoredCount()) >= 4, 60_000);
      first.child.kill("SIGKILL");
      await first.exited;
      expect(await scoredCount()).toBeLessThan(24);
      second = spawnWorker(env);
      await expectCompletedOnce(store, "kill1", 24);
    } finally {
      first.child.kill("SIGKILL");
      second?.child.kill("SIGTERM");
      await second?.exited;
      await store.close();
      await db.drop();
    }
  }, 240_000);
  it("SIGTERM mid-run: jobs waiting for the agent leave at once, the running one at VERDICT_SHUTDOWN_GRACE_MS, and another worker finishes the run once", async () => {
    // Concurrency 1 takes 8 jobs into its batch: draining them all took 8 agent calls after SIGTERM
    // (unbounded), past any orchestrator's grace period.
    const db = await createTestDatabase("verdict_worker_term");
    const store = await createPostgresEventStore({ connectionString: db.url });
    const prefix = `g${randomBytes(4).toString("hex")}.`;
    const slowAgent = `scripted:${await agentFile('default: { answer: "Order 4821 ships on Friday; tracking attached.", latency_ms: 6000 }')}`;
    const first = spawnWorker({ DATABASE_URL: db.url, VERDICT_TOPIC_PREFIX: prefix, VERDICT_AGENT: slowAgent, VERDICT_WORKER_CONCURRENCY: "1", VERDICT_SHUTDOWN_GRACE_MS: "1500", VERDICT_LOG_DEBUG: "1" });
    let second: WorkerChild | null = null;
    const scenarios = Array.from({ length: 5 }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?`, position: i }));
    try {
      await waitFor(() => first.stderr().includes("started: dispatcher, replay, complete"), 30_000);
      await seedRun(store, { runId: "term1", scenarios });
      // The first pair scored: the next one's agent call has just begun, the rest of the batch waits for the slot.
      await waitFor(async () => (await store.readAll({ filter: { eventTypes: ["ResultScored"] } })).length >= 1, 60_000);
      const signalled = Date.now();
      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(1500 + 3000);
      expect(first.stderr()).toContain("shutdown: VERDICT_SHUTDOWN_GRACE_MS (1500 ms) passed with 1 job(s) still running: left to be delivered again");
      // The jobs that left their slot's queue are no failure to report (a failure is a debug line: VERDICT_LOG_DEBUG is on).
      expect(first.stderr()).not.toContain("job failed");
      second = spawnWorker({ DATABASE_URL: db.url, VERDICT_TOPIC_PREFIX: prefix, VERDICT_AGENT: `scripted:${await agentFile(AGENT_SCRIPT)}` });
      await expectCompletedOnce(store, "term1", 10);
    } finally {
      first.child.kill("SIGKILL");
      second?.child.kill("SIGTERM");
      await second?.exited;
      await store.close();
      await db.drop();
    }
  }, 240_000);
});
