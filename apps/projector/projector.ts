// The projector: reads the log from its checkpoint (stored in the read database), applies events
// in batches (up to `batchSize`, or whatever is already available), each batch and its
// checkpoint in one transaction, then publishes progress for the runs the batch touched.
import { isDomainError, type EventStore, type LogPosition, type RecordedEvent } from "@verdict/domain";
import type { MikroORM } from "@mikro-orm/postgresql";
import { ormDatabase, type SqlDatabase } from "./db/sql.js";
import { applyInTransaction, readProgress, type ApplyOptions, type BatchOptions, type BatchOutcome } from "./projection/applyBatch.js";
import { countedBytes, DEFAULT_MAX_PAGE_BYTES } from "@verdict/infra/eventstore";
import { readCheckpoint } from "./projection/checkpoint.js";
import { CheckpointGoneError, checkSameLog, firstEventOf, ReadModelsAheadOfLogError, ReadModelsOfAnotherLogError } from "./projection/sameLog.js";
import { ProjectionVersionChangedError, StaleReadModelsOfEmptyLogError, type ProjectionState } from "./projection/projectionVersion.js";
import { applyEventByEvent, isRefusal, reportRejections, type RejectedEvent } from "./projection/rejections.js";
import type { ProgressBus } from "./progress/progress.js";
import { createAnnouncer, runsToAnnounce } from "./progress/announcer.js";
import { batchesOf } from "./batches.js";
import { CommittedPosition } from "./committedPosition.js";
import { projectorRebuild } from "./projectorRebuild.js";

export const DEFAULT_PROJECTOR_NAME = "read-models";

/**
 * The retry delay when none is given, for the loop and for the announcer's republish. Only the
 * loop's is turned off by null (`retryDelayMs`): the announcer still republishes a run whose
 * progress could not be published, or it would stay stale until the run's next batch.
 */
const DEFAULT_RETRY_DELAY_MS = 1_000;

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
   * stored checkpoint after this delay (default DEFAULT_RETRY_DELAY_MS; null stops the loop instead). Domain
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
  /**
   * Told when the loop has passed its checks at start (same log, projection version) and begins
   * following the log; again after each retry. A process said "following" before the checks,
   * then refused the read database.
   */
  onFollowing?: () => void;
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
  const committed = new CommittedPosition(name);
  const database = readDatabaseOf(options);
  const announcer =
    options.bus &&
    createAnnouncer({
      bus: options.bus,
      read: (runIds) => readProgress(database.sql(), runIds),
      onPublishError: options.onPublishError,
      retryMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
    });
  const { rebuild, rebuildIfStale } = projectorRebuild({ name, store: options.store, database, batchSize, applyOptions, options, committed, catchUp });

  let logFirstEvent: string | null = null;

  /**
   * The id of the log's first event, asked of the log once it has one (a log never loses its
   * first event): each batch is checked against it (applyBatch.ts). Asked outside the batch's
   * transaction: embedded, the log shares the read models' one session.
   */
  async function logOfBatch(): Promise<BatchOptions> {
    logFirstEvent ??= await firstEventOf(options.store);
    if (logFirstEvent === null) throw new Error("projector: a batch of events from a log that has none");
    return { ...applyOptions, logFirstEvent };
  }

  /** The batch in one transaction; refused as a whole, again event by event (projection/rejections.ts). */
  async function applyRejecting(events: RecordedEvent[]): Promise<BatchOutcome> {
    const batchOptions = await logOfBatch();
    try {
      return await database.transaction((sql) => applyInTransaction(sql, events, batchOptions));
    } catch (error) {
      if (!isRefusal(error)) throw error;
      const { outcome, rejected } = await database.transaction((sql) => applyEventByEvent(sql, events, batchOptions));
      reportRejections(rejected, options.onReject);
      return outcome;
    }
  }

  async function apply(events: RecordedEvent[]): Promise<BatchOutcome> {
    const outcome = await applyRejecting(events);
    if (outcome.checkpoint) committed.position = outcome.checkpoint;
    committed.wakeWaiters();
    options.onBatch?.(outcome);
    await announcer?.publish(outcome.progress);
    return outcome;
  }

  async function checkpoint(): Promise<LogPosition | null> {
    return readCheckpoint(database.sql(), name);
  }

  async function follow(signal: AbortSignal): Promise<void> {
    // The check reads the log's first event: kept, so the batches do not ask the log again (logOfBatch).
    const first = await checkSameLog(database.sql(), options.store, name);
    logFirstEvent ??= first;
    await rebuildIfStale();
    // What the last process committed but may have died before publishing (see announcer.ts).
    await announcer?.announce(await runsToAnnounce(database.sql()));
    const after = (await checkpoint()) ?? undefined;
    options.onFollowing?.();
    const weight = { of: countedBytes, max: options.maxBatchBytes ?? DEFAULT_MAX_PAGE_BYTES };
    // The subscription ends with this attempt. A batch that fails can leave its read of the next
    // events in flight, which batchesOf cannot end (the source is busy): it went on polling the
    // log, holding an abort listener on the projector's signal and the store's, one more per retry.
    const attempt = new AbortController();
    const end = () => attempt.abort();
    signal.addEventListener("abort", end, { once: true });
    if (signal.aborted) end();
    try {
      for await (const events of batchesOf(options.store.subscribeAll({ after, signal: attempt.signal }), batchSize, options.gatherMs ?? 0, weight)) {
        await apply(events);
        if (signal.aborted) return;
      }
    } finally {
      signal.removeEventListener("abort", end);
      attempt.abort();
    }
  }

  async function followWithRetry(signal: AbortSignal): Promise<void> {
    const delay = options.retryDelayMs === undefined ? DEFAULT_RETRY_DELAY_MS : options.retryDelayMs;
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
    // The check reads the log's first event: kept, so the batches do not ask the log again (logOfBatch).
    const first = await checkSameLog(database.sql(), options.store, name);
    logFirstEvent ??= first;
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
    rebuild,
    checkpoint,
    waitFor: (position, timeoutMs = 10_000) => committed.waitFor(position, timeoutMs, checkpoint),
    committedUpTo: (position, timeoutMs = 10_000) => committed.waitFor(position, timeoutMs, null),
    get running() {
      return running;
    },
    get committed() {
      return committed.position;
    },
  };
}

/** Errors a retry cannot fix: the loop stops on them. */
const isForGood = (error: unknown): boolean =>
  error instanceof ReadModelsOfAnotherLogError ||
  error instanceof ReadModelsAheadOfLogError ||
  error instanceof CheckpointGoneError ||
  error instanceof ProjectionVersionChangedError ||
  error instanceof StaleReadModelsOfEmptyLogError;

function readDatabaseOf(options: ProjectorOptions): SqlDatabase {
  if (options.database) return options.database;
  if (options.orm) return ormDatabase(options.orm);
  throw new Error("createProjector: give it the read database (database) or MikroORM on it (orm)");
}
