// The SELECT lists and result filters the queries share (columns in camelCase, see columns.ts).
import { selectList } from "./columns.js";
import { STANDING_SQL } from "./standing.js";
import type { Result, ResultFilter } from "./types.js";

const CATALOG_COLUMNS = ["tenant", "key", "name", "description", "digest", "source", "metadata", "scenario_count", "imported_at"];
const EVALUATION_COLUMNS = [
  "id", "tenant", "agent", "name", "judge", "criteria", "threshold", "require_judge_scores", "compare_models", "catalog", "external", "archived", "archived_at",
  "scenario_count", "run_count", "latest_run_id", "latest_run_number", "headline_run_id", "headline_run_number", "created_at", "updated_at",
  "kpis", "kpi_provenance",
];
const SCENARIO_COLUMNS = ["evaluation_id", "key", "tenant", "prompt", "group", "group_name", "notes", "expectations", "data", "position", "enabled"];
const RUN_COLUMNS = [
  "id", "tenant", "evaluation_id", "number", "origin", "status", "external", "selection", "models", "criteria", "judge", "judge_label",
  "threshold", "require_judge_scores", "release", "metadata", "tools", "catalog", "import_source", "host_run_id", "total", "completed", "passed", "failed", "errored",
  "agent_input_tokens", "agent_output_tokens", "agent_cost", "judge_calls", "judge_input_tokens", "judge_output_tokens", "judge_cost",
  "summary", "completion_requested", "error_message", "failure_pairs", "scheduled_at", "started_at", "completed_at", "updated_at",
];
const RESULT_COLUMNS = [
  "run_id", "n", "tenant", "scenario_key", "group", "model_label", "provider", "model", "position", "status", "score", "scores", "fault",
  "recommendation", "diagnosis", "answer", "tool_calls", "error", "duration_ms", "input_tokens", "output_tokens", "cost", "cost_source",
  "replay_metadata", "scenario", "judge_exchanges", "judge_calls", "judge_input_tokens", "judge_output_tokens", "judge_cost",
  "replayed_at", "scored_at",
];
const CELL_COLUMNS = ["run_id", "n", "scenario_key", "group", "model_label", "position", "status", "score", "fault", "duration_ms", "cost", "cost_source", "scored_at"];
const BIGINT = ["agent_input_tokens", "agent_output_tokens", "judge_input_tokens", "judge_output_tokens", "input_tokens", "output_tokens", "seed"];
const TIMESTAMPS = ["imported_at", "archived_at", "created_at", "updated_at", "scheduled_at", "started_at", "completed_at", "replayed_at", "scored_at", "recorded_at"];
export const spec = { bigint: BIGINT, timestamps: TIMESTAMPS };

export const CATALOG_SELECT = selectList("c", CATALOG_COLUMNS, spec);
/** The evaluation's columns and its standing (standing.ts), read when asked. */
export const EVALUATION_SELECT = `${selectList("e", EVALUATION_COLUMNS, spec)}, ${STANDING_SQL} AS standing`;
export const SCENARIO_SELECT = selectList("s", SCENARIO_COLUMNS, spec);
/**
 * A run's columns, and how its KPIs were settled without the define call: the judge's raw answer
 * and parsed reply (tens of KB) are the audit's, read from the run's events, not every run list's.
 */
export const RUN_SELECT = `${selectList("r", RUN_COLUMNS, spec)}, r.kpi_authoring - 'judge_exchange' AS "kpiAuthoring"`;
export const RESULT_SELECT = selectList("t", RESULT_COLUMNS, spec);
export const CELL_SELECT = selectList("t", CELL_COLUMNS, spec);

/** The in-memory twin of resultWhere, for cached rows. */
export function matches(result: Result, filter: ResultFilter): boolean {
  return (
    (filter.model == null || result.modelLabel === filter.model) &&
    (filter.status == null || result.status === filter.status) &&
    (filter.fault == null || result.fault === filter.fault) &&
    (filter.scenarioKey == null || result.scenarioKey === filter.scenarioKey)
  );
}

export function resultWhere(tenant: string, runId: string, filter: ResultFilter): { where: string; params: unknown[] } {
  const where = ["t.run_id = ?", "t.tenant = ?"];
  const params: unknown[] = [runId, tenant];
  for (const [column, value] of [["model_label", filter.model], ["status", filter.status], ["fault", filter.fault], ["scenario_key", filter.scenarioKey]] as const) {
    if (value === undefined || value === null) continue;
    where.push(`t.${column} = ?`);
    params.push(value);
  }
  return { where: where.join(" AND "), params };
}
