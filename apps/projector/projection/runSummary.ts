// Run aggregates: model summaries and fix items as the completion recorded them (RunCompleted's
// summary or an imported report), or, when a completion carried no per-model figures, computed
// from the run's projected results: a pure function of its events, never a re-judge.
import { floatSum, nearestRanks, roundHalfAwayFromZero } from "@verdict/domain";
import type { Sql } from "../db/sql.js";

export function asObject(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export async function writeModelSummaries(sql: Sql, runId: string, tenant: string, byModel: Record<string, unknown>): Promise<void> {
  const rows = Object.entries(byModel).map(([label, value], position) => {
    const summary = asObject(value) ?? {};
    return {
      label, position, provider: typeof summary.provider === "string" ? summary.provider : null,
      model: typeof summary.model === "string" ? summary.model : null, pass_rate: num(summary.pass_rate), avg_score: num(summary.avg_score), summary,
    };
  });
  await sql.execute("DELETE FROM model_summaries WHERE run_id = ?", [runId]);
  if (rows.length === 0) return;
  await sql.execute(
    `INSERT INTO model_summaries (run_id, label, tenant, position, provider, model, pass_rate, avg_score, summary)
     SELECT ?, r.label, ?, r.position, r.provider, r.model, r.pass_rate, r.avg_score, r.summary
     FROM jsonb_to_recordset(?::jsonb) AS r(label text, position int, provider text, model text, pass_rate float8, avg_score float8, summary jsonb)`,
    [runId, tenant, JSON.stringify(rows)],
  );
}

export async function writeFixItems(sql: Sql, runId: string, tenant: string, items: unknown[]): Promise<void> {
  const rows = items.map((value, ordinal) => {
    const item = asObject(value) ?? {};
    return {
      ordinal, kind: typeof item.kind === "string" ? item.kind : "fault", fault: typeof item.fault === "string" ? item.fault : "",
      models: Array.isArray(item.models) ? item.models : [], item,
    };
  });
  await sql.execute("DELETE FROM fix_items WHERE run_id = ?", [runId]);
  if (rows.length === 0) return;
  await sql.execute(
    `INSERT INTO fix_items (run_id, ordinal, tenant, kind, fault, models, item)
     SELECT ?, r.ordinal, ?, r.kind, r.fault, r.models, r.item FROM jsonb_to_recordset(?::jsonb) AS r(ordinal int, kind text, fault text, models jsonb, item jsonb)`,
    [runId, tenant, JSON.stringify(rows)],
  );
}

interface ResultFigures {
  model_label: string;
  provider: string | null;
  model: string | null;
  status: string;
  score: number | null;
  duration_ms: number | null;
  input_tokens: string | null;
  output_tokens: string | null;
  cost: number | null;
  fault: string | null;
}

// Rounded and added as the report does (half away from zero, Ruby's compensated Array#sum).
const round = (value: number, digits: number) => roundHalfAwayFromZero(value, digits);
const mean = (values: number[]) => (values.length ? floatSum(values) / values.length : null);

/** summary_by_model computed from final results (reference-core §13.1 subset, with p50/p95). */
export function summarizeResults(rows: readonly ResultFigures[], labels: readonly string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const label of labels) {
    const mine = rows.filter((r) => r.model_label === label);
    const scores = mine.map((r) => r.score).filter((s): s is number => s !== null);
    const durations = mine.map((r) => r.duration_ms).filter((d): d is number => d !== null);
    const costs = mine.map((r) => r.cost).filter((c): c is number => c !== null);
    const faults: Record<string, number> = {};
    for (const r of mine) if (r.fault) faults[r.fault] = (faults[r.fault] ?? 0) + 1;
    const passed = mine.filter((r) => r.status === "passed").length;
    const avgScore = mean(scores);
    const avgDuration = mean(durations);
    const [p50, p95] = nearestRanks(durations, [50, 95]);
    out[label] = {
      provider: mine[0]?.provider ?? null,
      model: mine[0]?.model ?? null,
      scenarios: mine.length,
      passed,
      errored: mine.filter((r) => r.status === "errored").length,
      pass_rate: mine.length ? round((passed * 100) / mine.length, 1) : 0,
      avg_score: avgScore === null ? null : round(avgScore, 3),
      avg_duration_ms: avgDuration === null ? null : round(avgDuration, 0),
      p50_duration_ms: p50,
      p95_duration_ms: p95,
      input_tokens: mine.reduce((a, r) => a + Number(r.input_tokens ?? 0), 0),
      output_tokens: mine.reduce((a, r) => a + Number(r.output_tokens ?? 0), 0),
      cost: costs.length ? round(floatSum(costs), 6) : null,
      priced: costs.length,
      faults,
    };
  }
  return out;
}

export async function computeModelSummaries(sql: Sql, runId: string): Promise<void> {
  const [run] = await sql.execute<{ tenant: string; models: { label: string }[] }>("SELECT tenant, models FROM runs WHERE id = ?", [runId]);
  if (!run) return;
  const rows = await sql.execute<ResultFigures>(
    `SELECT model_label, provider, model, status, score, duration_ms, input_tokens, output_tokens, cost, fault
     FROM results WHERE run_id = ? AND status <> 'pending' ORDER BY n`,
    [runId],
  );
  const labels = run.models.length ? run.models.map((m) => m.label) : [...new Set(rows.map((r) => r.model_label))];
  await writeModelSummaries(sql, runId, run.tenant, summarizeResults(rows, labels));
}

