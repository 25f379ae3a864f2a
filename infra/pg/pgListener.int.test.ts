// Real PostgreSQL behind a proxy the test black-holes: a LISTEN session that silently stops
// hearing anything is found by its check and dropped (then opened again). Before, the listener
// kept "listening" on a dead connection for ever.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../services/testDatabase.js";
import { startTcpProxy, type TcpProxy } from "../testing/tcpProxy.js";
import { createPgPool, DEFAULT_PG_SETTINGS, PgListener } from "./index.js";

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
    await waitFor(() => !listener.listening, 3_000);
    expect(Date.now() - started).toBeLessThan(1_500);
  } finally {
    await listener.stop();
    await pool.end();
  }
});
