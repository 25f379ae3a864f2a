// A fresh PGlite takes 4-8 s to initialise; loading a dumped data dir takes about 1 s. The first
// test run creates a migrated database and dumps it to the OS temp dir (named by a digest of the
// migrations, so a schema change makes a new dump); later runs and test files load that dump.
import { PGlite } from "@electric-sql/pglite";
import { cachedPgliteDump, eventStoreMigrations, migratePglite } from "@verdict/infra";

function migratedPgliteDump(): Promise<Blob> {
  return cachedPgliteDump(`eventstore\n${eventStoreMigrations().map((m) => m.sql).join("\n")}`, async (db) => void (await migratePglite(db)));
}

/** A migrated PGlite, started from the cached dump. */
export async function startMigratedPglite(): Promise<PGlite> {
  return PGlite.create({ loadDataDir: await migratedPgliteDump() });
}
