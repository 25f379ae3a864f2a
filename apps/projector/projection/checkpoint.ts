// The projector's position in the log, stored in the read database beside the rows it explains.
import type { LogPosition } from "@verdict/domain";
import type { Sql } from "../db/sql.js";
import { PROJECTION_VERSION, ProjectionVersionChangedError } from "./projectionVersion.js";

export async function readCheckpoint(sql: Sql, name: string, forUpdate = false): Promise<LogPosition | null> {
  return (await readStoredCheckpoint(sql, name, forUpdate))?.position ?? null;
}

export interface StoredCheckpoint {
  position: LogPosition;
  /** The id of the first event of the log it was projected from (null: written before 006). */
  logFirstEvent: string | null;
}

/** The checkpoint with the log it belongs to (sameLog.ts), locked for the batch when `forUpdate`. */
export async function readStoredCheckpoint(sql: Sql, name: string, forUpdate = false): Promise<StoredCheckpoint | null> {
  const rows = await sql.execute<{ commit: string; prepare: string; first: string | null }>(
    `SELECT commit_position::text AS commit, prepare_position::text AS prepare, log_first_event AS first FROM projector_checkpoints WHERE name = ?${forUpdate ? " FOR UPDATE" : ""}`,
    [name],
  );
  if (rows.length === 0) return null;
  return { position: { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) }, logFirstEvent: rows[0].first };
}

/**
 * Held by a writer that found no checkpoint row, until its transaction ends. A batch locks the
 * checkpoint row for its transaction (`FOR UPDATE`), so two writers take turns; but a new read
 * database has no row to lock, and two writers starting on it together (a second projector, a
 * rebuild) both applied the log's first events. The first to come holds this; the other waits,
 * then reads (in a new statement) the checkpoint the first committed.
 */
export async function lockFirstCheckpoint(sql: Sql, name: string): Promise<void> {
  await sql.execute("SELECT pg_advisory_xact_lock(hashtext(?))", [`verdict_projector_checkpoint:${name}`]);
}

/**
 * Moves the checkpoint to `position`. `firstOfLog` is the id of the log's first event, given by
 * the caller that projected from the log's start (no checkpoint before): it names the log the
 * read models came from (sameLog.ts), and is written only with the first checkpoint, as is the
 * projection version (projectionVersion.ts): the rows were all made by this code only if it
 * projected them from the log's start. A stored version not this code's means another projector
 * rebuilt the read models meanwhile: the batch is refused (its transaction rolls back).
 */
export async function writeCheckpoint(sql: Sql, name: string, position: LogPosition, firstOfLog: string | null = null): Promise<void> {
  const [row] = await sql.execute<{ version: number | null }>(
    `INSERT INTO projector_checkpoints (name, commit_position, prepare_position, log_first_event, projection_version) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET commit_position = excluded.commit_position, prepare_position = excluded.prepare_position
     RETURNING projection_version AS version`,
    [name, position.commit.toString(), position.prepare.toString(), firstOfLog, PROJECTION_VERSION],
  );
  const stored = row.version === null ? null : Number(row.version);
  if (stored !== PROJECTION_VERSION) throw new ProjectionVersionChangedError(stored);
}
