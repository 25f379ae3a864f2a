// A run's average score (reference-platform §1 #25 `average_score`, §2.2): the mean of each
// criterion's headline score, where a criterion's headline over several models is the mean of
// its per-model means (the reference's cohort map), a criterion nothing scored is skipped, and
// `_`-prefixed keys are never criteria. Three decimals; null when nothing is scorable.
//
// Computed from the results' own `scores`, which every run's rows hold (engine, external and
// imported alike), rather than stored: no new column, no projection version, and a run still
// running answers what it has scored so far, as its progress does.
import type { Sql } from "../db/sql.js";

const AVERAGE_SCORE_SQL = `
  WITH per_model AS (
    SELECT s.key AS criterion, r.model_label, avg((s.value)::float8) AS mean
    FROM results r, jsonb_each(CASE WHEN jsonb_typeof(r.scores) = 'object' THEN r.scores ELSE '{}'::jsonb END) s
    WHERE r.tenant = ? AND r.run_id = ? AND left(s.key, 1) <> '_' AND jsonb_typeof(s.value) = 'number'
    GROUP BY s.key, r.model_label
  ), headline AS (
    SELECT criterion, avg(mean) AS score FROM per_model GROUP BY criterion
  )
  SELECT round(avg(score)::numeric, 3)::float8 AS average FROM headline`;

/** The run's average score as §2.2 defines it, or null (no criterion scored, or no such run of the tenant's). */
export async function runAverageScore(sql: Sql, tenant: string, runId: string): Promise<number | null> {
  const [row] = await sql.execute<{ average: number | null }>(AVERAGE_SCORE_SQL, [tenant, runId]);
  return row?.average ?? null;
}
