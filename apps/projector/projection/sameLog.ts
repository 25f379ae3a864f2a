// Read models belong to one event log. A read database projected from one log and then pointed at
// another (a new VERDICT_HOME beside the same VERDICT_READ_DATABASE_URL) kept its checkpoint: the
// projector skipped every event of the new log up to that position, and `verdict start` failed on
// an evaluation it had just made. The checkpoint names its log by the id of the log's first event
// (written with the first checkpoint, checkpoint.ts); a projector refuses to follow another log.
import type { EventStore } from "@verdict/domain";
import type { Sql } from "../db/sql.js";

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

/** The id of the log's first event, null while the log is empty. */
export async function firstEventOf(store: EventStore): Promise<string | null> {
  const [first] = await store.readAll({ limit: 1 });
  return first?.id ?? null;
}

/**
 * Throws ReadModelsOfAnotherLogError when the checkpoint `name` was projected from a log other
 * than `store`'s; returns the id of this log's first event (null: the log is empty).
 */
export async function checkSameLog(sql: Sql, store: EventStore, name: string): Promise<string | null> {
  const rows = await sql.execute<{ first: string | null }>("SELECT log_first_event AS first FROM projector_checkpoints WHERE name = ?", [name]);
  const first = await firstEventOf(store);
  if (rows.length === 0) return first; // nothing projected yet: any log may start it
  const projectedFrom = rows[0].first;
  if (projectedFrom === null && first) {
    // A checkpoint written before checkpoints named their log: it takes the log it follows now.
    await sql.execute("UPDATE projector_checkpoints SET log_first_event = ? WHERE name = ? AND log_first_event IS NULL", [first, name]);
    return first;
  }
  if (first === null || first !== projectedFrom) throw new ReadModelsOfAnotherLogError(projectedFrom, first);
  return first;
}
