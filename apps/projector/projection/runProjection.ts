// runs: the frozen selection at RunStarted (every pair planned as a pending result), completion
// requests, the verdict and comparison with their evidence, and exactly one end.
import { selectionPairs, type EventOf } from "@verdict/domain";
import { json, type Sql } from "../db/sql.js";
import type { Batch, Envelope } from "./batch.js";
import { runNumbered } from "./evaluationProjection.js";
import { headline, pinnedRelease } from "./agentProjection.js";
import { writeFixItems, writeModelSummaries, asObject } from "./runSummary.js";
import { storablePosition } from "./storablePosition.js";

function runIdOf(streamId: string): string {
  return streamId.slice("run-".length);
}

export async function runStarted(sql: Sql, event: EventOf<"RunStarted">, envelope: Envelope, batch: Batch): Promise<void> {
  const d = event.data;
  await sql.execute(
    `INSERT INTO runs (id, tenant, evaluation_id, number, origin, status, external, selection, models, criteria, judge, judge_label,
       threshold, require_judge_scores, release, metadata, tools, catalog, total, scheduled_at, started_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'RUNNING', ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET status = CASE WHEN runs.status = 'PENDING' THEN 'RUNNING' ELSE runs.status END,
       evaluation_id = excluded.evaluation_id, number = excluded.number, external = excluded.external, selection = excluded.selection, models = excluded.models, criteria = excluded.criteria,
       judge = excluded.judge, judge_label = excluded.judge_label, threshold = excluded.threshold, require_judge_scores = excluded.require_judge_scores, release = excluded.release,
       metadata = excluded.metadata, tools = excluded.tools, catalog = excluded.catalog, total = excluded.total,
       started_at = excluded.started_at, updated_at = excluded.updated_at`,
    [
      d.run_id, d.tenant, d.evaluation_id, d.number, d.external ? "external" : "engine", d.external, json(d.selection), json(d.models),
      json(d.criteria), json(d.judge), d.judge_label, d.threshold, d.require_judge_scores, json(pinnedRelease(d.release)), json(d.metadata), json(d.tools), json(d.catalog),
      d.scenarios.length * d.models.length, envelope.at, envelope.at, envelope.at,
    ],
  );
  await runNumbered(sql, d.evaluation_id, d.run_id, d.number, envelope.at);
  const scenarios = new Map(d.scenarios.map((s, i) => [s.key, { scenario: s, index: i }]));
  const models = new Map(d.models.map((m) => [m.label, m]));
  const pairs = selectionPairs(d.scenarios.map((s) => s.key), d.models.map((m) => m.label));
  for (const pair of pairs) {
    const { scenario, index } = scenarios.get(pair.scenarioKey)!;
    const model = models.get(pair.modelLabel)!;
    batch.pendingResults.push({
      run_id: d.run_id, n: pair.n, tenant: d.tenant, scenario_key: pair.scenarioKey, group: scenario.group ?? null,
      model_label: pair.modelLabel, provider: model.provider, model: model.model, position: storablePosition(scenario.position ?? index), scenario,
    });
  }
  batch.touchedRuns.add(d.run_id);
}

/** How a judge_defined run settled its KPIs: recorded whole, its KPIs after its criteria, its define call counted (recountRuns). */
export async function kpiAuthoringRecorded(sql: Sql, event: EventOf<"KpiAuthoringRecorded">, envelope: Envelope, batch: Batch): Promise<void> {
  const runId = runIdOf(envelope.recorded.streamId);
  await sql.execute("UPDATE runs SET kpi_authoring = ?::jsonb, criteria = criteria || ?::jsonb, updated_at = ? WHERE id = ?", [
    json(event.data), json(event.data.criteria), envelope.at, runId,
  ]);
  batch.touchedRuns.add(runId);
}

export async function runCompletionRequested(sql: Sql, envelope: Envelope): Promise<void> {
  await sql.execute("UPDATE runs SET completion_requested = true, updated_at = ? WHERE id = ?", [envelope.at, runIdOf(envelope.recorded.streamId)]);
}

export async function verdictRecorded(sql: Sql, event: EventOf<"VerdictRecorded">, envelope: Envelope, batch: Batch): Promise<void> {
  const runId = runIdOf(envelope.recorded.streamId);
  const d = event.data;
  await sql.execute(
    `INSERT INTO verdicts (run_id, tenant, winner, rationale, judge, judge_label, ranking, judge_exchange, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?)
     ON CONFLICT (run_id) DO UPDATE SET winner = excluded.winner, rationale = excluded.rationale, judge = excluded.judge,
       judge_label = excluded.judge_label, ranking = excluded.ranking, judge_exchange = excluded.judge_exchange, recorded_at = excluded.recorded_at`,
    [runId, envelope.tenant, d.verdict?.winner ?? null, d.verdict?.rationale ?? null, d.verdict?.judge ?? null, d.judge_label, json(d.ranking), json(d.judge_exchange), envelope.at],
  );
  // From here the run's judge is the one it was scored with, as its report says (worker/runReport):
  // an llm judge the evaluation names no model for is labelled by the worker's judge, and a run
  // whose worker had none was scored on rules alone. RunStarted's label was only the one asked for.
  await sql.execute("UPDATE runs SET judge_label = ? WHERE id = ?", [d.judge_label, runId]);
  batch.touchedRuns.add(runId);
}

export async function comparisonRecorded(sql: Sql, event: EventOf<"ComparisonRecorded">, envelope: Envelope): Promise<void> {
  const d = event.data;
  await sql.execute(
    `INSERT INTO comparisons (run_id, tenant, comparison, seed, resamples, confidence, recorded_at) VALUES (?, ?, ?::jsonb, ?, ?, ?, ?)
     ON CONFLICT (run_id) DO UPDATE SET comparison = excluded.comparison, seed = excluded.seed, resamples = excluded.resamples,
       confidence = excluded.confidence, recorded_at = excluded.recorded_at`,
    [runIdOf(envelope.recorded.streamId), envelope.tenant, json(d.comparison), d.seed, d.resamples, d.confidence, envelope.at],
  );
}

export async function runCompleted(sql: Sql, event: EventOf<"RunCompleted">, envelope: Envelope, batch: Batch): Promise<void> {
  const runId = runIdOf(envelope.recorded.streamId);
  const summary = event.data.summary;
  await sql.execute(
    `UPDATE runs SET status = 'COMPLETED', summary = ?::jsonb, completed_at = ?, updated_at = ? WHERE id = ? AND status <> 'FAILED'`,
    [json(summary), envelope.at, envelope.at, runId],
  );
  const byModel = asObject(summary.summary_by_model) ?? asObject(summary.models);
  if (byModel) await writeModelSummaries(sql, runId, envelope.tenant, byModel);
  else batch.summariesToCompute.add(runId);
  if (Array.isArray(summary.fix_items)) await writeFixItems(sql, runId, envelope.tenant, summary.fix_items);
  await headline(sql, runId);
  batch.touchedRuns.add(runId);
}

export async function runFailed(sql: Sql, event: EventOf<"RunFailed">, envelope: Envelope, batch: Batch): Promise<void> {
  const runId = runIdOf(envelope.recorded.streamId);
  await sql.execute(
    `UPDATE runs SET status = 'FAILED', error_message = ?, failure_pairs = ?::jsonb, completed_at = ?, updated_at = ? WHERE id = ? AND status <> 'COMPLETED'`,
    [event.data.message, json(event.data.pairs), envelope.at, envelope.at, runId],
  );
  batch.touchedRuns.add(runId);
}
