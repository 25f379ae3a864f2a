// Every pool the platform opens has a connect timeout and TCP keepalive: a database host that
// black-holes the connection (accepts, never answers) fails in bounded time with an error that
// names the host, never the password. Before, the connect waited for ever, without a word.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBlackHole } from "../testing/tcpProxy.js";
import { createPgPool, DEFAULT_PG_SETTINGS, isConnectionLoss, PgSettingsError, pgSettingsFromEnv } from "./index.js";

let hole: Awaited<ReturnType<typeof startBlackHole>>;
beforeAll(async () => {
  hole = await startBlackHole();
});
afterAll(() => hole.close());

const settings = { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 300 };

/** Rejects with the promise's error, or with "still waiting" after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))]);
}

it("a query on a pool whose host black-holes the connection fails within the connect timeout, naming the host and not the password", async () => {
  const pool = createPgPool({ connectionString: `postgres://bob:S3cret@127.0.0.1:${hole.port}/x3_nowhere`, max: 1 }, settings);
  try {
    const started = Date.now();
    const error = (await within(pool.query("SELECT 1"), 3_000).then(() => null, (e: unknown) => e)) as Error & { code?: string };
    expect(error?.message).not.toMatch(/still waiting/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.message).toContain(`PostgreSQL at 127.0.0.1:${hole.port}/x3_nowhere did not answer within 300 ms`);
    expect(error.message).toContain("VERDICT_PG_CONNECT_TIMEOUT_MS");
    expect(error.message).not.toContain("S3cret");
    expect(error.code).toBe("ETIMEDOUT");
    expect(isConnectionLoss(error)).toBe(true);
  } finally {
    await pool.end();
  }
});

it("pool.connect() fails the same way, and the pool's connections have TCP keepalive on", async () => {
  const pool = createPgPool({ host: "127.0.0.1", port: hole.port, database: "x3_nowhere", password: "S3cret", max: 1 }, settings);
  try {
    const error = (await within(pool.connect(), 3_000).then(() => null, (e: unknown) => e)) as Error;
    expect(error?.message).toContain(`PostgreSQL at 127.0.0.1:${hole.port}/x3_nowhere`);
    expect(error.message).not.toContain("S3cret");
    // The timeout is each new client's own: the pool's would also limit the wait for a free client.
    expect(pool.options).toMatchObject({ keepAlive: true, keepAliveInitialDelayMillis: DEFAULT_PG_SETTINGS.keepAliveIdleMs, connectionTimeoutMillis: 0 });
    const client = new (pool as unknown as { Client: new (options: object) => { password?: string; _connectionTimeoutMillis: number } }).Client(pool.options);
    expect(client._connectionTimeoutMillis).toBe(300);
    expect(client.password).toBe("S3cret"); // pg-pool keeps it non-enumerable: the copy keeps it
  } finally {
    await pool.end();
  }
});

it("the settings come from VERDICT_PG_* with defaults, and a malformed one is an error naming the variable", () => {
  expect(pgSettingsFromEnv({})).toEqual({ connectTimeoutMs: 10_000, keepAliveIdleMs: 10_000, sessionCheckMs: 5_000, queryTimeoutMs: 60_000 });
  expect(pgSettingsFromEnv({ VERDICT_PG_CONNECT_TIMEOUT_MS: "2500", VERDICT_PG_KEEPALIVE_IDLE_MS: " 3000 ", VERDICT_PG_SESSION_CHECK_MS: "", VERDICT_PG_QUERY_TIMEOUT_MS: "120000" })).toEqual({
    connectTimeoutMs: 2_500,
    keepAliveIdleMs: 3_000,
    sessionCheckMs: 5_000,
    queryTimeoutMs: 120_000,
  });
  for (const bad of ["0", "-1", "1.5", "10s", "abc"]) {
    expect(() => pgSettingsFromEnv({ VERDICT_PG_SESSION_CHECK_MS: bad })).toThrow(`VERDICT_PG_SESSION_CHECK_MS must be a whole number of milliseconds >= 1 (got ${JSON.stringify(bad)})`);
  }
});

it("VERDICT_PG_QUERY_TIMEOUT_MS: 0 is no deadline, and anything but a whole number of milliseconds is refused naming it", () => {
  expect(pgSettingsFromEnv({ VERDICT_PG_QUERY_TIMEOUT_MS: "0" }).queryTimeoutMs).toBeNull();
  expect(pgSettingsFromEnv({ VERDICT_PG_QUERY_TIMEOUT_MS: " 1 " }).queryTimeoutMs).toBe(1);
  for (const bad of ["-1", "1.5", "60s", "1e4", "0x10", "abc"]) {
    expect(() => pgSettingsFromEnv({ VERDICT_PG_QUERY_TIMEOUT_MS: bad })).toThrow(
      new PgSettingsError("VERDICT_PG_QUERY_TIMEOUT_MS", `VERDICT_PG_QUERY_TIMEOUT_MS must be a whole number of milliseconds >= 1, or 0 for no deadline (got ${JSON.stringify(bad)})`),
    );
  }
  // A timer longer than Node's longest would fire at once: no deadline at all would be a deadline of 1 ms.
  expect(() => pgSettingsFromEnv({ VERDICT_PG_QUERY_TIMEOUT_MS: "3000000000" })).toThrow(/VERDICT_PG_QUERY_TIMEOUT_MS must be at most 2147483647 milliseconds/);
});
