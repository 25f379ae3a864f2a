// A tiny migrator for the event store schema: applies the numbered SQL files of migrations/ in
// order, each in its own transaction together with the row that records it, under an advisory
// lock so two processes starting at once do not both apply a file. The query deadline is lifted
// in each of these transactions (infra/pg/queryDeadline.ts): a migration may rightly run long,
// and a process waits on the lock for as long as another one's migration takes.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LIFT_QUERY_DEADLINE } from "../../pg/queryDeadline.js";

/** One connection (or one PGlite session): migrations run statement by statement on it. */
export interface MigrationSession {
  /** Runs SQL that may hold several statements; no parameters. */
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), "migrations");
// Arbitrary constant: the event store's advisory lock key.
const LOCK_KEY = 7_216_531_004;
const CREATE_LEDGER =
  "CREATE TABLE IF NOT EXISTS event_store_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())";

export function eventStoreMigrations(): Migration[] {
  return readdirSync(migrationsDir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: Number.parseInt(file, 10), name: file, sql: readFileSync(join(migrationsDir, file), "utf8") }));
}

/** Applies the migrations not yet recorded; returns the names it applied. */
export async function migrateEventStore(session: MigrationSession, migrations = eventStoreMigrations()): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations) {
    await session.exec("BEGIN");
    try {
      await session.exec(LIFT_QUERY_DEADLINE);
      await session.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY]);
      await session.exec(CREATE_LEDGER);
      const done = await session.query("SELECT 1 FROM event_store_migrations WHERE version = $1", [migration.version]);
      if (done.length === 0) {
        await session.exec(migration.sql);
        await session.query("INSERT INTO event_store_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
        applied.push(migration.name);
      }
      await session.exec("COMMIT");
    } catch (error) {
      await session.exec("ROLLBACK");
      throw error;
    }
  }
  return applied;
}
