// The projector: reads the log from its checkpoint (stored in the read database), applies events
// in batches (up to `batchSize`, or whatever is already available), each batch and its
// checkpoint in one transaction, then publishes progress for the runs the batch touched.
import { isDomainError, type EventStore, type LogPosition, type RecordedEvent } from "@verdict/domain";
import type { MikroORM } from "@mikro-orm/postgresql";
import { ormDatabase, type SqlDatabase } from "./db/sql.js";
import { READ_MODEL_TABLES } from "./db/tables.js";
import { applyInTransaction, readProgress, type ApplyOptions, type BatchOutcome } from "./projection/applyBatch.js";
import { comparePositions, countedBytes, DEFAULT_MAX_PAGE_BYTES } from "@verdict/infra/eventstore";
import { readCheckpoint } from "./projection/checkpoint.js";
import { checkSameLog, ReadModelsOfAnotherLogError } from "./projection/sameLog.js";
import { projectionState, ProjectionVersionChangedError, StaleReadModelsOfEmptyLogError, type ProjectionState } from "./projection/projectionVersion.js";
import { applyEventByEvent, isRefusal, reportRejections, type RejectedEvent } from "./projection/rejections.js";
import type { ProgressBus } from "./progress/progress.js";
import { createAnnouncer, runsToAnnounce } from "./progress/announcer.js";
import { batchesOf } from "./batches.js";

export const DEFAULT_PROJECTOR_NAME = "read-models";

export interface ProjectorOptions extends Partial<Omit<ApplyOptions, "registry">> {
  store: EventStore;
  /** MikroORM on the read database; unused when `database` is given. */
  orm?: MikroORM | null;
  /**
   * The read models' SQL (default: through `orm`). Embedded, openReadModels gives the PGlite
   * itself (OpenedReadModels.sql), without the socket.
   */
  database?: SqlDatabase;
  bus?: ProgressBus | null;
  /** Most events per transaction (default 500). */
  batchSize?: number;
  /**
   * Most bytes of events per transaction while following, as the store's pages count them
   * (default DEFAULT_MAX_PAGE_BYTES; the first event always goes). Catch-up and rebuild apply a
   * page of the store at a time, which its own budget bounds already.
   */
  maxBatchBytes?: number;
  /**
   * How long a batch may wait, from its first event, for more to arrive (default 0: apply what
   * is already there). Embedded, where the projector shares one thread with the worker, a
   * transaction per worker append burst cost more statements than the results they carried.
   */
  gatherMs?: number;
  /** Called after each committed batch (metrics, logs, tests). */
  onBatch?: (outcome: BatchOutcome) => void;
  /**
   * Called when publishing progress fails; the batch is committed regardless, and the run's
   * current progress is published again after `retryDelayMs` (progress/announcer.ts).
   */
  onPublishError?: (error: unknown) => void;
  /**
   * While following, a failed batch (database restarting, connection lost) is retried from the
   * stored checkpoint after this delay (default 1,000 ms; null stops the loop instead). Domain
   * errors (an unknown event type, an event that does not parse) always stop it: retrying
   * cannot fix them.
   */
  retryDelayMs?: number | null;
  /** Told about each failure the loop retries. */
  onRetry?: (error: unknown) => void;
  /**
   * The log is read through the read models' own database session (the embedded default keeps
   * both in one PGlite, one session): a read-model transaction cannot read the log there, it
   * would wait on itself. Rebuild then truncates in one transaction and catches up batch by
   * batch, each batch committed with its checkpoint, so an interrupted rebuild resumes from
   * where it stopped. Such a database is opened only by the process that locked its home, so no
   * other reader sees the models half rebuilt. Default false.
   */
  logSharesDatabase?: boolean;
  /**
   * Told about each event the read database refused (a data error, a constraint, a size limit:
   * retrying cannot fix it). The event is recorded in projector_rejections and passed over.
   */
  onReject?: (rejected: RejectedEvent) => void;
  /**
   * Told when `start()` or `catchUp()` found read models another projection version made (or
   * an install older than versions), just before rebuilding them from the log (projectionVersion.ts).
   */
  onStaleProjection?: (state: ProjectionState) => void;
}

export interface Projector {
  /** Starts following the log in the background; `stop()` ends it. */
  start(): void;
  /** Stops following and waits for the batch in flight to commit. Rethrows what stopped the loop. */
  stop(): Promise<void>;
  /**
   * Applies everything the log holds now (after the checkpoint), then returns the events applied;
   * `onProgress` hears the running count after each batch. Read models of another projection
   * version are rebuilt first (as `start()` does), and the count is then the rebuild's.
   */
  catchUp(onProgress?: (applied: number) => void): Promise<number>;
  /**
   * Truncates every read model and the checkpoint, then replays the whole log; `onProgress` hears
   * the running count after each batch (from 0 again if a refused batch restarts the rebuild).
   */
  rebuild(onProgress?: (applied: number) => void): Promise<number>;
  checkpoint(): Promise<LogPosition | null>;
  /** Resolves once the projector has committed up to `position` (read-your-writes for the API). */
  waitFor(position: LogPosition, timeoutMs?: number): Promise<void>;
  /**
   * Like waitFor, counting only what this projector commits (no read of the stored checkpoint):
   * for pacing a worker in the same process, where a query per wait would cost more than the wait.
   */
  committedUpTo(position: LogPosition, timeoutMs?: number): Promise<void>;
  /** The loop's promise while started (rejects with what stopped it). */
  readonly running: Promise<void> | null;
  /** The last position this projector committed (or found stored), without asking the database. */
  readonly committed: LogPosition | null;
}

export function createProjector(options: ProjectorOptions): Projector {
  const name = options.name ?? DEFAULT_PROJECTOR_NAME;
  const batchSize = options.batchSize ?? 500;
  const applyOptions: ApplyOptions = { name, skipUnknown: options.skipUnknown, onUnknown: options.onUnknown };
  let controller: AbortController | null = null;
  let running: Promise<void> | null = null;
  let committed: LogPosition | null = null;
  const waiters = new Set<() => void>();
  const database = readDatabaseOf(options);
  const announcer =
    options.bus &&
    createAnnouncer({
      bus: options.bus,
      read: (runIds) => readProgress(database.sql(), runIds),
      onPublishError: options.onPublishError,
      retryMs: options.retryDelayMs ?? 1_000,
    });

  /** The batch in one transaction; refused as a whole, again event by event (projection/rejections.ts). */
  async function applyRejecting(events: RecordedEvent[]): Promise<BatchOutcome> {
    try {
      return await database.transaction((sql) => applyInTransaction(sql, events, applyOptions));
    } catch (error) {
      if (!isRefusal(error)) throw error;
      const { outcome, rejected } = await database.transaction((sql) => applyEventByEvent(sql, events, applyOptions));
      reportRejections(rejected, options.onReject);
      return outcome;
    }
  }

  async function apply(events: RecordedEvent[]): Promise<BatchOutcome> {
    const outcome = await applyRejecting(events);
    if (outcome.checkpoint) committed = outcome.checkpoint;
    for (const wake of [...waiters]) wake();
    options.onBatch?.(outcome);
    await announcer?.publish(outcome.progress);
    return outcome;
  }

  async function checkpoint(): Promise<LogPosition | null> {
    return readCheckpoint(database.sql(), name);
  }

  async function follow(signal: AbortSignal): Promise<void> {
    await checkSameLog(database.sql(), options.store, name);
    await rebuildIfStale();
    // What the last process committed but may have died before publishing (see announcer.ts).
    await announcer?.announce(await runsToAnnounce(database.sql()));
    const after = (await checkpoint()) ?? undefined;
    const weight = { of: countedBytes, max: options.maxBatchBytes ?? DEFAULT_MAX_PAGE_BYTES };
    for await (const events of batchesOf(options.store.subscribeAll({ after, signal }), batchSize, options.gatherMs ?? 0, weight)) {
      await apply(events);
      if (signal.aborted) return;
    }
  }

  async function followWithRetry(signal: AbortSignal): Promise<void> {
    const delay = options.retryDelayMs === undefined ? 1_000 : options.retryDelayMs;
    for (;;) {
      try {
        return await follow(signal);
      } catch (error) {
        if (signal.aborted) return;
        if (delay === null || isDomainError(error) || isForGood(error)) throw error;
        options.onRetry?.(error);
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (signal.aborted) return;
      }
    }
  }

  async function catchUp(onProgress?: (applied: number) => void): Promise<number> {
    let applied = 0;
    await checkSameLog(database.sql(), options.store, name);
    const rebuilt = await rebuildIfStale(onProgress);
    if (rebuilt !== null) return rebuilt;
    let after = (await checkpoint()) ?? undefined;
    for (;;) {
      // A page may be cut short by the store's byte budget: only an empty one ends the log.
      const events = await options.store.readAll({ after, limit: batchSize });
      if (events.length === 0) return applied;
      applied += (await apply(events)).applied;
      onProgress?.(applied);
      after = events[events.length - 1].position;
    }
  }

  /**
   * One transaction: readers keep the old rows until the rebuilt ones commit, and a projector
   * following the same read database waits on the truncation's lock, then resumes from the
   * rebuilt checkpoint (every batch compares with the stored one), so nothing is lost or doubled.
   * A batch the database refuses aborts the transaction; the rebuild starts again and takes that
   * batch event by event (behind a savepoint each), so the refused event is recorded and passed
   * over. Only such batches get savepoints: thousands of them in one transaction would slow
   * every other reader of a PostgreSQL server for as long as the rebuild runs.
   */
  async function rebuild(onProgress?: (applied: number) => void, onlyIfStale = false): Promise<number> {
    if (options.logSharesDatabase) return rebuildBatchByBatch(onProgress);
    const refusedBatches = new Set<string>();
    for (;;) {
      let current: string | null = null;
      try {
        const { applied, last, rejected } = await database.transaction(async (sql) => {
          // Two projectors starting at once on stale read models: the second waits here, then
          // finds them current (READ COMMITTED) and rebuilds nothing.
          await sql.execute("SELECT pg_advisory_xact_lock(hashtext(?))", [`verdict_projector_rebuild:${name}`]);
          if (onlyIfStale && !(await projectionState(sql, name)).stale) return { applied: 0, last: await readCheckpoint(sql, name), rejected: [] };
          await sql.execute(`TRUNCATE ${READ_MODEL_TABLES.map((t) => t.name).join(", ")}`);
          await sql.execute("DELETE FROM projector_checkpoints WHERE name = ?", [name]);
          await sql.execute("DELETE FROM projector_rejections WHERE name = ?", [name]);
          const refusals: RejectedEvent[] = [];
          let count = 0;
          let after: LogPosition | undefined;
          for (;;) {
            const events = await options.store.readAll({ after, limit: batchSize });
            if (events.length === 0) return { applied: count, last: after ?? null, rejected: refusals };
            current = positionKey(events[0].position);
            if (refusedBatches.has(current)) {
              const byEvent = await applyEventByEvent(sql, events, applyOptions);
              count += byEvent.outcome.applied;
              refusals.push(...byEvent.rejected);
            } else {
              count += (await applyInTransaction(sql, events, applyOptions)).applied;
            }
            onProgress?.(count);
            after = events[events.length - 1].position;
          }
        });
        committed = last;
        for (const wake of [...waiters]) wake();
        reportRejections(rejected, options.onReject);
        return applied;
      } catch (error) {
        if (!isRefusal(error) || current === null || refusedBatches.has(current)) throw error;
        refusedBatches.add(current);
      }
    }
  }

  /**
   * Read models another projection version made are rebuilt from the log before anything is
   * applied over them (null: they were current). Never from an empty log: that would empty them.
   * Embedded (logSharesDatabase), the home's lock keeps any other process out; on PostgreSQL the
   * rebuild is one transaction, as `projector rebuild`'s, so readers never see half of it.
   */
  async function rebuildIfStale(onProgress?: (applied: number) => void): Promise<number | null> {
    const state = await projectionState(database.sql(), name);
    if (!state.stale) return null;
    if ((await options.store.readAll({ limit: 1 })).length === 0) throw new StaleReadModelsOfEmptyLogError(state);
    options.onStaleProjection?.(state);
    return rebuild(onProgress, true);
  }

  async function rebuildBatchByBatch(onProgress?: (applied: number) => void): Promise<number> {
    await database.transaction(async (sql) => {
      await sql.execute(`TRUNCATE ${READ_MODEL_TABLES.map((t) => t.name).join(", ")}`);
      await sql.execute("DELETE FROM projector_checkpoints WHERE name = ?", [name]);
      await sql.execute("DELETE FROM projector_rejections WHERE name = ?", [name]);
    });
    committed = null;
    return catchUp(onProgress);
  }

  function waitFor(position: LogPosition, timeoutMs = 10_000, readStored = true): Promise<void> {
    if (committed && comparePositions(committed, position) >= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (committed && comparePositions(committed, position) >= 0) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`projector ${name} did not reach log position ${position.commit}/${position.prepare} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      if (!readStored) return;
      void checkpoint().then((stored) => {
        if (stored && (!committed || comparePositions(stored, committed) > 0)) committed = stored;
        check();
      }, reject);
    });
  }

  return {
    start() {
      if (running) return;
      announcer?.resume();
      controller = new AbortController();
      running = followWithRetry(controller.signal);
      running.catch(() => undefined); // observed by stop()
    },
    async stop() {
      const loop = running;
      controller?.abort();
      announcer?.stop();
      controller = null;
      running = null;
      if (loop) await loop;
    },
    catchUp,
    rebuild: (onProgress) => rebuild(onProgress),
    checkpoint,
    waitFor,
    committedUpTo: (position, timeoutMs) => waitFor(position, timeoutMs, false),
    get running() {
      return running;
    },
    get committed() {
      return committed;
    },
  };
}

/** Errors a retry cannot fix: the loop stops on them. */
const isForGood = (error: unknown): boolean =>
  error instanceof ReadModelsOfAnotherLogError || error instanceof ProjectionVersionChangedError || error instanceof StaleReadModelsOfEmptyLogError;

/** A log position as a key: the same batch in every attempt of a rebuild starts at the same one. */
const positionKey = (position: LogPosition): string => `${position.commit}/${position.prepare}`;

function readDatabaseOf(options: ProjectorOptions): SqlDatabase {
  if (options.database) return options.database;
  if (options.orm) return ormDatabase(options.orm);
  throw new Error("createProjector: give it the read database (database) or MikroORM on it (orm)");
}
