// Where the read models live: a PostgreSQL URL when one is given, else an embedded PGlite: one
// the caller already opened (`pglite`: the embedded default keeps the read models in its event
// log's database), or one kept under `<baseDir>/<name>`. The embedded projector and API use the
// PGlite instance itself (pgliteSql.ts); on request (`serve: true`) it is also served over the Postgres wire
// protocol by pglite-socket, so `pg` and MikroORM connect to it unchanged. PGlite is one Postgres
// session behind every connection (STACK.md): callers must use a pool of ONE, and LISTEN/NOTIFY
// does not cross connections there, so embedded mode notifies in-process.
import { PGlite } from "@electric-sql/pglite";
import { EMBEDDED_POSTGRESQL_CONF } from "../eventstore/pglite/pgliteEventStore.js";
import { mkdir } from "node:fs/promises";
import { openPgliteDataDir } from "./pgliteDataDir.js";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";

export interface ReadDatabaseOptions {
  /** A PostgreSQL URL; when given, nothing embedded is started. */
  url?: string;
  /** Names the embedded data dir `.verdict/<name>` (default "read"). */
  name?: string;
  /** Overrides the embedded data dir entirely. */
  dataDir?: string;
  /** Embedded only: keep everything in memory (tests), ignoring name and dataDir. */
  inMemory?: boolean;
  /** Embedded only: start from a dumped data dir (PGlite.dumpDataDir), about 1 s instead of 4-8 s. */
  loadDataDir?: Blob | File;
  /** Parent of the embedded data dirs (default `./.verdict`). */
  baseDir?: string;
  /** Embedded only: serve it on 127.0.0.1 over the wire protocol, for `pg` and MikroORM (default true). */
  serve?: boolean;
  /** Embedded only: an open PGlite to keep the read models in (shared with the event store); left open on close. */
  pglite?: PGlite;
}

export interface ReadDatabase {
  /** Connect here with `pg` or MikroORM; null for an embedded database that is not served. */
  url: string | null;
  embedded: boolean;
  /** Connections a pool may open: 1 on PGlite, undefined (driver default) on PostgreSQL. */
  poolSize: number | undefined;
  /** The PGlite instance behind an embedded database. */
  pglite: PGlite | null;
  close(): Promise<void>;
}

export async function openReadDatabase(options: ReadDatabaseOptions = {}): Promise<ReadDatabase> {
  if (options.url) return { url: options.url, embedded: false, poolSize: undefined, pglite: null, close: async () => undefined };
  const shared = options.pglite;
  // Served over pglite-socket, a client's transaction (MikroORM's) would take PGlite's query lock
  // only, so the sharer's statements could run inside it: a shared instance is used directly.
  if (shared && options.serve !== false) throw new Error("openReadDatabase: a shared PGlite (`pglite`) is not served over the socket; pass serve: false (openReadModels without orm)");
  const db = shared ?? (await createPglite(options));
  let served: Awaited<ReturnType<typeof serve>> | null = null;
  try {
    if (options.serve !== false) served = await serve(db);
  } catch (error) {
    if (!shared) await db.close();
    throw error;
  }
  let closed = false;
  return {
    url: served?.url ?? null,
    embedded: true,
    poolSize: 1,
    pglite: db,
    async close() {
      if (closed) return;
      closed = true;
      await served?.stop();
      if (!shared) await db.close();
    },
  };
}

async function createPglite(options: ReadDatabaseOptions): Promise<PGlite> {
  const dataDir = options.inMemory ? undefined : (options.dataDir ?? join(resolve(options.baseDir ?? ".verdict"), options.name ?? "read"));
  if (dataDir && !options.loadDataDir) return openPgliteDataDir(dataDir);
  if (dataDir) await mkdir(dataDir, { recursive: true });
  // Same small buffer pool as the embedded event store: PGlite never gives WebAssembly memory back,
  // and the default 128 MB of shared buffers is most of an embedded process's footprint.
  return PGlite.create({ dataDir, loadDataDir: options.loadDataDir, postgresqlconf: EMBEDDED_POSTGRESQL_CONF });
}

async function serve(db: PGlite): Promise<{ url: string; stop(): Promise<void> }> {
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1" });
  await server.start();
  const address = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return { url: `postgres://postgres@127.0.0.1:${address.port}/postgres`, stop: () => server.stop() };
}
