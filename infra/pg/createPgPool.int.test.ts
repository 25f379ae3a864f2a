// Real PostgreSQL: the connect timeout (VERDICT_PG_CONNECT_TIMEOUT_MS) times a new connection's
// connect only. Before, it was the pg Pool's connectionTimeoutMillis, which also limits how long
// a query waits for a free client of a full pool: on a busy but healthy database, a query that
// waited longer failed as "PostgreSQL at host did not answer" (ETIMEDOUT, a connection loss).
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../services/testDatabase.js";
import { createPgPool, DEFAULT_PG_SETTINGS } from "./index.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("x5_pgpool");
});
afterAll(() => database.drop());

it("a query waiting for a full pool's only client waits past the connect timeout and then runs", async () => {
  const pool = createPgPool({ connectionString: database.url, max: 1 }, { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 300 });
  try {
    const busy = pool.query("SELECT pg_sleep(1)");
    await new Promise((resolve) => setTimeout(resolve, 50)); // the pool's one client is taken
    const started = Date.now();
    const { rows } = await pool.query<{ ok: number }>("SELECT 1 AS ok");
    expect(rows).toEqual([{ ok: 1 }]);
    expect(Date.now() - started).toBeGreaterThan(300); // it did wait for the slot, past the timeout
    await busy;
  } finally {
    await pool.end();
  }
});

it("a client checked out of a full pool is handed to the next pool.connect() waiting past the connect timeout", async () => {
  const pool = createPgPool({ connectionString: database.url, max: 1 }, { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 300 });
  try {
    const first = await pool.connect();
    const waiting = pool.connect();
    setTimeout(() => first.release(), 700);
    const second = await waiting;
    expect((await second.query<{ ok: number }>("SELECT 1 AS ok")).rows).toEqual([{ ok: 1 }]);
    second.release();
  } finally {
    await pool.end();
  }
});
