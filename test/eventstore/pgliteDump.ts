// A fresh PGlite takes 4-8 s to initialise; loading a dumped data dir takes about 1 s. The first
// test run creates a migrated database and dumps it to the OS temp dir (named by a digest of the
// migrations, so a schema change makes a new dump); later runs and test files load that dump.
import { PGlite } from "@electric-sql/pglite";
import { eventStoreMigrations, migratePglite } from "@verdict/infra";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function migratedPgliteDump(): Promise<Blob> {
  const digest = createHash("sha256")
    .update(eventStoreMigrations().map((m) => m.sql).join("\n"))
    .digest("hex")
    .slice(0, 16);
  const path = join(tmpdir(), `verdict-pglite-eventstore-${digest}.tar.gz`);
  if (existsSync(path)) return new Blob([await readFile(path)]);
  const db = await PGlite.create();
  await migratePglite(db);
  const dump = await db.dumpDataDir("gzip");
  await db.close();
  // Written under a temporary name and renamed, so a parallel test file never reads half a dump.
  const partial = `${path}.${randomBytes(4).toString("hex")}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, path);
  return dump;
}

/** A migrated PGlite, started from the cached dump. */
export async function startMigratedPglite(): Promise<PGlite> {
  return PGlite.create({ loadDataDir: await migratedPgliteDump() });
}
