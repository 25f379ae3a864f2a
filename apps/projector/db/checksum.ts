// A digest of every read-model row, table by table in key order: two databases projected from
// the same log (live, restarted mid-stream, or rebuilt) must give the same digests.
import { LIFT_QUERY_DEADLINE } from "@verdict/infra/pg";
import type { SqlDatabase } from "./sql.js";
import { READ_MODEL_TABLES, type ReadModelTable } from "./tables.js";

export type ReadModelChecksum = Record<ReadModelTable, { rows: number; md5: string }>;

/**
 * The session settings a row's text depends on, fixed for the checksum's transaction: timestamptz
 * columns render in the session's TimeZone (and DateStyle), float8 ones with its
 * extra_float_digits, so two servers set differently gave different digests for the same rows.
 * The values are PostgreSQL's and PGlite's defaults: digests taken before on such a server are
 * unchanged.
 */
const CHECKSUM_SESSION_SETTINGS = ["SET LOCAL TimeZone = 'UTC'", "SET LOCAL DateStyle = 'ISO, MDY'", "SET LOCAL extra_float_digits = 1"] as const;

/**
 * Each row is hashed on its own and only the 32-character row digests are joined: joining the rows'
 * text made one value as large as the table, which past PostgreSQL's 1 GB value limit (106k
 * results with big answers) failed with "out of memory" after the rebuild had committed.
 */
export function tableDigestQuery(table: (typeof READ_MODEL_TABLES)[number]): string {
  return `SELECT count(*) AS rows, md5(coalesce(string_agg(md5(t::text), '' ORDER BY ${table.orderBy}), '')) AS md5 FROM ${table.name} t`;
}

/**
 * In one transaction, as `SET LOCAL` needs: outside one, each statement may take another pooled
 * connection. Without the query deadline (infra/pg/queryDeadline.ts): it reads every row, which
 * on a big read database takes longer than any ordinary query, and it is maintenance (`projector
 * rebuild` prints it once the rebuild has committed).
 */
export function readModelChecksum(database: SqlDatabase): Promise<ReadModelChecksum> {
  return database.transaction(async (sql) => {
    await sql.execute(LIFT_QUERY_DEADLINE);
    for (const setting of CHECKSUM_SESSION_SETTINGS) await sql.execute(setting);
    const out = {} as ReadModelChecksum;
    for (const table of READ_MODEL_TABLES) {
      const [row] = await sql.execute<{ rows: string; md5: string | null }>(tableDigestQuery(table));
      out[table.name] = { rows: Number(row.rows), md5: row.md5 ?? "" };
    }
    return out;
  });
}
