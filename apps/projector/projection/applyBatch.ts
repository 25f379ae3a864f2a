// One batch: every event after the stored checkpoint is applied and the checkpoint moves to the
// last one, in ONE transaction. An event at or before the checkpoint (a redelivery) is skipped,
// so reapplying changes nothing. Progress of the runs the batch touched is read inside the
// transaction and handed back for publishing after the commit.
import { eventRegistry, UnknownEventTypeError, type DomainEvent, type EventRegistry, type LogPosition, type RecordedEvent } from "@verdict/domain";
import type { EntityManager } from "@mikro-orm/postgresql";
import { sqlOf, transactional, type Sql } from "../db/sql.js";
import { LATEST_RESULT_SQL, type LatestResult, type RunProgress } from "../progress/progress.js";
import { Batch, type Envelope } from "./batch.js";
import { comparePositions } from "@verdict/infra/eventstore";
import { lockFirstCheckpoint, readStoredCheckpoint, writeCheckpoint, type StoredCheckpoint } from "./checkpoint.js";
import { CheckpointGoneError, ReadModelsOfAnotherLogError } from "./sameLog.js";
import { dispatch } from "./dispatch.js";
import { flushResults, recountRuns } from "./resultProjection.js";
import { computeModelSummaries } from "./runSummary.js";

export interface UnknownEvent {
  type: string;
  streamId: string;
  streamVersion: bigint;
  position: LogPosition;
}

export interface ApplyOptions {
  /** Checkpoint name (one per projector). */
  name: string;
  /** Skip (and report) events of types this code does not know, instead of stopping. */
  skipUnknown?: boolean;
  onUnknown?: (event: UnknownEvent) => void;
  registry?: EventRegistry;
}

/** One batch's options: the projector's, and the log the batch was read from. */
export interface BatchOptions extends ApplyOptions {
  /**
   * The id of the first event of the log the batch was read from (sameLog.ts). A batch that
   * finds no checkpoint names the log by it only when the batch starts with that very event.
   */
  logFirstEvent: string;
}

export interface BatchOutcome {
  applied: number;
  /** Already applied (at or before the checkpoint) or unknown and skipped. */
  skipped: number;
  checkpoint: LogPosition | null;
  progress: RunProgress[];
}

// A pair's events are most of a run's log (two per scenario x model) and were validated when
// appended, as every append is (domain/events/toAppend.ts): at the current schema version they
// are taken as stored instead of parsed again, as the dispatcher takes them. Older versions are
// still upcast and parsed, and every other event is parsed. Every append has stored the schema's
// output, defaults included, since the schemas' first version; a change to them at the same
// version would break this (domain/events/pairSchemas.test.ts refuses one).
const PAIR_EVENTS = new Set(["ReplayRecorded", "ResultScored"]);

function takenAsStored(recorded: RecordedEvent, registry: EventRegistry): boolean {
  return PAIR_EVENTS.has(recorded.type) && recorded.schemaVersion === registry.currentVersion(recorded.type);
}

function eventOf(recorded: RecordedEvent, registry: EventRegistry): DomainEvent {
  if (takenAsStored(recorded, registry)) return { type: recorded.type, data: recorded.data } as DomainEvent;
  return registry.parseRecorded(recorded);
}

function envelopeOf(recorded: RecordedEvent, event: DomainEvent): Envelope {
  const data = event.data as { tenant?: unknown };
  const tenant = String(recorded.metadata.tenant ?? data.tenant ?? "");
  const recordedAt = recorded.metadata.recorded_at;
  return { recorded, event, tenant, at: typeof recordedAt === "string" ? recordedAt : recorded.recordedAt.toISOString() };
}

/**
 * Applies one event. A pair event taken as stored that the projection cannot handle (a
 * TypeError: a shape its schema reads but the handler does not, such as a key the schema
 * defaults left out by a writer other than the append) is read through its schema and applied
 * as read: one that reads projects as the parse gives it; one that does not fails as an
 * UnreadableEventError naming where it is (recorded and passed over, rejections.ts) instead of
 * a TypeError retried for ever. A failed handler leaves nothing behind to apply twice: the pair
 * handlers push their row only once every field is computed, and what the failed attempt added
 * to the batch's rows is dropped regardless.
 */
async function dispatchReadable(sql: Sql, recorded: RecordedEvent, registry: EventRegistry, batch: Batch): Promise<void> {
  const replays = batch.replays.length;
  const scores = batch.scores.length;
  try {
    await dispatch(sql, envelopeOf(recorded, eventOf(recorded, registry)), batch);
  } catch (error) {
    if (!(error instanceof TypeError) || !takenAsStored(recorded, registry)) throw error;
    const parsed = registry.parseRecorded(recorded);
    batch.replays.length = replays;
    batch.scores.length = scores;
    await dispatch(sql, envelopeOf(recorded, parsed), batch);
  }
}

export async function applyBatch(em: EntityManager, events: readonly RecordedEvent[], options: BatchOptions): Promise<BatchOutcome> {
  return transactional(em, (tx) => applyInTransaction(sqlOf(tx), events, options));
}

/** The batch's work on a connection already inside a transaction (rebuild runs many in one). */
export async function applyInTransaction(sql: Sql, events: readonly RecordedEvent[], options: BatchOptions): Promise<BatchOutcome> {
  const registry = options.registry ?? eventRegistry;
  let checkpoint = (await checkpointOfThisLog(sql, events, options))?.position ?? null;
  // No checkpoint yet: this batch starts with the log's first event (checked), which names the log.
  const firstOfLog = checkpoint === null ? options.logFirstEvent : null;
  const batch = new Batch();
  let applied = 0;
  let skipped = 0;
  for (const recorded of events) {
    if (checkpoint && comparePositions(recorded.position, checkpoint) <= 0) {
      skipped += 1;
      continue;
    }
    if (!registry.has(recorded.type)) {
      if (!options.skipUnknown) throw new UnknownEventTypeError(recorded.type, recorded.streamId, recorded.streamVersion, recorded.position);
      options.onUnknown?.({ type: recorded.type, streamId: recorded.streamId, streamVersion: recorded.streamVersion, position: recorded.position });
      skipped += 1;
    } else {
      await dispatchReadable(sql, recorded, registry, batch);
      applied += 1;
    }
    checkpoint = recorded.position;
  }
  const recount = await flushResults(sql, batch);
  for (const runId of batch.summariesToCompute) await computeModelSummaries(sql, runId);
  await recountRuns(sql, recount);
  const touched = [...new Set([...batch.touchedRuns, ...batch.resultRuns])].sort();
  if (checkpoint) await writeCheckpoint(sql, options.name, checkpoint, firstOfLog);
  return { applied, skipped, checkpoint, progress: await readProgress(sql, touched, batch.latestResult) };
}

/**
 * The stored checkpoint, locked for the batch, once it is known to belong to the batch's log.
 * Taking "no checkpoint" for "this batch is the log's beginning" let a live projector, whose
 * checkpoint a rebuild from an empty log had deleted, name its log by a mid-log event; its own
 * next start then refused the read models as another log's. A checkpoint another log's rebuild
 * wrote meanwhile would have had this log's events compared with that log's positions.
 */
async function checkpointOfThisLog(sql: Sql, events: readonly RecordedEvent[], options: BatchOptions): Promise<StoredCheckpoint | null> {
  let stored = await readStoredCheckpoint(sql, options.name, true);
  if (stored === null) {
    // No row to lock: the first writer on a new read database holds this lock until it commits
    // (lockFirstCheckpoint). Read again in a new statement, which sees a checkpoint another writer
    // committed meanwhile: that writer's, or a rebuild's that committed while this statement
    // waited on the row it had deleted (READ COMMITTED skips the deleted row).
    await lockFirstCheckpoint(sql, options.name);
    stored = await readStoredCheckpoint(sql, options.name, true);
    if (stored === null && events.length > 0 && events[0].id !== options.logFirstEvent) throw new CheckpointGoneError(options.name);
  }
  if (stored?.logFirstEvent && stored.logFirstEvent !== options.logFirstEvent) throw new ReadModelsOfAnotherLogError(stored.logFirstEvent, options.logFirstEvent);
  return stored;
}

/** The runs' progress as the read models hold it; `latest` gives the result a batch just scored. */
export async function readProgress(sql: Sql, runIds: string[], latest: ReadonlyMap<string, LatestResult> = new Map()): Promise<RunProgress[]> {
  if (runIds.length === 0) return [];
  const rows = await sql.execute<Omit<RunProgress, "latest_result">>(
    `SELECT id AS run_id, tenant, status, total, completed, passed, failed, errored FROM runs
     WHERE id IN (SELECT jsonb_array_elements_text(?::jsonb)) ORDER BY id COLLATE "C"`,
    [JSON.stringify(runIds)],
  );
  const progress: RunProgress[] = [];
  for (const row of rows) {
    // A batch that scored none of the run's pairs (its start, its completion) still names the
    // last result scored, as a subscription's first message and the `progress` query do.
    const result = latest.get(row.run_id) ?? (await sql.execute<LatestResult>(LATEST_RESULT_SQL, [row.run_id]))[0] ?? null;
    progress.push({ ...row, latest_result: result });
  }
  return progress;
}
