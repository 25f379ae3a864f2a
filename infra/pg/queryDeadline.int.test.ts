// Real PostgreSQL, directly and behind a proxy the test black-holes: every ordinary query has a
// deadline (VERDICT_PG_QUERY_TIMEOUT_MS). Before, a query in flight on a black-holed connection
// waited for the OS's retransmission limit (~15 min), and a statement waiting on another
// session's lock waited for as long as that session held it.
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { useScratchDatabase } from "../testing/scratchDatabase.js";
import { startTcpProxy, type TcpProxy } from "../testing/tcpProxy.js";
import { createPgPool, DEFAULT_PG_SETTINGS, isConnectionLoss, isQueryTimeout, LIFT_QUERY_DEADLINE, pgSettingsFromEnv } from "./index.js";

let proxy: TcpProxy;
const scratch = useScratchDatabase("x3_querydeadline", "CREATE TABLE things (id int PRIMARY KEY, note text)");
afterEach(async () => {
  await proxy?.close();
  await scratch.admin.query("TRUNCATE things");
});

const settings = { ...DEFAULT_PG_SETTINGS, queryTimeoutMs: 300 };
/** The client gives up 300 ms after the server's own timeout would have answered. */
const CLIENT_DEADLINE_MS = 600;

/** The scratch database's url through a fresh proxy, with a password the message must not show. */
async function proxied(): Promise<{ url: string; where: string }> {
  proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(scratch.database.url).port || 5432) });
  const url = new URL(scratch.database.url);
  url.host = `127.0.0.1:${proxy.port}`;
  url.username = "postgres";
  url.password = "S3cret";
  return { url: url.toString(), where: `127.0.0.1:${proxy.port}/${scratch.database.name}` };
}

/** The promise's error, or a "still waiting" error after `ms`. */
async function failureWithin(promise: Promise<unknown>, ms: number): Promise<Error & { code?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    promise.then(
      () => new Error("it answered"),
      (error: unknown) => error as Error,
    ),
    new Promise<Error>((resolve) => (timer = setTimeout(() => resolve(new Error(`still waiting after ${ms} ms`)), ms))),
  ]);
  clearTimeout(timer);
  return outcome;
}

async function backendOf(client: pg.ClientBase): Promise<number> {
  return (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
}

it("a query in flight when the network black-holes fails within the deadline, naming the database and the setting, not the password", async () => {
  const { url, where } = await proxied();
  const pool = createPgPool({ connectionString: url, max: 1 }, settings);
  try {
    await pool.query("SELECT 1"); // a warm connection, then the network goes silent
    proxy.blackHole();
    const started = Date.now();
    const error = await failureWithin(pool.query("SELECT 1"), 5_000);
    expect(error.message).toBe(
      `PostgreSQL at ${where} did not answer within ${CLIENT_DEADLINE_MS} ms; the query was given up and its connection closed (VERDICT_PG_QUERY_TIMEOUT_MS=300, with 300 ms more for the server's own cancel to arrive)`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(CLIENT_DEADLINE_MS - 5);
    expect(Date.now() - started).toBeLessThan(CLIENT_DEADLINE_MS + 1_500);
    expect(error.message).not.toContain("S3cret");
    expect(error.code).toBe("ETIMEDOUT");
    expect(isConnectionLoss(error)).toBe(true); // a read may be sent again on a new connection
    expect(isQueryTimeout(error)).toBe(true);
  } finally {
    await pool.end();
  }
});

it("the pool serves the next query once the network answers again: the connection that timed out is not used again", async () => {
  const { url } = await proxied();
  const pool = createPgPool({ connectionString: url, max: 1 }, settings);
  try {
    const first = await backendOf(pool as unknown as pg.ClientBase);
    proxy.blackHole();
    expect(isQueryTimeout(await failureWithin(pool.query("SELECT 1"), 5_000))).toBe(true);
    proxy.heal();
    const next = await failureWithin(pool.query("SELECT pg_backend_pid() AS pid").then((r) => Promise.reject(r.rows[0].pid as number)), 5_000);
    expect(typeof next).toBe("number"); // answered (rejected here only to carry the pid out)
    expect(next).not.toBe(first);
    expect(pool.totalCount).toBe(1);
  } finally {
    await pool.end();
  }
});

it("a client checked out and released without an error after its query timed out is not handed out again", async () => {
  // node-postgres's own query_timeout fails the promise but leaves the query on the connection:
  // released as healthy, the busy (here: dead) connection served the next query, which hung.
  const { url } = await proxied();
  const pool = createPgPool({ connectionString: url, max: 1 }, settings);
  try {
    const client = await pool.connect();
    proxy.blackHole();
    expect(isQueryTimeout(await failureWithin(client.query("SELECT 1"), 5_000))).toBe(true);
    client.release(); // as code that caught the error and carried on would
    proxy.heal();
    const error = await failureWithin(pool.query("SELECT 1 AS ok").then(() => Promise.reject(new Error("answered"))), 5_000);
    expect(error.message).toBe("answered");
  } finally {
    await pool.end();
  }
});

it("a transaction cut by the deadline leaves nothing written", async () => {
  const { url } = await proxied();
  const pool = createPgPool({ connectionString: url, max: 1 }, settings);
  try {
    const client = await pool.connect();
    const pid = await backendOf(client);
    await client.query("BEGIN");
    await client.query("INSERT INTO things (id, note) VALUES (1, 'first half')");
    proxy.blackHole();
    const error = await failureWithin(client.query("INSERT INTO things (id, note) VALUES (2, 'second half')"), 5_000);
    expect(isQueryTimeout(error)).toBe(true);
    // The rollback cannot be sent: the connection is closed, so the server rolls back itself.
    await expect(client.query("ROLLBACK")).rejects.toThrow();
    client.release(error);
    // The server let the session go (rolled back), and nothing of it was written.
    for (const started = Date.now(); ; ) {
      const { rowCount } = await scratch.admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
      if (rowCount === 0) break;
      if (Date.now() - started > 5_000) throw new Error(`session ${pid} still open`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await scratch.admin.query("SELECT id FROM things")).rows).toEqual([]);
  } finally {
    await pool.end();
  }
});

it("a statement waiting on another session's lock is cancelled by the server within the deadline, and its connection serves the next query", async () => {
  const pool = createPgPool({ connectionString: scratch.database.url, max: 1 }, settings);
  const holder = new pg.Client({ connectionString: scratch.database.url });
  await holder.connect();
  const client = await pool.connect();
  try {
    await scratch.admin.query("INSERT INTO things (id, note) VALUES (1, 'locked')");
    const pid = await backendOf(client);
    await holder.query("BEGIN");
    await holder.query("SELECT * FROM things WHERE id = 1 FOR UPDATE");
    const started = Date.now();
    const error = await failureWithin(client.query("UPDATE things SET note = 'mine' WHERE id = 1"), 5_000);
    expect(Date.now() - started).toBeLessThan(300 + 1_000);
    expect(error.message).toBe(`canceling statement due to statement timeout: PostgreSQL at 127.0.0.1:5432/${scratch.database.name} ran a statement longer than 300 ms (VERDICT_PG_QUERY_TIMEOUT_MS)`);
    expect(error.code).toBe("57014");
    expect(isQueryTimeout(error)).toBe(true);
    expect(isConnectionLoss(error)).toBe(false);
    // The server stopped waiting (its session waits for no lock), and the same connection
    // answers the next query (pool.query would close it after any error, as pg-pool does).
    expect((await scratch.admin.query("SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted", [pid])).rowCount).toBe(0);
    expect(await backendOf(client)).toBe(pid);
  } finally {
    client.release();
    await holder.query("ROLLBACK");
    await holder.end();
    await pool.end();
  }
});

it("a statement cancelled by someone else (pg_cancel_backend) before the deadline is not a timeout: its error is passed on as it is", async () => {
  // The same SQLSTATE as the deadline's (57014); only its timing tells them apart, not its words.
  const pool = createPgPool({ connectionString: scratch.database.url, max: 1 }, { ...settings, queryTimeoutMs: 2_000 });
  const client = await pool.connect();
  try {
    const pid = await backendOf(client);
    const sleeping = failureWithin(client.query("SELECT pg_sleep(1.5)"), 5_000);
    for (const started = Date.now(); ; ) {
      const { rowCount } = await scratch.admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE 'SELECT pg_sleep%'", [pid]);
      if (rowCount) break;
      if (Date.now() - started > 2_000) throw new Error(`session ${pid} never ran the sleep`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await scratch.admin.query("SELECT pg_cancel_backend($1)", [pid]);
    const error = await sleeping;
    expect(error.code).toBe("57014");
    expect(isQueryTimeout(error)).toBe(false);
    expect(error.message).not.toContain("VERDICT_PG_QUERY_TIMEOUT_MS");
  } finally {
    client.release();
    await pool.end();
  }
});

it("a statement queued behind another on its client is timed from when it left the queue: a cancel soon after is not a timeout", async () => {
  // Timed from query(), the second sleep had "run" past the deadline when an operator cancelled it.
  const pool = createPgPool({ connectionString: scratch.database.url, max: 1 }, { ...settings, queryTimeoutMs: 1_000 });
  const client = await pool.connect();
  try {
    const pid = await backendOf(client);
    const first = client.query("SELECT pg_sleep(0.9)");
    const second = failureWithin(client.query("SELECT pg_sleep(0.5) AS queued"), 5_000);
    await first;
    await new Promise((resolve) => setTimeout(resolve, 200));
    await scratch.admin.query("SELECT pg_cancel_backend($1)", [pid]);
    const error = await second;
    expect(error.code).toBe("57014");
    expect(isQueryTimeout(error)).toBe(false);
  } finally {
    client.release();
    await pool.end();
  }
});

it("every connection asks the server for the timeouts; a transaction that lifts them runs past the deadline, and the next one has it again", async () => {
  const pool = createPgPool({ connectionString: scratch.database.url, max: 1 }, settings);
  try {
    const { rows } = await pool.query("SELECT current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle");
    expect(rows).toEqual([{ statement: "300ms", idle: "300ms" }]);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(LIFT_QUERY_DEADLINE);
      await client.query("SELECT pg_sleep(0.8)"); // past the server's timeout and the client's deadline
      await new Promise((resolve) => setTimeout(resolve, 500)); // idle in the transaction past it too (not past 4 times it)
      await client.query("INSERT INTO things (id, note) VALUES (1, 'maintenance')");
      // The idle timeout is not lifted but stretched: a lifted transaction cut off still ends.
      expect((await client.query("SELECT current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle")).rows).toEqual([
        { statement: "0", idle: "1200ms" },
      ]);
      await client.query("COMMIT");
      expect(isQueryTimeout(await failureWithin(client.query("SELECT pg_sleep(0.8)"), 5_000))).toBe(true);
    } finally {
      client.release();
    }
    expect((await scratch.admin.query("SELECT note FROM things")).rows).toEqual([{ note: "maintenance" }]);
  } finally {
    await pool.end();
  }
  // VERDICT_PG_QUERY_TIMEOUT_MS=0 (null): no deadline, the server's own defaults.
  const unbounded = createPgPool({ connectionString: scratch.database.url, max: 1 }, { ...settings, queryTimeoutMs: null });
  try {
    expect((await unbounded.query("SELECT current_setting('statement_timeout') AS statement")).rows).toEqual([{ statement: "0" }]);
    await unbounded.query("SELECT pg_sleep(0.8)");
  } finally {
    await unbounded.end();
  }
});

it("a new connection whose session settings get no answer fails within the connect timeout, as a connect that did not answer", async () => {
  // The settings are sent after the login, before the connection is handed out: part of
  // connecting, so the connect timeout bounds them, not the (longer) query deadline.
  const { url, where } = await proxied();
  const holeAfterLogin = proxy;
  class BlackHoledAfterLogin extends pg.Client {
    override connect(): any {
      return super.connect().then((client) => {
        holeAfterLogin.blackHole();
        return client;
      });
    }
  }
  const pool = createPgPool({ connectionString: url, max: 1, Client: BlackHoledAfterLogin as typeof pg.Client }, { ...settings, connectTimeoutMs: 400, queryTimeoutMs: 5_000 });
  try {
    const started = Date.now();
    const error = await failureWithin(pool.query("SELECT 1"), 5_000);
    expect(Date.now() - started).toBeLessThan(400 + 1_500);
    expect(error.message).toBe(`the new connection's session settings got no answer within 400 ms; the connection was closed (VERDICT_PG_CONNECT_TIMEOUT_MS) (PostgreSQL at ${where})`);
    expect(error.code).toBe("ETIMEDOUT");
    expect(isConnectionLoss(error)).toBe(true);
  } finally {
    await pool.end();
  }
});

it("the longest deadline the setting accepts (2147483647 ms) still lets a query answer: the client's timer is capped at Node's longest", async () => {
  const settings = pgSettingsFromEnv({ VERDICT_PG_QUERY_TIMEOUT_MS: "2147483647" });
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  process.on("warning", onWarning);
  const pool = createPgPool({ connectionString: scratch.database.url, max: 1 }, settings);
  try {
    // Before, the client's deadline (+2 s) overflowed Node's timer, which then fired after 1 ms.
    expect((await pool.query("SELECT pg_sleep(0.05), 1 AS ok")).rows).toEqual([{ pg_sleep: "", ok: 1 }]);
    expect(warnings).toEqual([]);
  } finally {
    process.off("warning", onWarning);
    await pool.end();
  }
});
