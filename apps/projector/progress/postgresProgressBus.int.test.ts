// The progress bus when PostgreSQL drops its sessions (a restart, pg_terminate_backend): the
// process carries on (an unhandled `error` from pg would fail this file), subscribers receive
// progress again once the LISTEN connection is back and are told that some may have been lost,
// and a first connect that failed is tried again by the next subscriber.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createTestDatabase, terminateSessions, testAdminUrl, type TestDatabase } from "../../../infra/services/testDatabase.js";
import { createPostgresProgressBus } from "./postgresProgressBus.js";
import type { ProgressBus, RunProgress } from "./progress.js";

let db: TestDatabase;
let admin: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase("verdict_progress_bus");
  admin = new pg.Client({ connectionString: testAdminUrl() });
  await admin.connect();
});

afterAll(async () => {
  await admin?.query(`ALTER DATABASE "${db.name}" ALLOW_CONNECTIONS true`).catch(() => undefined);
  await admin?.end();
  await db?.drop();
});

function progress(runId: string, completed: number): RunProgress {
  return { run_id: runId, tenant: "acme", status: "RUNNING", total: 10, completed, passed: completed, failed: 0, errored: 0, latest_result: null };
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Publishes `completed` until `seen` has it: a publish may meet a dead pooled connection, or
 * reach no one while the LISTEN connection is being made again. One that went through is given
 * 2 s to arrive before it is sent again, so a slow delivery is not counted twice.
 */
async function publishUntilSeen(bus: ProgressBus, seen: RunProgress[], runId: string, completed: number): Promise<void> {
  const arrived = () => seen.some((p) => p.completed === completed);
  await waitUntil(async () => {
    if (arrived()) return true;
    const published = await bus.publish(progress(runId, completed)).then(() => true, () => false);
    if (published) await waitUntil(arrived, 2_000).catch(() => undefined);
    return arrived();
  });
}

describe("the PostgreSQL progress bus when its sessions are terminated", () => {
  it("does not crash, reconnects its LISTEN connection, signals the gap and delivers again", async () => {
    const publisher = createPostgresProgressBus({ url: db.url, reconnectMs: 100 });
    const subscriber = createPostgresProgressBus({ url: db.url, reconnectMs: 100 });
    const seen: RunProgress[] = [];
    let gaps = 0;
    try {
      await subscriber.subscribe("r1", (p) => seen.push(p), () => (gaps += 1));
      await publishUntilSeen(publisher, seen, "r1", 1);
      expect(gaps).toBe(0);

      // The publisher's idle pooled connection and the subscriber's LISTEN connection both die.
      expect(await terminateSessions(db.name)).toBeGreaterThanOrEqual(2);
      await waitUntil(() => gaps === 1);
      await publishUntilSeen(publisher, seen, "r1", 2);
      expect(seen.map((p) => p.completed)).toEqual([1, 2]);
    } finally {
      await subscriber.close();
      await publisher.close();
    }
  }, 30_000);

  it("keeps retrying while the database refuses connections, and a failed first connect is not kept", async () => {
    const publisher = createPostgresProgressBus({ url: db.url, reconnectMs: 100 });
    const subscriber = createPostgresProgressBus({ url: db.url, reconnectMs: 100 });
    const late = createPostgresProgressBus({ url: db.url, reconnectMs: 100 });
    const seen: RunProgress[] = [];
    const lateSeen: RunProgress[] = [];
    let gaps = 0;
    try {
      await subscriber.subscribe("r2", (p) => seen.push(p), () => (gaps += 1));
      await admin.query(`ALTER DATABASE "${db.name}" ALLOW_CONNECTIONS false`);
      await terminateSessions(db.name);
      // Down for a while: several reconnects fail, and so does a new subscriber's first connect.
      await expect(late.subscribe("r2", (p) => lateSeen.push(p))).rejects.toThrow(/not currently accepting connections/);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(gaps).toBe(0);
      await admin.query(`ALTER DATABASE "${db.name}" ALLOW_CONNECTIONS true`);

      await waitUntil(() => gaps === 1);
      await late.subscribe("r2", (p) => lateSeen.push(p));
      await publishUntilSeen(publisher, seen, "r2", 3);
      await waitUntil(() => lateSeen.some((p) => p.completed === 3));
    } finally {
      await admin.query(`ALTER DATABASE "${db.name}" ALLOW_CONNECTIONS true`);
      await late.close();
      await subscriber.close();
      await publisher.close();
    }
  }, 30_000);
});
