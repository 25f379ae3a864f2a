// Rebuilding the read models from the log: the `projector rebuild` command's, and what start()
// and catchUp() do first when the stored read models are of another projection version.
import type { EventStore, LogPosition } from "@verdict/domain";
import { LIFT_QUERY_DEADLINE } from "@verdict/infra/pg";
import type { Sql, SqlDatabase } from "./db/sql.js";
import { READ_MODEL_TABLES } from "./db/tables.js";
import { applyInTransaction, type ApplyOptions, type BatchOptions } from "./projection/applyBatch.js";
import { lockFirstCheckpoint, readCheckpoint } from "./projection/checkpoint.js";
import { raiseRebuildGeneration } from "./projection/rebuildGeneration.js";
import { projectionState, StaleReadModelsOfEmptyLogError } from "./projection/projectionVersion.js";
import { readModelsHoldRows, RebuildFromEmptyLogError } from "./projection/emptyLogRebuild.js";
import { firstEventOf } from "./projection/sameLog.js";
import { applyEventByEvent, isRefusal, reportRejections, type RejectedEvent } from "./projection/rejections.js";
import type { CommittedPosition } from "./committedPosition.js";
import type { ProjectorOptions } from "./projector.js";

export interface RebuildContext {
  name: string;
  store: EventStore;
  database: SqlDatabase;
  batchSize: number;
  applyOptions: ApplyOptions;
  options: Pick<ProjectorOptions, "logSharesDatabase" | "onReject" | "onStaleProjection">;
  committed: CommittedPosition;
  /** Applies the log from the stored checkpoint on: the embedded rebuild's, after clearing. */
  catchUp: (onProgress?: (applied: number) => void) => Promise<number>;
}

export interface ProjectorRebuild {
  rebuild(onProgress?: (applied: number) => void): Promise<number>;
  rebuildIfStale(onProgress?: (applied: number) => void): Promise<number | null>;
}

export function projectorRebuild(context: RebuildContext): ProjectorRebuild {
  const { name, store, database, batchSize, applyOptions, options, committed } = context;

  /**
   * One transaction: readers keep the old rows until the rebuilt ones commit, and a projector
   * following the same read database waits on the checkpoint row's lock (its batch locks the
   * row, FOR UPDATE), then resumes from the rebuilt checkpoint (every batch compares with the
   * stored one, read again when the row it waited on was deleted), so nothing is lost or doubled.
   * A batch the database refuses aborts the transaction; the rebuild starts again and takes that
   * batch event by event (behind a savepoint each), so the refused event is recorded and passed
   * over. Only such batches get savepoints: thousands of them in one transaction would slow
   * every other reader of a PostgreSQL server for as long as the rebuild runs.
   */
  async function rebuild(onProgress?: (applied: number) => void, onlyIfStale = false): Promise<number> {
    // Asked before the transaction: embedded, the log shares the read models' one session.
    const logEmpty = (await firstEventOf(store)) === null;
    if (options.logSharesDatabase) return rebuildBatchByBatch(onProgress, logEmpty);
    const refusedBatches = new Set<string>();
    for (;;) {
      let current: string | null = null;
      try {
        const { applied, last, rejected } = await database.transaction(async (sql) => {
          // Maintenance: no query deadline in this transaction (infra/pg/queryDeadline.ts). Its
          // truncation waits for readers to let the tables go, and the lock below for another
          // projector's whole rebuild. Its batches' reads of the log keep the log's deadline.
          await sql.execute(LIFT_QUERY_DEADLINE);
          // Two projectors starting at once on stale read models: the second waits here, then
          // finds them current (READ COMMITTED) and rebuilds nothing.
          await sql.execute("SELECT pg_advisory_xact_lock(hashtext(?))", [`verdict_projector_rebuild:${name}`]);
          // A following projector's batch on read models with no checkpoint yet holds this until
          // it commits; one that comes after waits for the whole rebuild, then reads its checkpoint.
          await lockFirstCheckpoint(sql, name);
          if (onlyIfStale && !(await projectionState(sql, name)).stale) return { applied: 0, last: await readCheckpoint(sql, name), rejected: [] };
          await refuseEmptying(sql, logEmpty);
          await clearReadModels(sql, name);
          const refusals: RejectedEvent[] = [];
          let count = 0;
          let after: LogPosition | undefined;
          let batchOptions: BatchOptions | undefined;
          for (;;) {
            const events = await store.readAll({ after, limit: batchSize });
            if (events.length === 0) return { applied: count, last: after ?? null, rejected: refusals };
            current = positionKey(events[0].position);
            // Read from the log's start: the first batch's first event is the log's.
            batchOptions ??= { ...applyOptions, logFirstEvent: events[0].id };
            if (refusedBatches.has(current)) {
              const byEvent = await applyEventByEvent(sql, events, batchOptions);
              count += byEvent.outcome.applied;
              refusals.push(...byEvent.rejected);
            } else {
              count += (await applyInTransaction(sql, events, batchOptions)).applied;
            }
            onProgress?.(count);
            after = events[events.length - 1].position;
          }
        });
        committed.position = last;
        committed.wakeWaiters();
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
    if ((await store.readAll({ limit: 1 })).length === 0) throw new StaleReadModelsOfEmptyLogError(state);
    options.onStaleProjection?.(state);
    return rebuild(onProgress, true);
  }

  /**
   * The generation is raised with the truncation and again once the log is applied: rows read
   * between the two are partial, and a cache that kept one then forgets it at the second.
   */
  async function rebuildBatchByBatch(onProgress: ((applied: number) => void) | undefined, logEmpty: boolean): Promise<number> {
    await database.transaction(async (sql) => {
      await refuseEmptying(sql, logEmpty);
      await clearReadModels(sql, name);
    });
    committed.position = null;
    const applied = await context.catchUp(onProgress);
    await database.transaction(raiseRebuildGeneration);
    return applied;
  }

  return { rebuild: (onProgress) => rebuild(onProgress), rebuildIfStale };
}

/** Refuses, before anything is written, to empty read models that hold rows by rebuilding from an empty log. */
async function refuseEmptying(sql: Sql, logEmpty: boolean): Promise<void> {
  if (logEmpty && (await readModelsHoldRows(sql))) throw new RebuildFromEmptyLogError();
}

/**
 * Empties every read model, and the projector's checkpoint and recorded rejections: the log is
 * applied again from its start. Raises the rebuild generation in the same transaction, so caches
 * of finished runs forget rows the rebuild may change (projection/rebuildGeneration.ts).
 */
async function clearReadModels(sql: Sql, name: string): Promise<void> {
  await sql.execute(`TRUNCATE ${READ_MODEL_TABLES.map((t) => t.name).join(", ")}`);
  await raiseRebuildGeneration(sql);
  await sql.execute("DELETE FROM projector_checkpoints WHERE name = ?", [name]);
  await sql.execute("DELETE FROM projector_rejections WHERE name = ?", [name]);
}

/** A log position as a key: the same batch in every attempt of a rebuild starts at the same one. */
const positionKey = (position: LogPosition): string => `${position.commit}/${position.prepare}`;
