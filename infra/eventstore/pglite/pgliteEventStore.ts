// The EventStore on in-process PGlite: the same SQL as PostgreSQL on one session. PGlite is one
// Postgres session behind every connection (STACK.md), so queries go through a promise queue
// (pool of one) and live subscribers are woken in-process after each append.
import { PGlite } from "@electric-sql/pglite";
import type { EventStore } from "../port.js";
import { migrateEventStore } from "../sql/migrator.js";
import { createSqlEventStore, type SqlRunner } from "../sql/sqlEventStore.js";
import type { SubscriptionTuning } from "../subscription.js";
import { Wakeup } from "../wakeup.js";

export interface PgliteEventStoreOptions extends SubscriptionTuning {
  /** Where PGlite keeps its files; omit for an in-memory database. */
  dataDir?: string;
  /** A dumped data dir (PGlite.dumpDataDir) to start from: about 1 s instead of 4-8 s. */
  loadDataDir?: Blob | File;
  /** An existing PGlite instance; the store then leaves it open on close(). */
  db?: PGlite;
  /** Apply the schema migration on start (default true). */
  migrate?: boolean;
  /**
   * postgresql.conf lines for a PGlite this store creates (default EMBEDDED_POSTGRESQL_CONF).
   * PGlite keeps shared buffers in its WebAssembly memory, which never shrinks: the stock 128 MB
   * of buffers costs about 120 MB of resident memory once a run has touched them.
   */
  postgresqlConf?: string[];
}

/**
 * The embedded store's settings: 16 MB of shared buffers (a 1,000 x 3 run writes about 10 MB of
 * events; older pages are read back through the file system).
 */
export const EMBEDDED_POSTGRESQL_CONF = ["shared_buffers = 16MB"];

export async function createPgliteEventStore(options: PgliteEventStoreOptions = {}): Promise<EventStore> {
  const ownsDb = !options.db;
  const db = options.db ?? (await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, postgresqlconf: options.postgresqlConf ?? EMBEDDED_POSTGRESQL_CONF }));
  const queue = new PromiseQueue();
  if (options.migrate !== false) await queue.run(() => migratePglite(db));
  const runner: SqlRunner = {
    query: <T>(sql: string, params?: unknown[]) => queue.run(async () => (await db.query<T>(sql, params)).rows),
  };
  const wakeup = new Wakeup();
  return createSqlEventStore({
    ...options,
    runner,
    wakeup,
    onAppended: () => wakeup.notify(),
    // One session: a batch at a time, gathering whatever queued up behind it.
    coalesce: { maxInFlight: 1 },
    close: async () => {
      wakeup.notify();
      await queue.run(async () => (ownsDb ? db.close() : undefined));
    },
  });
}

export function migratePglite(db: PGlite): Promise<string[]> {
  return migrateEventStore({
    exec: async (sql) => void (await db.exec(sql)),
    query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
  });
}

/** Runs one task at a time, in call order. */
class PromiseQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
