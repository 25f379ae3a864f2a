import { createPostgresEventStore, eventStoreMigrations, migratePool } from "@verdict/infra";
import { DEFAULT_PG_SETTINGS } from "@verdict/infra/pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventStoreTestDatabase, type TestDatabase } from "./testDatabase.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createEventStoreTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe("event store migrations", () => {
  it("are applied once, even by processes starting at the same time, and recorded by version", async () => {
    const pools = [1, 2, 3].map(() => new pg.Pool({ connectionString: database.url, max: 1 }));
    try {
      const applied = await Promise.all(pools.map((pool) => migratePool(pool)));
      const names = eventStoreMigrations().map((m) => m.name);
      expect(names).toEqual(["001_event_store.sql", "002_visible_bound.sql", "003_append_many.sql", "004_append_many_new_streams.sql", "005_bound_past_ended_transactions.sql"]);
      expect(applied.flat().sort()).toEqual(names);
      expect(await migratePool(pools[0])).toEqual([]);
      const { rows } = await pools[0].query("SELECT version, name FROM event_store_migrations ORDER BY version");
      expect(rows).toEqual([
        { version: 1, name: "001_event_store.sql" },
        { version: 2, name: "002_visible_bound.sql" },
        { version: 3, name: "003_append_many.sql" },
        { version: 4, name: "004_append_many_new_streams.sql" },
        { version: 5, name: "005_bound_past_ended_transactions.sql" },
      ]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it("lift the query deadline: a process waits out another's migration lock, longer than VERDICT_PG_QUERY_TIMEOUT_MS", async () => {
    // Before, every statement of a migration had the deadline, and a process starting while
    // another one migrated failed with "canceling statement due to statement timeout".
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(7216531004)"); // the migrations' lock (migrator.ts)
      setTimeout(() => holder.query("SELECT pg_advisory_unlock(7216531004)").catch(() => undefined), 1_000);
      const started = Date.now();
      const store = await createPostgresEventStore({ connectionString: database.url, settings: { ...DEFAULT_PG_SETTINGS, queryTimeoutMs: 200 } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      await expect(store.readAll({ limit: 1 })).resolves.toEqual([]);
      await store.close();
    } finally {
      await holder.end();
    }
  });
});
