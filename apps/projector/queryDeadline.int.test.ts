// The projector on a real read database with a short query deadline (VERDICT_PG_QUERY_TIMEOUT_MS):
// its maintenance (migrations, a rebuild, the checksum) lifts the deadline and waits as long as it must, and
// its loop over a read database that black-holes fails within the deadline, says why, tries
// again and catches up once the database answers. Before, the loop waited for the OS's
// retransmission limit (~15 min) without a word.
import type { MikroORM } from "@mikro-orm/postgresql";
import { createMemoryEventStore } from "@verdict/infra";
import { createReadOrm } from "@verdict/infra/db";
import { DEFAULT_PG_SETTINGS, isQueryTimeout } from "@verdict/infra/pg";
import { startTcpProxy } from "@verdict/infra/testing";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { readModelChecksum } from "./db/checksum.js";
import { migrateReadModels } from "./db/migrator.js";
import { ormDatabase } from "./db/sql.js";
import { createProjector, DEFAULT_PROJECTOR_NAME } from "./projector.js";
import { commandDeps, createEvaluation } from "./testing/runFixture.js";

let database: TestDatabase;
let orm: MikroORM;
/** One log for every test: the read models remember the log they were made from. */
const store = createMemoryEventStore();
const deps = commandDeps("acme");
const settings = { ...DEFAULT_PG_SETTINGS, connectTimeoutMs: 1_000, queryTimeoutMs: 300 };

beforeAll(async () => {
  database = await createTestDatabase("x3_projector_deadline");
  orm = await createReadOrm({ url: database.url, poolSize: 2 }, { settings, warn: () => undefined });
});
afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

/** A session of its own holding the advisory lock `key` (hashtext) for `ms`. */
async function holdLock(key: string, ms: number): Promise<void> {
  const holder = new pg.Client({ connectionString: database.url });
  await holder.connect();
  await holder.query("SELECT pg_advisory_lock(hashtext($1))", [key]);
  setTimeout(() => void holder.end().catch(() => undefined), ms); // its session's end lets the lock go
}

it("read-model migrations wait out another process's migrations past the deadline (they lift it)", async () => {
  await holdLock("verdict_read_models", 1_000);
  const started = Date.now();
  const applied = await migrateReadModels(ormDatabase(orm));
  expect(applied.length).toBeGreaterThan(0);
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
});

it("a rebuild waits out another projector's rebuild past the deadline (it lifts it)", async () => {
  await createEvaluation(store, deps, "e1", ["a"]);
  await holdLock(`verdict_projector_rebuild:${DEFAULT_PROJECTOR_NAME}`, 1_000);
  const started = Date.now();
  expect(await createProjector({ store, orm }).rebuild()).toBe((await store.readAll()).length);
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
});

it("the read-model checksum (maintenance: it reads every row) runs past the deadline: it lifts it", async () => {
  // A table held by another session for a second stands for a checksum that takes longer than
  // the deadline on a big read database.
  const holder = new pg.Client({ connectionString: database.url });
  await holder.connect();
  await holder.query("BEGIN");
  await holder.query("LOCK TABLE results IN ACCESS EXCLUSIVE MODE");
  setTimeout(() => void holder.end().catch(() => undefined), 1_000);
  const started = Date.now();
  const checksum = await readModelChecksum(ormDatabase(orm));
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  expect(checksum.results.rows).toBe(0);
});

it("the loop over a read database that black-holes fails within the deadline, says so, and catches up once it answers", async () => {
  const proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(database.url).port || 5432) });
  const url = new URL(database.url);
  url.host = `127.0.0.1:${proxy.port}`;
  const proxied = await createReadOrm({ url: url.toString(), poolSize: 1 }, { settings, warn: () => undefined });
  const retried: { error: unknown; at: number }[] = [];
  const projector = createProjector({ store, orm: proxied, retryDelayMs: 50, onRetry: (error) => retried.push({ error, at: Date.now() }) });
  try {
    await createEvaluation(store, deps, "e2", ["a"]);
    projector.start();
    await projector.waitFor((await store.readAll()).at(-1)!.position);
    proxy.blackHole();
    const cut = Date.now();
    await createEvaluation(store, deps, "e3", ["a"]);
    await expect.poll(() => retried.length, { timeout: 5_000, interval: 20 }).toBeGreaterThan(0);
    // The batch's BEGIN: knex swallows its failure and answers the next statement in its own
    // words ("Transaction query already complete"); the deadline's error is what is thrown.
    expect(isQueryTimeout(retried[0].error)).toBe(true);
    expect((retried[0].error as Error).message).toContain(`PostgreSQL at 127.0.0.1:${proxy.port}/${database.name} did not answer within 600 ms`);
    expect(retried[0].at - cut).toBeLessThan(600 + 1_500);
    proxy.heal();
    await projector.waitFor((await store.readAll()).at(-1)!.position, 10_000);
    expect((await orm.em.fork().execute("SELECT count(*)::int AS n FROM evaluations WHERE id IN ('e2', 'e3')"))[0]).toEqual({ n: 2 });
  } finally {
    await projector.stop().catch(() => undefined);
    await proxied.close(true);
    await proxy.close();
  }
});
