// The read models' connections (knex under MikroORM) have the query deadline too
// (VERDICT_PG_QUERY_TIMEOUT_MS): a projector's batch or an API read over a black-holed read
// database fails in bounded time, naming the database, and its connection is not used again.
// Before, they waited for the OS's retransmission limit (~15 min) without a word.
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import { expect, it } from "vitest";
import { DEFAULT_PG_SETTINGS, isQueryTimeout, LIFT_QUERY_DEADLINE } from "../pg/index.js";
import { useScratchDatabase } from "../testing/scratchDatabase.js";
import { startTcpProxy, type TcpProxy } from "../testing/tcpProxy.js";
import { createReadOrm } from "./readOrm.js";

const scratch = useScratchDatabase("x3_readormdeadline", "CREATE TABLE things (id int PRIMARY KEY)");

const settings = { ...DEFAULT_PG_SETTINGS, queryTimeoutMs: 300 };

function raw(em: EntityManager, sql: string): Promise<unknown> {
  const query = em.getConnection().getKnex().raw(sql);
  const transaction = em.getTransactionContext();
  if (transaction) query.transacting(transaction);
  return query;
}

async function failureWithin(promise: Promise<unknown>, ms: number): Promise<Error> {
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

it("a transaction over a read database that black-holes fails within the deadline, naming it; nothing is written and the next query runs", async () => {
  const proxy: TcpProxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(scratch.database.url).port || 5432) });
  const url = new URL(scratch.database.url);
  url.host = `127.0.0.1:${proxy.port}`;
  let orm: MikroORM | null = null;
  try {
    orm = await createReadOrm({ url: url.toString(), poolSize: 1 }, { settings, warn: () => undefined });
    const started = Date.now();
    const error = await failureWithin(
      orm.em.fork().transactional(async (tx) => {
        await raw(tx, "INSERT INTO things (id) VALUES (1)");
        proxy.blackHole();
        await raw(tx, "INSERT INTO things (id) VALUES (2)");
      }),
      5_000,
    );
    expect(Date.now() - started).toBeLessThan(600 + 1_500);
    expect(isQueryTimeout(error)).toBe(true);
    expect(error.message).toContain(`PostgreSQL at 127.0.0.1:${proxy.port}/${scratch.database.name} did not answer within 600 ms`);
    expect(error.message).toContain("VERDICT_PG_QUERY_TIMEOUT_MS=300");
    proxy.heal();
    // The pool's one connection was the dead one: the next query opens a new one and answers.
    expect(await failureWithin(raw(orm.em.fork(), "SELECT 1").then(() => Promise.reject(new Error("answered"))), 5_000)).toMatchObject({ message: "answered" });
    // The server rolled the transaction back when its session went (the proxy closes the
    // server's side with the client's, as the server's keepalive would across a partition).
    for (const waited = Date.now(); ; ) {
      const { rowCount } = await scratch.admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND state LIKE 'idle in transaction%'", [scratch.database.name]);
      if (rowCount === 0) break;
      if (Date.now() - waited > 5_000) throw new Error("the cut-off transaction is still open");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await scratch.admin.query("SELECT id FROM things")).rows).toEqual([]);
  } finally {
    await orm?.close(true);
    await proxy.close();
  }
});

it("the server cancels a read model statement waiting on a lock; a transaction that lifts the deadline waits as long as it must", async () => {
  const orm = await createReadOrm({ url: scratch.database.url, poolSize: 2 }, { settings, warn: () => undefined });
  const holder = new pg.Client({ connectionString: scratch.database.url });
  await holder.connect();
  try {
    await holder.query("BEGIN");
    await holder.query("LOCK TABLE things");
    setTimeout(() => void holder.query("COMMIT"), 1_000);
    const waited = orm.em.fork().transactional(async (tx) => {
      await raw(tx, LIFT_QUERY_DEADLINE);
      await raw(tx, "INSERT INTO things (id) VALUES (3)"); // waits for the lock, past the deadline
    });
    const error = await failureWithin(raw(orm.em.fork(), "SELECT count(*) FROM things"), 5_000);
    expect(isQueryTimeout(error)).toBe(true);
    expect(error.message).toMatch(/canceling statement due to statement timeout: PostgreSQL at .* ran a statement longer than 300 ms \(VERDICT_PG_QUERY_TIMEOUT_MS\)/);
    await waited;
    expect((await scratch.admin.query("SELECT id FROM things")).rows).toEqual([{ id: 3 }]);
  } finally {
    await holder.end();
    await orm.close(true);
  }
});

it("a transaction that lifted the deadline, cut off by a black hole, is ended by the server: its locks do not outlive the connection", async () => {
  const proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(scratch.database.url).port || 5432) });
  const url = new URL(scratch.database.url);
  url.host = `127.0.0.1:${proxy.port}`;
  const orm: MikroORM = await createReadOrm({ url: url.toString(), poolSize: 1 }, { settings, warn: () => undefined });
  try {
    // A rebuild: it truncates (ACCESS EXCLUSIVE) inside a lifted transaction, then its network goes.
    const rebuild = orm.em.fork().transactional(async (tx) => {
      await raw(tx, LIFT_QUERY_DEADLINE);
      await raw(tx, "TRUNCATE things");
      proxy.blackHole();
      await raw(tx, "INSERT INTO things VALUES (1)"); // never arrives
    });
    rebuild.catch(() => undefined);
    // Before, the lift turned the idle timeout off too, and the locks were held for as long as
    // the OS kept the connection (hours, with no server keepalive): every reader got 57014.
    await expect
      .poll(
        async () =>
          (await scratch.admin.query("SELECT l.mode FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE a.datname = $1 AND l.relation = 'things'::regclass AND l.granted", [scratch.database.name])).rows,
        { timeout: 10 * settings.queryTimeoutMs, interval: 100 },
      )
      .toEqual([]);
  } finally {
    await proxy.close(); // resets the cut-off connection
    await orm.close(true);
  }
});
