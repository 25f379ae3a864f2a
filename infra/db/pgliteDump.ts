// A fresh PGlite takes 4-8 s to initialise; loading a dumped data dir takes about 1 s. The first
// caller creates the database, lets `prepare` set it up (migrations) and dumps it to the OS temp
// dir under a name derived from `key`; later callers and test files load that dump.
import { PGlite } from "@electric-sql/pglite";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function cachedPgliteDump(key: string, prepare: (db: PGlite) => Promise<void> = async () => undefined): Promise<Blob> {
  const digest = createHash("sha256").update(key).digest("hex").slice(0, 16);
  const path = join(tmpdir(), `verdict-pglite-${digest}.tar.gz`);
  if (existsSync(path)) return new Blob([await readFile(path)]);
  const db = await PGlite.create();
  await prepare(db);
  const dump = await db.dumpDataDir("gzip");
  await db.close();
  // Written under a temporary name and renamed, so a parallel test file never reads half a dump.
  const partial = `${path}.${randomBytes(4).toString("hex")}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, path);
  return dump;
}
