// A tiny migrator for the committed SQL files in ../migrations: each file runs once, in name
// order, in its own transaction, recorded in projector_migrations. A transaction-scoped advisory
// lock keeps two projector processes from migrating at once (PGlite has one session anyway).
// The query deadline is lifted in each of these transactions (infra/pg/queryDeadline.ts): a
// migration may rightly run long, and a process waits on the lock while another one migrates.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LIFT_QUERY_DEADLINE } from "@verdict/infra/pg";
import type { SqlDatabase } from "./sql.js";

export interface ReadModelMigration {
  id: string;
  sql: string;
}

const directory = join(dirname(fileURLToPath(import.meta.url)), "..", "migrations");

export function readModelMigrations(): ReadModelMigration[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => ({ id: file.replace(/\.sql$/, ""), sql: readFileSync(join(directory, file), "utf8") }));
}

/** Applies the migrations not yet recorded; returns the ids it applied. */
export async function migrateReadModels(database: SqlDatabase): Promise<string[]> {
  await database.sql().execute("CREATE TABLE IF NOT EXISTS projector_migrations (id text PRIMARY KEY)");
  const applied: string[] = [];
  for (const migration of readModelMigrations()) {
    const done = await database.transaction(async (tx) => {
      await tx.execute(LIFT_QUERY_DEADLINE);
      await tx.execute("SELECT pg_advisory_xact_lock(hashtext('verdict_read_models'))");
      const rows = await tx.execute("SELECT id FROM projector_migrations WHERE id = ?", [migration.id]);
      if (rows.length > 0) return false;
      await tx.script(migration.sql);
      await tx.execute("INSERT INTO projector_migrations (id) VALUES (?)", [migration.id]);
      return true;
    });
    if (done) applied.push(migration.id);
  }
  return applied;
}
