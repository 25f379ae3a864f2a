// The dispatcher on real PostgreSQL (event store and checkpoints in one database, the in-memory
// job bus): when the server ends the session holding its leadership lock, it says so, stands by,
// leads again and keeps dispatching. Needs PostgreSQL (bash infra/services/postgres.sh).
import { beforeAll, expect, it } from "vitest";
import { createPostgresEventStore } from "@verdict/infra/eventstore";
import { DEFAULT_PG_SETTINGS } from "@verdict/infra/pg";
import { startTcpProxy } from "@verdict/infra/testing";
import type { EventStore } from "@verdict/domain";
import { createTestDatabase, terminateSessions, type TestDatabase } from "../../infra/services/testDatabase.js";
import { PostgresCheckpointStore } from "./checkpoints/index.js";
import { Dispatcher } from "./dispatcher.js";
import { REPLAY_TOPIC } from "./jobs.js";
import { RecordingBus, seedRun, testClock, testIds, waitFor } from "./testing.js";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase("verdict_dispatcher");
  store = await createPostgresEventStore({ connectionString: db.url });
  return async () => {
    await store.close();
    await db.drop();
  };
});

it("a leader whose session is terminated logs the loss, leads again, and dispatches a run started afterwards", async () => {
  const checkpoints = await PostgresCheckpointStore.create({ connectionString: db.url });
  const rival = await PostgresCheckpointStore.create({ connectionString: db.url });
  const bus = new RecordingBus();
  const errors: string[] = [];
  const log = { info: () => undefined, error: (message: string) => void errors.push(message) };
  const dispatcher = new Dispatcher({ store, bus, checkpoints, clock: testClock, ids: testIds, log, name: "lost-lead", standbyRetryMs: 100 });
  const replays = (runId: string) => (bus.published[REPLAY_TOPIC] ?? []).filter((job) => (job.value as { run_id: string }).run_id === runId);
  try {
    dispatcher.start();
    await waitFor(() => dispatcher.isLeading, 5_000);
    await seedRun(store, { runId: "before" });
    await waitFor(() => replays("before").length === 6, 5_000);

    // Before the fix: an unhandled `error` from the lease client (the process ends), and a
    // dispatcher that never noticed it no longer held the lock.
    // The sessions end one after another: the dispatcher may take the lead again on a session
    // not yet terminated and lose it a second time. Once they are all gone (and pg has seen their
    // sockets close), the lead it takes is for good.
    await terminateSessions(db.name);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await waitFor(() => errors.some((e) => e.includes("dispatcher lost-lead lost its leadership")), 5_000);
    await waitFor(() => dispatcher.isLeading, 5_000);
    expect(await rival.acquire("lost-lead")).toBe(false); // the lock is really held again

    await seedRun(store, { runId: "after" });
    await waitFor(() => replays("after").length === 6, 10_000);
  } finally {
    await dispatcher.stop();
    await checkpoints.close();
    await rival.close();
  }
  expect(dispatcher.isLeading).toBe(false);
}, 30_000);

it("a leader whose session a network starts black-holing logs the loss within its session check, and a standby leads", async () => {
  // Before the fix nothing noticed: no log, and the lock stayed with the unreachable session.
  const proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(db.url).port || 5432) });
  const viaProxy = new URL(db.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const settings = { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 1_000, keepAliveIdleMs: 2_000, sessionCheckMs: 200 };
  const checkpoints = await PostgresCheckpointStore.create({ connectionString: viaProxy.toString(), settings });
  const standbyCheckpoints = await PostgresCheckpointStore.create({ connectionString: db.url, settings });
  const bus = new RecordingBus();
  const errors: string[] = [];
  const log = { info: () => undefined, error: (message: string) => void errors.push(message) };
  const common = { store, bus, clock: testClock, ids: testIds, log, name: "hole-lead", standbyRetryMs: 100 };
  const dispatcher = new Dispatcher({ ...common, checkpoints });
  const standby = new Dispatcher({ ...common, checkpoints: standbyCheckpoints });
  try {
    dispatcher.start();
    await waitFor(() => dispatcher.isLeading, 5_000);
    standby.start();
    await standby.settled;
    expect(standby.isLeading).toBe(false);

    proxy.blackHole();
    const started = Date.now();
    await waitFor(() => errors.some((e) => e.includes("dispatcher hole-lead lost its leadership (the session did not answer its check")), 5_000);
    expect(Date.now() - started).toBeLessThan(2_500); // 4 x VERDICT_PG_SESSION_CHECK_MS (800 ms), with room for a loaded machine
    await waitFor(() => standby.isLeading, 5_000);
    expect(dispatcher.isLeading).toBe(false);
  } finally {
    // First: the cut-off leader's pool may have a query (a checkpoint save) in flight on a
    // black-holed connection, which waits for the query deadline (60 s by default; the test
    // below) and its stop() with it. Closing the proxy resets those connections, as the network
    // coming back would.
    await proxy.close();
    await dispatcher.stop();
    await standby.stop();
    await checkpoints.close();
    await standbyCheckpoints.close();
  }
}, 30_000);

it("a leader cut off by a network that black-holes stops within the query deadline: its checkpoint save fails, saying so", async () => {
  // Before, the save in flight on a black-holed connection waited for the OS's retransmission
  // limit (~15 min), and stop() with it (the test above closes its proxy first for that reason).
  const proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(db.url).port || 5432) });
  const viaProxy = new URL(db.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const settings = { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 1_000, sessionCheckMs: 60_000, queryTimeoutMs: 300 };
  const checkpoints = await PostgresCheckpointStore.create({ connectionString: viaProxy.toString(), settings });
  const errors: string[] = [];
  const dispatcher = new Dispatcher({ store, bus: new RecordingBus(), checkpoints, clock: testClock, ids: testIds, log: { info: () => undefined, error: (message: string) => void errors.push(message) }, name: "cut-off-stop" });
  try {
    dispatcher.start();
    await waitFor(() => dispatcher.isLeading, 5_000);
    await seedRun(store, { runId: "cut-off" }); // something to save
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.blackHole();
    const started = Date.now();
    const outcome = await Promise.race([
      dispatcher.stop().then(
        () => "stopped",
        (error: unknown) => `failed: ${(error as Error).message}`,
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve("still waiting"), 10_000)),
    ]);
    expect(outcome).toBe("stopped");
    // The save's deadline (600 ms), then the lock's release on its own session, which the query
    // deadline bounds too (its own, 60 s here, would have waited longer).
    expect(Date.now() - started).toBeLessThan(2 * 600 + 2_000);
    expect(errors.some((line) => /^dispatcher checkpoint not saved: PostgreSQL at 127\.0\.0\.1:\d+\/\S+ did not answer within 600 ms/.test(line))).toBe(true);
  } finally {
    await proxy.close();
    await checkpoints.close();
  }
}, 30_000);
