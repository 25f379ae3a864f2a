// Real PostgreSQL: worker processes that start together on a fresh database must not race on
// creating the checkpoint table, and a leader whose session the server ends is told, not killed.
import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { DEFAULT_PG_SETTINGS, serverKeepaliveStatements } from "@verdict/infra/pg";
import { startTcpProxy } from "@verdict/infra/testing";
import { createTestDatabase, terminateSessions } from "../../../infra/services/testDatabase.js";
import { waitFor } from "../testing.js";
import { PostgresCheckpointStore } from "./postgresCheckpointStore.js";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

it("eight stores created at once on a fresh database all start and share one table", async () => {
  const stores = await Promise.all(Array.from({ length: 8 }, () => PostgresCheckpointStore.create({ connectionString: database.url })));
  await stores[0].save("dispatcher", { position: null, state: { runs: 1 } });
  for (const store of stores) expect((await store.load("dispatcher"))?.state).toEqual({ runs: 1 });
  await Promise.all(stores.map((store) => store.close()));
});

it("a leader whose session is terminated is told once through onLost, the process carries on, and it can lead again", async () => {
  // Before the fix the leased client had no `error` listener: the termination was an unhandled
  // error that ends the process (and fails this run).
  const leader = await PostgresCheckpointStore.create({ connectionString: database.url });
  const standby = await PostgresCheckpointStore.create({ connectionString: database.url });
  try {
    const onLost = vi.fn();
    expect(await leader.acquire("lost-test", onLost)).toBe(true);
    expect(await standby.acquire("lost-test")).toBe(false);

    expect(await terminateSessions(database.name)).toBeGreaterThanOrEqual(1);
    await waitFor(() => onLost.mock.calls.length > 0, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the client's `end` follows its `error`
    expect(onLost).toHaveBeenCalledTimes(1);
    expect(onLost.mock.calls[0][0]).toBeInstanceOf(Error);

    // The lease went with the session: acquiring opens a new one, and holds the lock again.
    const again = vi.fn();
    expect(await leader.acquire("lost-test", again)).toBe(true);
    expect(await standby.acquire("lost-test")).toBe(false);
    await leader.release("lost-test");
    expect(await standby.acquire("lost-test")).toBe(true);
    expect(again).not.toHaveBeenCalled(); // a release is not a loss
  } finally {
    await leader.close();
    await standby.close();
  }
});

// A network that black-holes the leader's session (no reset, no answer): before, nothing noticed,
// and the server kept the session and its lock until the OS's keepalive (hours).
const quick = { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 1_000, keepAliveIdleMs: 2_000, sessionCheckMs: 200 };

it("a leader whose session a network starts black-holing is told through onLost within its check, and a standby then leads", async () => {
  const proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(database.url).port || 5432) });
  const viaProxy = new URL(database.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const leader = await PostgresCheckpointStore.create({ connectionString: viaProxy.toString(), settings: quick });
  const standby = await PostgresCheckpointStore.create({ connectionString: database.url, settings: quick });
  try {
    const onLost = vi.fn();
    expect(await leader.acquire("hole-test", onLost)).toBe(true);
    expect(await standby.acquire("hole-test")).toBe(false);

    proxy.blackHole();
    const started = Date.now();
    await waitFor(() => onLost.mock.calls.length > 0, 5_000);
    // The next check within 200 ms, its deadline 3 x 200 ms: 800 ms, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(2_500);
    expect((onLost.mock.calls[0][0] as Error).message).toMatch(/did not answer its check \(no answer within 600 ms: 3 x VERDICT_PG_SESSION_CHECK_MS\)/);
    // The leader destroyed its socket: here the proxy passes the close on, as the server's own
    // keepalive would end the session across a real partition. The lock is free for the standby.
    await waitFor(() => standby.acquire("hole-test"), 3_000);
    expect(onLost).toHaveBeenCalledTimes(1);
  } finally {
    await leader.close();
    await standby.close();
    await proxy.close();
  }
});

it("a standby whose idle pooled connection a network black-holes is told within the deadline, not stuck for as long as the OS allows", async () => {
  // Found re-running a database hang: the standby's acquire took an idle pooled connection (no
  // connect timeout applies) and its queries waited with no deadline, silently, for the whole hang.
  const proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(database.url).port || 5432) });
  const viaProxy = new URL(database.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const holder = await PostgresCheckpointStore.create({ connectionString: database.url, settings: quick });
  const standby = await PostgresCheckpointStore.create({ connectionString: viaProxy.toString(), settings: quick });
  try {
    expect(await holder.acquire("standby-hole")).toBe(true);
    expect(await standby.acquire("standby-hole")).toBe(false); // its connection now idles in the pool
    proxy.blackHole();
    const started = Date.now();
    const attempt = await standby.acquire("standby-hole").then(
      () => "answered",
      (error: Error) => error.message,
    );
    expect(attempt).toBe("taking the leadership lock: the session did not answer within 600 ms (3 x VERDICT_PG_SESSION_CHECK_MS)");
    expect(Date.now() - started).toBeLessThan(2_500);
  } finally {
    await holder.close();
    await standby.close();
    await proxy.close();
  }
});

it("the session that takes the lock asks the server for TCP keepalives, so the server ends it across a partition", async () => {
  // One connection: the session acquire used (refused the lock, given back) is the one asked.
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  const holder = await PostgresCheckpointStore.create({ connectionString: database.url, settings: quick });
  const store = await PostgresCheckpointStore.create({ pool, settings: quick });
  try {
    expect(await holder.acquire("keepalive-test")).toBe(true);
    expect(await store.acquire("keepalive-test")).toBe(false);
    const { rows } = await pool.query("SELECT current_setting('tcp_keepalives_idle') AS idle, current_setting('tcp_keepalives_interval') AS every, current_setting('tcp_keepalives_count') AS count, current_setting('tcp_user_timeout') AS user_timeout");
    expect(rows[0]).toEqual({ idle: "2", every: "2", count: "3", user_timeout: "8000" });
  } finally {
    await store.close();
    await holder.close();
    await pool.end();
  }
});

it("a session setting the server refuses is skipped and told: the lock is still taken, with the other settings", async () => {
  // Before, a refused SET (say tcp_user_timeout before PostgreSQL 12) threw before the lock was
  // taken, and the dispatcher "could not start" for ever.
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  const refused: string[] = [];
  const store = await PostgresCheckpointStore.create({
    pool,
    settings: quick,
    serverSettings: ["SET verdict_x5_no_such_setting = 1", ...serverKeepaliveStatements(quick)],
    onServerSettingRefused: (message) => void refused.push(message),
  });
  const standby = await PostgresCheckpointStore.create({ connectionString: database.url, settings: quick });
  try {
    expect(await store.acquire("refused-test")).toBe(true);
    expect(await standby.acquire("refused-test")).toBe(false);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^PostgreSQL refused "SET verdict_x5_no_such_setting = 1" \(42704: /);
    await store.release("refused-test");
    // The same (only) connection: the settings after the refused one were applied.
    const { rows } = await pool.query("SELECT current_setting('tcp_keepalives_idle') AS idle, current_setting('tcp_user_timeout') AS user_timeout");
    expect(rows[0]).toEqual({ idle: "2", user_timeout: "8000" });
  } finally {
    await store.close();
    await standby.close();
    await pool.end();
  }
});
