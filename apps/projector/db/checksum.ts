// A digest of every read-model row, table by table in key order: two databases projected from
// the same log (live, restarted mid-stream, or rebuilt) must give the same digests.
import type { Sql } from "./sql.js";
import { READ_MODEL_TABLES, type ReadModelTable } from "./tables.js";

export type ReadModelChecksum = Record<ReadModelTable, { rows: number; md5: string }>;

export async function readModelChecksum(sql: Sql): Promise<ReadModelChecksum> {
  const out = {} as ReadModelChecksum;
  for (const table of READ_MODEL_TABLES) {
    const [row] = await sql.execute<{ rows: string; md5: string | null }>(
      `SELECT count(*) AS rows, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY ${table.orderBy}), '')) AS md5 FROM ${table.name} t`,
    );
    out[table.name] = { rows: Number(row.rows), md5: row.md5 ?? "" };
  }
  return out;
}
