// The EventStore on in-process PGlite: the same SQL as PostgreSQL on one session. PGlite is one
// Postgres session behind every connection (STACK.md), so queries go through a promise queue
// (pool of one) and live subscribers are woken in-process after each append.
import { PGlite } from "@electric-sql/pglite";
import type { EventStore, ReadAllOptions, RecordedEvent, SubscribeAllOptions } from "../port.js";
import { appendedEvents } from "../sql/appendedEvents.js";
import { migrateEventStore } from "../sql/migrator.js";
import { createSqlEventStore, type SqlRunner } from "../sql/sqlEventStore.js";
import { linkedSubscription } from "../linkedSubscription.js";
import type { SubscriptionTuning } from "../subscription.js";
import { validateLimit } from "../validation.js";
import { Wakeup } from "../wakeup.js";
import { LogTail } from "./logTail.js";

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
  /**
   * No one else appends to this instance's log (default: true for a PGlite this store creates).
   * Set it for a shared instance whose other users never write the event tables (the read
   * models): the store's log tail then answers from its appends instead of reading them back.
   */
  soleWriter?: boolean;
}

/**
 * The embedded store's settings: 16 MB of shared buffers (a 1,000 x 3 run writes about 10 MB of
 * events; older pages are read back through the file system).
 */
export const EMBEDDED_POSTGRESQL_CONF = ["shared_buffers = 16MB"];

/**
 * Events the log tail keeps (about 1 KB of heap each for a pair's events). A run's completion
 * reads its pairs back from RunStarted on: a 1,000 x 3 run is about 6,000 events, which a window
 * of 5,000 sent to the database (six 1,000-row pages, ~5% of the run's CPU). Its bytes are
 * bounded too (LogTail's default: 8 pages' budget, 32 MB), so large events do not pile up in it.
 */
const TAIL_EVENTS = 10_000;

export async function createPgliteEventStore(options: PgliteEventStoreOptions = {}): Promise<EventStore> {
  const ownsDb = !options.db;
  const soleWriter = options.soleWriter ?? ownsDb;
  const db = options.db ?? (await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, postgresqlconf: options.postgresqlConf ?? EMBEDDED_POSTGRESQL_CONF }));
  const queue = new PromiseQueue();
  if (options.migrate !== false) await queue.run(() => migratePglite(db));
  const runner: SqlRunner = {
    query: <T>(sql: string, params?: unknown[]) => queue.run(async () => (await db.query<T>(sql, params)).rows),
  };
  const wakeup = new Wakeup();
  const tail = new LogTail((after, limit, filter) => readPage(after, limit, filter), { pageSize: options.pageSize, maxPageBytes: options.maxPageBytes, maxEvents: TAIL_EVENTS });
  const { readPage, ...store } = createSqlEventStore({
    ...options,
    runner,
    wakeup,
    // The sole writer's appends are the whole log: the tail learns of each, in commit order.
    onRecorded: soleWriter ? (appended) => tail.noteAppended(appended.last, () => appendedEvents(appended), appended.batch.length) : undefined,
    onAppended: () => wakeup.notify(),
    // One session: a batch at a time, gathering whatever queued up behind it.
    coalesce: { maxInFlight: 1 },
    close: async () => {
      wakeup.notify();
      await queue.run(async () => (ownsDb ? db.close() : undefined));
    },
  });
  return withSharedTail(store, tail, wakeup, options);
}

/**
 * Catch-up then live, as catchUpThenLive, without its quick re-reads after a wake-up that found
 * nothing: those wait for a PostgreSQL transaction still open, and on PGlite (one session) an
 * append has committed before it wakes anyone. Those re-reads every 5-40 ms made most of the
 * embedded store's statements while a run appended. The poll interval stays as the fallback
 * (another user of a shared PGlite instance appending without waking us).
 */
async function* followLog(tail: LogTail, wakeup: Wakeup, options: SubscribeAllOptions, tuning: SubscriptionTuning): AsyncGenerator<RecordedEvent> {
  validateLimit(options.pageSize, "pageSize");
  const pageSize = options.pageSize ?? tuning.pageSize ?? 500;
  const { signal } = options;
  let after = options.after;
  let polled = true;
  while (!signal?.aborted) {
    const generation = wakeup.generation;
    const page = await tail.read(after, pageSize, options.filter, polled);
    for (const event of page.events) {
      if (signal?.aborted) return;
      yield event;
      after = event.position;
    }
    // A poll that no wake-up preceded asks the database itself (another user of a shared PGlite).
    // A page cut by bytes is short but full: the log goes on, read it at once.
    if (!page.full) polled = !(await wakeup.wait(generation, tuning.pollIntervalMs ?? 500, signal));
  }
}

/** Paged reads (subscriptions, readAll with a limit) go through one LogTail (see logTail.ts). */
function withSharedTail(store: EventStore, tail: LogTail, wakeup: Wakeup, tuning: SubscriptionTuning): EventStore {
  const closing = new AbortController();
  return {
    ...store,
    async readAll(readOptions: ReadAllOptions = {}) {
      if (readOptions.limit === undefined) return store.readAll(readOptions);
      validateLimit(readOptions.limit);
      return (await tail.read(readOptions.after, readOptions.limit, readOptions.filter)).events;
    },
    subscribeAll(subscribeOptions: SubscribeAllOptions = {}) {
      return linkedSubscription(subscribeOptions, closing.signal, (linked) => followLog(tail, wakeup, linked, tuning));
    },
    close() {
      closing.abort();
      return store.close();
    },
  };
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
