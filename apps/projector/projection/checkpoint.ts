// The projector's position in the log, stored in the read database beside the rows it explains.
import type { LogPosition } from "@verdict/domain";
import type { Sql } from "../db/sql.js";

export async function readCheckpoint(sql: Sql, name: string, forUpdate = false): Promise<LogPosition | null> {
  const rows = await sql.execute<{ commit: string; prepare: string }>(
    `SELECT commit_position::text AS commit, prepare_position::text AS prepare FROM projector_checkpoints WHERE name = ?${forUpdate ? " FOR UPDATE" : ""}`,
    [name],
  );
  return rows.length ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : null;
}

export async function writeCheckpoint(sql: Sql, name: string, position: LogPosition): Promise<void> {
  await sql.execute(
    `INSERT INTO projector_checkpoints (name, commit_position, prepare_position) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET commit_position = excluded.commit_position, prepare_position = excluded.prepare_position`,
    [name, position.commit.toString(), position.prepare.toString()],
  );
}
