// Test support: result rows written straight into the read models (no projector), with the column
// types whose text the checksum hashes (jsonb, float8, bigint, timestamptz) and a large answer.
import type { Sql } from "../db/sql.js";

interface ResultRowSeed {
  n: number;
  answer: string;
  score?: number;
}

export async function insertResultRows(sql: Pick<Sql, "execute">, rows: readonly ResultRowSeed[]): Promise<void> {
  for (const row of rows) {
    await sql.execute(
      `INSERT INTO results (run_id, n, tenant, scenario_key, model_label, position, status, score, scores, answer, input_tokens, scenario, scored_at)
       VALUES ('r1', ?, 'acme', ?, 'gpt', ?, 'passed', ?, ?::jsonb, ?, 1234567890123, ?::jsonb, '2026-11-30T12:00:00.123Z')`,
      [row.n, `s${row.n}`, row.n, row.score ?? 0.1 + row.n / 3, JSON.stringify({ accuracy: 0.5, n: row.n }), row.answer, JSON.stringify({ key: `s${row.n}`, prompt: "why?" })],
    );
  }
}

/** Three rows, one with an answer of a megabyte. */
export const SEED_ROWS: readonly ResultRowSeed[] = [
  { n: 0, answer: "short" },
  { n: 1, answer: "é".repeat(512 * 1024) },
  { n: 2, answer: "last, with a\nnewline and a 'quote'" },
];
