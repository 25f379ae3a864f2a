// Real PostgreSQL behind a proxy the test black-holes: a LISTEN session that silently stops
// hearing anything is found by its check and dropped (then opened again). Before, the listener
// kept "listening" on a dead connection for ever.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../services/testDatabase.js";
import { startTcpProxy, type TcpProxy } from "../testing/tcpProxy.js";
import { createPgPool, DEFAULT_PG_SETTINGS, PgListener, serverKeepaliveStatements } from "./index.js";

let database: TestDatabase;
let proxy: TcpProxy;
beforeAll(async () => {
  database = await createTestDatabase("x3_pglistener");
  proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(database.url).port || 5432) });
});
afterAll(async () => {
  await proxy.close();
  await database.drop();
});

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it("a LISTEN session a network starts black-holing is dropped within its check", async () => {
  const settings = { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 1_000, keepAliveIdleMs: 2_000, sessionCheckMs: 200 };
  const url = new URL(database.url);
  url.host = `127.0.0.1:${proxy.port}`;
  const pool = createPgPool({ connectionString: url.toString(), max: 1 }, settings);
  const listener = new PgListener({ pool, settings, channel: "x3_channel", reconnectMs: 60_000, onNotification: () => undefined });
  try {
    await listener.listen();
    expect(listener.listening).toBe(true);
    proxy.blackHole();
    const started = Date.now();
    await waitFor(() => !listener.listening, 5_000);
    expect(Date.now() - started).toBeLessThan(2_500); // 4 x sessionCheckMs (800 ms), with room for a loaded machine
  } finally {
    await listener.stop();
    await pool.end();
  }
});

it("a session setting the server refuses is skipped and told, and LISTEN still hears a NOTIFY", async () => {
  // Before, the settings and LISTEN went as one simple query: the first refused setting (say
  // tcp_user_timeout before PostgreSQL 12) aborted LISTEN too, and live progress silently stopped.
  const settings = { ...DEFAULT_PG_SETTINGS, keepAliveIdleMs: 2_000, sessionCheckMs: 1_000 };
  const pool = createPgPool({ connectionString: database.url, max: 1 }, settings);
  const notifier = createPgPool({ connectionString: database.url, max: 1 }, settings);
  const heard: (string | undefined)[] = [];
  const refused: string[] = [];
  const listener = new PgListener({
    pool,
    settings,
    channel: "x5_channel",
    reconnectMs: 60_000,
    serverSettings: ["SET verdict_x5_no_such_setting = 1", ...serverKeepaliveStatements(settings)],
    onServerSettingRefused: (message) => void refused.push(message),
    onNotification: (payload) => void heard.push(payload),
  });
  try {
    await listener.listen();
    expect(listener.listening).toBe(true);
    expect(refused).toEqual([expect.stringMatching(/^PostgreSQL refused "SET verdict_x5_no_such_setting = 1" \(42704: .*verdict_x5_no_such_setting.*\); the session goes on without it$/)]);
    await notifier.query("SELECT pg_notify('x5_channel', 'hello')");
    await waitFor(() => heard.length > 0, 3_000);
    expect(heard).toEqual(["hello"]);
  } finally {
    await listener.stop();
    await pool.end();
    await notifier.end();
  }
});

it("LISTEN on an idle pooled connection a network black-holed fails within its deadline, not after the OS gives up", async () => {
  // As a standby dispatcher's lock did: the pool hands over an idle connection (no connect
  // timeout applies), and its settings and LISTEN waited with no deadline.
  const settings = { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 1_000, keepAliveIdleMs: 2_000, sessionCheckMs: 200 };
  const hole = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(database.url).port || 5432) });
  const url = new URL(database.url);
  url.host = `127.0.0.1:${hole.port}`;
  const pool = createPgPool({ connectionString: url.toString(), max: 1 }, settings);
  const listener = new PgListener({ pool, settings, channel: "idle_hole", reconnectMs: 60_000, onNotification: () => undefined });
  try {
    await pool.query("SELECT 1"); // its one connection now idles in the pool
    hole.blackHole();
    const started = Date.now();
    const outcome = await listener.listen().then(
      () => "listening",
      (error: Error) => error.message,
    );
    expect(outcome).toBe("listening on idle_hole: the session did not answer within 600 ms (3 x VERDICT_PG_SESSION_CHECK_MS)");
    expect(Date.now() - started).toBeLessThan(2_500);
  } finally {
    await listener.stop();
    await pool.end().catch(() => undefined);
    await hole.close();
  }
});
