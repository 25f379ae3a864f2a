// evaluations and evaluation_scenarios: the definition, the suite as now stored, archive state,
// and the runs that head it (runNumbered, from the run stream's first event).
import type { EventData, EventOf } from "@verdict/domain";
import { json, type Sql } from "../db/sql.js";
import type { Envelope } from "./batch.js";
import { storablePosition } from "./storablePosition.js";

type EvaluationScenario = EventData<"ScenariosReplaced">["scenarios"][number];

function evaluationIdOf(streamId: string): string {
  return streamId.slice("evaluation-".length);
}

export async function evaluationCreated(sql: Sql, event: EventOf<"EvaluationCreated">, envelope: Envelope): Promise<void> {
  const d = event.data;
  await sql.execute(
    `INSERT INTO evaluations (id, tenant, agent, name, judge, criteria, threshold, require_judge_scores, compare_models, catalog, external, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?)
     ON CONFLICT (id) DO NOTHING`,
    [d.evaluation_id, d.tenant, d.agent, d.name, json(d.judge), json(d.criteria), d.threshold, d.require_judge_scores, json(d.compare_models), json(d.catalog), json(d.external), envelope.at, envelope.at],
  );
}

function expectations(s: EvaluationScenario) {
  return { tools: s.expected_tools, contains: s.expected_patterns, not_contains: s.forbidden_patterns };
}

async function upsertScenarios(sql: Sql, evaluationId: string, tenant: string, scenarios: EvaluationScenario[]): Promise<void> {
  if (scenarios.length === 0) return;
  const rows = scenarios.map((s) => ({
    key: s.key, prompt: s.prompt, group: s.group ?? null, group_name: s.group_name ?? null, notes: s.notes ?? null,
    expectations: expectations(s), data: s, position: storablePosition(s.position), enabled: s.enabled,
  }));
  await sql.execute(
    `INSERT INTO evaluation_scenarios (evaluation_id, key, tenant, prompt, "group", group_name, notes, expectations, data, position, enabled)
     SELECT ?, r.key, ?, r.prompt, r."group", r.group_name, r.notes, r.expectations, r.data, r.position, r.enabled
     FROM jsonb_to_recordset(?::jsonb) AS r(key text, prompt text, "group" text, group_name text, notes text, expectations jsonb, data jsonb, position int, enabled boolean)
     ON CONFLICT (evaluation_id, key) DO UPDATE SET prompt = excluded.prompt, "group" = excluded."group", group_name = excluded.group_name,
       notes = excluded.notes, expectations = excluded.expectations, data = excluded.data, position = excluded.position, enabled = excluded.enabled`,
    [evaluationId, tenant, JSON.stringify(rows)],
  );
}

/** scenario_count counts the enabled scenarios (disabled ones stay listed but are not run). */
async function touchEvaluation(sql: Sql, evaluationId: string, at: string): Promise<void> {
  await sql.execute(
    `UPDATE evaluations SET updated_at = ?,
       scenario_count = (SELECT count(*) FROM evaluation_scenarios s WHERE s.evaluation_id = evaluations.id AND s.enabled)
     WHERE id = ?`,
    [at, evaluationId],
  );
}

export async function scenariosReplaced(sql: Sql, event: EventOf<"ScenariosReplaced">, envelope: Envelope): Promise<void> {
  const id = evaluationIdOf(envelope.recorded.streamId);
  const d = event.data;
  if (d.removed.length > 0) {
    await sql.execute("DELETE FROM evaluation_scenarios WHERE evaluation_id = ? AND key IN (SELECT jsonb_array_elements_text(?::jsonb))", [id, json(d.removed)]);
  }
  if (d.disabled.length > 0) {
    await sql.execute("UPDATE evaluation_scenarios SET enabled = false, data = jsonb_set(data, '{enabled}', 'false') WHERE evaluation_id = ? AND key IN (SELECT jsonb_array_elements_text(?::jsonb))", [id, json(d.disabled)]);
  }
  await upsertScenarios(sql, id, envelope.tenant, d.scenarios);
  await touchEvaluation(sql, id, envelope.at);
}

/**
 * A catalog re-sync: the digest the evaluation now reflects, and its judge and criteria (its KPIs
 * after them only while the judge is judge_defined, as a run freezes them; they stay in `kpis`).
 */
export async function catalogSetSynced(sql: Sql, event: EventOf<"CatalogSetSynced">, envelope: Envelope): Promise<void> {
  const d = event.data;
  const criteria = d.judge.kind === "judge_defined" ? `?::jsonb || ${KPIS_NOT_IN("?::jsonb")}` : "?::jsonb";
  const criteriaParams = d.judge.kind === "judge_defined" ? [json(d.criteria), json(d.criteria)] : [json(d.criteria)];
  await sql.execute(`UPDATE evaluations SET catalog = ?::jsonb, judge = ?::jsonb, criteria = ${criteria}, updated_at = ? WHERE id = ?`, [
    json(d.catalog), json(d.judge), ...criteriaParams, envelope.at, evaluationIdOf(envelope.recorded.streamId),
  ]);
}

/**
 * The evaluation's KPIs whose keys the criteria `given` (SQL) do not have: what a run freezes
 * after them (domain selection.ts runCriteria), so `criteria` reads as a run would score.
 */
const KPIS_NOT_IN = (given: string): string =>
  `coalesce((SELECT jsonb_agg(k ORDER BY o) FROM jsonb_array_elements(evaluations.kpis) WITH ORDINALITY AS e(k, o)
     WHERE NOT ${given} @> jsonb_build_array(jsonb_build_object('key', k->'key'))), '[]'::jsonb)`;

/** Its judge defined its KPIs: kept apart (kpis), listed after its criteria, and their provenance. */
export async function kpisDefined(sql: Sql, event: EventOf<"KpisDefined">, envelope: Envelope): Promise<void> {
  const d = event.data;
  await sql.execute("UPDATE evaluations SET kpis = ?::jsonb, kpi_provenance = ?::jsonb, criteria = criteria || ?::jsonb, updated_at = ? WHERE id = ?", [
    json(d.criteria), json(d.kpi_provenance), json(d.criteria), envelope.at, evaluationIdOf(envelope.recorded.streamId),
  ]);
}

/**
 * Its KPIs were cleared: none kept apart, no provenance, and the KPIs leave its criteria. Only the
 * KPI entries themselves (equal as stored, defined_by included) leave: a set's criterion that took
 * a KPI's key stays.
 */
export async function kpisCleared(sql: Sql, envelope: Envelope): Promise<void> {
  await sql.execute(
    `UPDATE evaluations SET kpi_provenance = NULL, updated_at = ?,
       criteria = coalesce((SELECT jsonb_agg(c ORDER BY o) FROM jsonb_array_elements(evaluations.criteria) WITH ORDINALITY AS e(c, o)
         WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(evaluations.kpis) AS k(kpi) WHERE k.kpi = c)), '[]'::jsonb),
       kpis = '[]'::jsonb
     WHERE id = ?`,
    [envelope.at, evaluationIdOf(envelope.recorded.streamId)],
  );
}

export async function scenariosMerged(sql: Sql, event: EventOf<"ScenariosMerged">, envelope: Envelope): Promise<void> {
  const id = evaluationIdOf(envelope.recorded.streamId);
  await upsertScenarios(sql, id, envelope.tenant, event.data.scenarios);
  await touchEvaluation(sql, id, envelope.at);
}

export async function evaluationArchived(sql: Sql, event: EventOf<"EvaluationArchived">, envelope: Envelope): Promise<void> {
  await sql.execute("UPDATE evaluations SET archived = true, archived_at = ?, updated_at = ? WHERE id = ?", [
    event.data.archived_at, envelope.at, evaluationIdOf(envelope.recorded.streamId),
  ]);
}

export async function evaluationUnarchived(sql: Sql, envelope: Envelope): Promise<void> {
  await sql.execute("UPDATE evaluations SET archived = false, archived_at = NULL, updated_at = ? WHERE id = ?", [envelope.at, evaluationIdOf(envelope.recorded.streamId)]);
}

/**
 * The run stream's first event (RunStarted, ReportImported): the evaluation counts the run and,
 * when it is the highest number so far, takes it as its latest run. Numbers only grow, so a
 * redelivery changes nothing. RunScheduled, which numbers the run on the evaluation's stream,
 * makes nothing here: should the process die between startRun's two appends, the number stays
 * taken and the run never appears (not listed, not counted, not the latest run; no PENDING row
 * waits for a start that never comes).
 */
export async function runNumbered(sql: Sql, evaluationId: string, runId: string, number: number, at: string): Promise<void> {
  await sql.execute(
    `UPDATE evaluations SET run_count = GREATEST(run_count, ?), updated_at = ?,
       latest_run_id = CASE WHEN latest_run_number IS NULL OR latest_run_number <= ? THEN ? ELSE latest_run_id END,
       latest_run_number = GREATEST(coalesce(latest_run_number, 0), ?)
     WHERE id = ?`,
    [number, at, number, runId, number, evaluationId],
  );
}
