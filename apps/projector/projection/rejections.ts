// An event the read database refuses for what it holds, not for how the database is doing: a
// data exception (SQLSTATE class 22: text it cannot store, a number out of range), a constraint
// (23) or a size limit (54). Retrying such an event fails the same way forever, and the projector
// stopped there, holding back every read model behind it. It is now recorded in
// projector_rejections with the checkpoint moved past it, in one transaction, and the projector
// goes on. Anything else (a lost connection, a restarting database) is still retried.
// An event this code cannot read (UnreadableEventError: its data fails the schema) is passed over
// the same way, with no SQLSTATE: retrying it fails the same way too, and it stopped the projector.
import { UnreadableEventError, type LogPosition, type RecordedEvent } from "@verdict/domain";
import type { Sql } from "../db/sql.js";
import type { RunProgress } from "../progress/progress.js";
import { applyInTransaction, type BatchOptions, type BatchOutcome } from "./applyBatch.js";
import { readCheckpoint, writeCheckpoint } from "./checkpoint.js";
import { comparePositions } from "@verdict/infra/eventstore";

const REFUSAL_CLASSES = new Set(["22", "23", "54"]);

/** The SQLSTATE of a database error (pg and PGlite both carry it as `code`), else null. */
function sqlStateOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** Whether the read database refused what it was given (retrying cannot help), rather than failed. */
export function isRefusal(error: unknown): boolean {
  if (error instanceof UnreadableEventError) return true;
  const state = sqlStateOf(error);
  return state !== null && REFUSAL_CLASSES.has(state.slice(0, 2));
}

export interface RejectedEvent {
  type: string;
  streamId: string;
  streamVersion: bigint;
  position: LogPosition;
  sqlState: string;
  error: string;
}

/**
 * Records `event` as refused and moves the checkpoint past it (unless it already is): call inside
 * a transaction. The error's message only: the database's text, never the event's data.
 */
async function rejectEvent(sql: Sql, options: BatchOptions, event: RecordedEvent, error: unknown): Promise<RejectedEvent> {
  const name = options.name;
  const rejected: RejectedEvent = {
    type: event.type,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    position: event.position,
    sqlState: sqlStateOf(error) ?? "", // none for an event that does not read
    error: error instanceof UnreadableEventError ? error.reason : error instanceof Error ? error.message : String(error),
  };
  await sql.execute(
    `INSERT INTO projector_rejections (name, commit_position, prepare_position, stream_id, stream_version, type, sql_state, error)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    [name, event.position.commit.toString(), event.position.prepare.toString(), event.streamId, event.streamVersion.toString(), event.type, rejected.sqlState, rejected.error],
  );
  const checkpoint = await readCheckpoint(sql, name, true);
  // No checkpoint yet: the refused event is the log's first (applyInTransaction checked it before it was refused).
  if (!checkpoint || comparePositions(event.position, checkpoint) > 0) await writeCheckpoint(sql, name, event.position, checkpoint ? null : options.logFirstEvent);
  return rejected;
}

/** A batch applied event by event: what applied, and the events refused (to report once committed). */
interface EventByEventOutcome {
  outcome: BatchOutcome;
  rejected: RejectedEvent[];
}

/**
 * Applies `events` one at a time, each behind a savepoint, inside the caller's transaction: an
 * event the database refuses is rolled back alone and recorded (rejectEvent), the others apply.
 * For a batch that was refused as a whole, to find which of its events it was. The refusals are
 * returned, not reported: the caller tells of them once its transaction has committed.
 */
export async function applyEventByEvent(sql: Sql, events: readonly RecordedEvent[], options: BatchOptions): Promise<EventByEventOutcome> {
  const outcome: BatchOutcome = { applied: 0, skipped: 0, checkpoint: null, progress: [] };
  const rejected: RejectedEvent[] = [];
  const progress = new Map<string, RunProgress>();
  for (const event of events) {
    await sql.execute("SAVEPOINT projector_event");
    let one: BatchOutcome;
    try {
      one = await applyInTransaction(sql, [event], options);
      await sql.execute("RELEASE SAVEPOINT projector_event");
    } catch (error) {
      if (!isRefusal(error)) throw error;
      await sql.execute("ROLLBACK TO SAVEPOINT projector_event");
      rejected.push(await rejectEvent(sql, options, event, error));
      one = { applied: 0, skipped: 1, checkpoint: event.position, progress: [] };
    }
    outcome.applied += one.applied;
    outcome.skipped += one.skipped;
    outcome.checkpoint = one.checkpoint ?? outcome.checkpoint;
    // Each run's progress as its last event left it, with the latest result any event carried
    // (a run's last event may be its completion, which carries none).
    for (const run of one.progress) {
      const before = progress.get(run.run_id);
      progress.set(run.run_id, run.latest_result === null && before ? { ...run, latest_result: before.latest_result } : run);
    }
  }
  outcome.progress = [...progress.values()];
  return { outcome, rejected };
}

/** Tells `onReject` of each refusal, after its transaction committed; a failing listener never fails the projector. */
export function reportRejections(rejected: readonly RejectedEvent[], onReject: ((rejected: RejectedEvent) => void) | undefined): void {
  for (const one of rejected) {
    try {
      onReject?.(one);
    } catch {
      // The refusal is recorded in projector_rejections; the listener (a log line) is only told.
    }
  }
}

/** The log line for a refused event: where it is and the SQLSTATE, not the database's message (which may quote the event's data). */
export function rejectionLine(rejected: RejectedEvent): string {
  const at = `${rejected.position.commit}/${rejected.position.prepare}`;
  // Unreadable (no SQLSTATE): the schema's reason names fields and rules, not the event's values.
  if (rejected.sqlState === "") return `could not read ${rejected.type} in stream ${rejected.streamId} at ${at} (${rejected.error}); passed over, recorded in projector_rejections`;
  return `read database refused ${rejected.type} in stream ${rejected.streamId} at ${at} (SQLSTATE ${rejected.sqlState}); passed over, recorded in projector_rejections`;
}
