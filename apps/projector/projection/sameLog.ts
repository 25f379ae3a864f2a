// Read models belong to one event log. A read database projected from one log and then pointed at
// another (a new VERDICT_HOME beside the same VERDICT_READ_DATABASE_URL) kept its checkpoint: the
// projector skipped every event of the new log up to that position, and `verdict start` failed on
// an evaluation it had just made. The checkpoint names its log by the id of the log's first event
// (written with the first checkpoint, checkpoint.ts); a projector refuses to follow another log.
import type { EventStore } from "@verdict/domain";
import type { Sql } from "../db/sql.js";

export class ReadModelsOfAnotherLogError extends Error {
  constructor(projectedFrom: string | null, thisLog: string | null) {
    super(
      `the read database holds read models of another event log (projected from the log whose first event is ${projectedFrom ?? "unknown"}; ` +
        `this log's first event is ${thisLog ?? "none: it is empty"}), so following this log from that checkpoint would skip its events. ` +
        "Rebuild them from this log (`npm run projector -- rebuild`), or point VERDICT_READ_DATABASE_URL at this log's read database",
    );
    this.name = "ReadModelsOfAnotherLogError";
  }
}

/** Throws ReadModelsOfAnotherLogError when the checkpoint `name` was projected from a log other than `store`'s. */
export async function checkSameLog(sql: Sql, store: EventStore, name: string): Promise<void> {
  const rows = await sql.execute<{ first: string | null }>("SELECT log_first_event AS first FROM projector_checkpoints WHERE name = ?", [name]);
  if (rows.length === 0) return; // nothing projected yet: any log may start it
  const [first] = await store.readAll({ limit: 1 });
  const projectedFrom = rows[0].first;
  if (projectedFrom === null && first) {
    // A checkpoint written before checkpoints named their log: it takes the log it follows now.
    await sql.execute("UPDATE projector_checkpoints SET log_first_event = ? WHERE name = ? AND log_first_event IS NULL", [first.id, name]);
    return;
  }
  if (first?.id !== projectedFrom) throw new ReadModelsOfAnotherLogError(projectedFrom, first?.id ?? null);
}
