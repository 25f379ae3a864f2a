// An embedded PGlite on a data dir, as the platform's processes open one. A new data dir is
// initialised first (initdb), which grows the instance's WebAssembly memory to ~700 MB; an
// instance never gives memory back, so a server started on a new home would hold all of it for
// its whole life. A fresh cluster is therefore closed once initialised and opened again (about
// half a second, on the first start only): the server then runs at its usual size.
import { PGlite } from "@electric-sql/pglite";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { EMBEDDED_POSTGRESQL_CONF } from "../eventstore/pglite/pgliteEventStore.js";

/** Whether a cluster was initialised there: a reader can then open it without creating one. */
export function pgliteDataDirExists(dataDir: string): boolean {
  return existsSync(join(dataDir, "PG_VERSION"));
}

export async function openPgliteDataDir(dataDir: string): Promise<PGlite> {
  await mkdir(dataDir, { recursive: true });
  const options = { dataDir, postgresqlconf: EMBEDDED_POSTGRESQL_CONF };
  if (!pgliteDataDirExists(dataDir)) await (await PGlite.create(options)).close();
  return PGlite.create(options);
}
