// Read models belong to one event log. A read database projected from one log and then pointed at
// another (a new VERDICT_HOME beside the same VERDICT_READ_DATABASE_URL) kept its checkpoint: the
// projector skipped every event of the new log up to that position, and `verdict start` failed on
// an evaluation it had just made. The checkpoint names its log by the id of the log's first event
// (written with the first checkpoint, checkpoint.ts); a projector refuses to follow another log,
// and a checkpoint past this log's end (the log restored from an older backup than the read models).
import type { EventStore, LogPosition } from "@verdict/domain";
import { comparePositions } from "@verdict/infra/eventstore";
import type { Sql } from "../db/sql.js";
import { readStoredCheckpoint } from "./checkpoint.js";

export class ReadModelsOfAnotherLogError extends Error {
  constructor(projectedFrom: string | null, thisLog: string | null) {
    super(thisLog === null ? emptyLogRefusal(projectedFrom) : anotherLogRefusal(projectedFrom, thisLog));
    this.name = "ReadModelsOfAnotherLogError";
  }
}

function anotherLogRefusal(projectedFrom: string | null, thisLog: string): string {
  return (
    `the read database holds read models of another event log (projected from the log whose first event is ${projectedFrom ?? "unknown"}; ` +
    `this log's first event is ${thisLog}), so following this log from that checkpoint would skip its events. ` +
    "Rebuild them from this log (`npm run projector -- rebuild`), or point VERDICT_READ_DATABASE_URL at this log's read database"
  );
}

/**
 * An empty log beside read models is most likely the wrong database: recommending `rebuild`
 * here had an operator empty a live install's read models (the walk of session 40).
 */
function emptyLogRefusal(projectedFrom: string | null): string {
  return (
    `the read database holds read models of another event log (projected from the log whose first event is ${projectedFrom ?? "unknown"}), ` +
    "and this event log (DATABASE_URL, or VERDICT_HOME when it is unset) is empty: likely the wrong database. " +
    "Point DATABASE_URL at the log those read models were projected from, or VERDICT_READ_DATABASE_URL at this log's read database; nothing was changed"
  );
}

/**
 * The checkpoint this projector was following from vanished under it: another process emptied
 * the read database (a rebuild from an empty log, a manual TRUNCATE). Projecting on would take
 * the next event for the log's first and name the log by it; the projector stops instead.
 */
export class CheckpointGoneError extends Error {
  constructor(name: string) {
    super(
      `the projector's checkpoint (${name}) is gone from the read database while it followed the log: another process emptied or rebuilt the read models. ` +
        "Stopped rather than project the rest of the log as if it were all of it; start the projector again to project this log from its start",
    );
    this.name = "CheckpointGoneError";
  }
}

/**
 * The checkpoint is past this log's last event: the read models hold events the log has lost.
 * Separate event and read databases restored from backups of different times (the log's older)
 * had the projector follow on from there, so the next run took the number of one the read models
 * already held, and a run the log never had was served as COMPLETED.
 */
export class ReadModelsAheadOfLogError extends Error {
  constructor(name: string, checkpoint: LogPosition, last: LogPosition) {
    super(
      `the read database's checkpoint (${name}) is at ${positionText(checkpoint)}, past this event log's last event (${positionText(last)}): ` +
        "the read models hold events this log does not, likely because the event log was restored from a backup older than the read database's. " +
        "Rebuild them from this log (`npm run projector -- rebuild`; API keys, kept in the read database too, stay as they are); nothing was changed",
    );
    this.name = "ReadModelsAheadOfLogError";
  }
}

const positionText = (position: LogPosition): string => `${position.commit}/${position.prepare}`;

/** The id of the log's first event, null while the log is empty. */
export async function firstEventOf(store: EventStore): Promise<string | null> {
  const [first] = await store.readAll({ limit: 1 });
  return first?.id ?? null;
}

/**
 * Throws ReadModelsOfAnotherLogError when the checkpoint `name` was projected from a log other
 * than `store`'s, ReadModelsAheadOfLogError when it is past this log's last event; returns the
 * id of this log's first event (null: the log is empty).
 */
export async function checkSameLog(sql: Sql, store: EventStore, name: string): Promise<string | null> {
  // The checkpoint first, the log's end after: a projector beside this one may move the
  // checkpoint meanwhile, but only to an event the log showed it, so never past a later look.
  const stored = await readStoredCheckpoint(sql, name);
  const first = await firstEventOf(store);
  if (!stored) return first; // nothing projected yet: any log may start it
  const projectedFrom = stored.logFirstEvent;
  if (projectedFrom === null && first) {
    // A checkpoint written before checkpoints named their log: it takes the log it follows now.
    await checkNotAhead(store, name, stored.position);
    await sql.execute("UPDATE projector_checkpoints SET log_first_event = ? WHERE name = ? AND log_first_event IS NULL", [first, name]);
    return first;
  }
  if (first === null || first !== projectedFrom) throw new ReadModelsOfAnotherLogError(projectedFrom, first);
  await checkNotAhead(store, name, stored.position);
  return first;
}

/**
 * A checkpoint is the position of an event read from this log, and the log's visible end only
 * moves forwards (one PostgreSQL server's reading bound, PGlite's and the memory store's
 * committed appends): a healthy projector's is at or before it. Past it, the log lost events.
 */
async function checkNotAhead(store: EventStore, name: string, checkpoint: LogPosition): Promise<void> {
  const last = await store.lastPosition();
  if (last && comparePositions(checkpoint, last) <= 0) return;
  throw new ReadModelsAheadOfLogError(name, checkpoint, last ?? { commit: 0n, prepare: 0n });
}
