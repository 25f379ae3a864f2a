// ReportImported: a finished report from elsewhere becomes a COMPLETED run with its results
// (as Result#to_h), its verdict, judge label and comparison as the report records them, and its
// model summaries, ranking and fix items computed from those results by the domain Report, as
// an engine run's completion computes them and as the run's report.md renders them: the
// document's own summary_by_model (or the Ruby library's `models`) and fix_items are a host's
// claims nothing checked against its results (reference-platform feature 30: "summaries
// recomputed from stored results"). A pure function of the event, so a rebuild writes the same rows.
import { derivedFromJSONOrNull, labelsInRecordedOrder, type DerivedFigures, type EventOf, type ReportDocument } from "@verdict/domain";
import { json, type Sql } from "../db/sql.js";
import type { Batch, Envelope } from "./batch.js";
import { runNumbered } from "./evaluationProjection.js";
import { headline, pinnedRelease } from "./agentProjection.js";
import { asObject, writeFixItems, writeModelSummaries } from "./runSummary.js";
import { judgeColumns, resultJudge } from "./usage.js";

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const STATUSES = new Set(["passed", "failed", "errored"]);

/** The scenario as the report says it was evaluated. */
function scenarioOf(result: Record<string, unknown>, position: number) {
  const expect = asObject(result.expect) ?? {};
  const scenario: Record<string, unknown> = { key: String(result.scenario_key ?? ""), prompt: String(result.prompt ?? "") };
  if (typeof result.group === "string") scenario.group = result.group;
  scenario.expected_tools = list(expect.tools);
  scenario.expected_patterns = list(expect.contains);
  scenario.forbidden_patterns = list(expect.not_contains);
  scenario.position = position;
  return scenario;
}

function resultRow(result: Record<string, unknown>, n: number, positions: Map<string, number>, models: Record<string, unknown>) {
  const key = String(result.scenario_key ?? `result-${n}`);
  if (!positions.has(key)) positions.set(key, positions.size);
  const position = positions.get(key)!;
  const label = String(result.label ?? "");
  const model = asObject(models[label]) ?? {};
  const metadata = asObject(result.metadata) ?? {};
  // The report reads metadata's judge_usage (a result's top-level key is a copy written out
  // beside it, which the report never reads): counted as the report counts it (usage.ts).
  const judge = resultJudge(metadata, []);
  const cost = num(result.cost);
  const status = STATUSES.has(String(result.status)) ? String(result.status) : "errored";
  return {
    n, scenario_key: key, group: str(result.group), model_label: label, provider: str(result.provider) ?? str(model.provider),
    model: str(result.model) ?? str(model.model), position, status, score: num(result.score), scores: asObject(result.scores) ?? {},
    fault: str(result.fault), recommendation: str(result.recommendation), diagnosis: asObject(result.diagnosis), answer: str(result.answer),
    tool_calls: list(result.tool_calls), error: str(result.error), duration_ms: num(result.duration_ms), input_tokens: num(result.input_tokens),
    output_tokens: num(result.output_tokens), cost, cost_source: str(metadata.cost_source) ?? (cost === null ? "unpriced" : "reported"),
    replay_metadata: metadata, scenario: scenarioOf(result, position),
    // Calls per kind as the report tallies them (no tokens or cost by kind), and the model it names.
    ...judgeColumns(judge),
  };
}

/**
 * The report's figures from its results (plain JSON, as the event's other values are), or null
 * for results the Report cannot rebuild: only a report imported before the import checked them,
 * whose report.md answers CONFLICT; its summaries are then computed from the projected rows.
 */
function derivedOf(report: Record<string, unknown>): DerivedFigures | null {
  const derived = derivedFromJSONOrNull(report as unknown as ReportDocument);
  return derived && (JSON.parse(JSON.stringify(derived)) as DerivedFigures);
}

/**
 * The envelope's run_id, the host's name for the run (what report.json gives back and
 * GET /api/evaluation_reports/:run_id reads it by): host_run_id, or for a run imported before
 * tenant keying (no host_run_id; twoStreamCommands keeps answering its retries there) its run_id,
 * which was the envelope's own.
 */
const hostRunIdOf = (d: EventOf<"ReportImported">["data"]): string => d.host_run_id ?? d.run_id;

export async function reportImported(sql: Sql, event: EventOf<"ReportImported">, envelope: Envelope, batch: Batch): Promise<void> {
  const d = event.data;
  const report = d.report;
  // The models' labels, providers and names (not their figures) are the report's.
  const byModel = asObject(report.summary_by_model) ?? asObject(report.models) ?? {};
  const derived = derivedOf(report);
  // In the report's model order, which its results keep (the event's jsonb sorted the keys).
  const labels = labelsInRecordedOrder(Object.keys(byModel), list(report.results).map((r) => str(asObject(r)?.label) ?? ""));
  const models = labels.map((label) => {
    const m = asObject(byModel[label]) ?? {};
    return { label, provider: str(m.provider) ?? "", model: str(m.model) ?? label };
  });
  const positions = new Map<string, number>();
  const rows = list(report.results).map((r, n) => resultRow(asObject(r) ?? {}, n, positions, byModel));
  const selection = { keys: null, group: null, scenario_keys: [...positions.keys()], model_labels: models.map((m) => m.label) };
  const judgeLabel = str(report.judge);
  await sql.execute(
    `INSERT INTO runs (id, tenant, evaluation_id, number, origin, status, external, selection, models, criteria, judge_label, threshold,
       require_judge_scores, release, metadata, import_source, host_run_id, total, summary, scheduled_at, started_at, completed_at, updated_at)
     VALUES (?, ?, ?, ?, 'imported', 'COMPLETED', false, ?::jsonb, ?::jsonb, '[]'::jsonb, ?, ?, NULL, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?::jsonb, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET status = 'COMPLETED', origin = 'imported', evaluation_id = excluded.evaluation_id, require_judge_scores = NULL,
       number = excluded.number, selection = excluded.selection, models = excluded.models,
       judge_label = excluded.judge_label, threshold = excluded.threshold, release = excluded.release, metadata = excluded.metadata,
       import_source = excluded.import_source, host_run_id = excluded.host_run_id, total = excluded.total, summary = excluded.summary, started_at = excluded.started_at,
       completed_at = excluded.completed_at, updated_at = excluded.updated_at`,
    [
      d.run_id, d.tenant, d.evaluation_id, d.number, json(selection), json(models), judgeLabel, num(report.threshold), json(pinnedRelease(report.release)),
      json(asObject(report.metadata) ?? {}), json({ source: d.source, agent_name: d.agent_name, suite: d.suite, digest: d.digest }), hostRunIdOf(d), rows.length,
      json(summaryOf(report, derived)), envelope.at, envelope.at, envelope.at, envelope.at,
    ],
  );
  await runNumbered(sql, d.evaluation_id, d.run_id, d.number, envelope.at);
  await headline(sql, d.run_id);
  await insertImportedResults(sql, d.run_id, d.tenant, rows, envelope.at);
  if (derived) {
    await writeModelSummaries(sql, d.run_id, d.tenant, derived.summary_by_model);
    await writeFixItems(sql, d.run_id, d.tenant, derived.fix_items);
  } else {
    batch.summariesToCompute.add(d.run_id);
    await writeFixItems(sql, d.run_id, d.tenant, []);
  }
  await importedVerdict(sql, d.run_id, d.tenant, report, derived?.summary_by_model ?? null, envelope.at);
  const comparison = asObject(report.comparison);
  if (comparison) {
    await sql.execute(
      `INSERT INTO comparisons (run_id, tenant, comparison, seed, resamples, confidence, recorded_at) VALUES (?, ?, ?::jsonb, ?, ?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET comparison = excluded.comparison, seed = excluded.seed, resamples = excluded.resamples, confidence = excluded.confidence`,
      [d.run_id, d.tenant, json(comparison), num(comparison.seed), num(comparison.resamples), num(comparison.confidence), envelope.at],
    );
  }
  batch.touchedRuns.add(d.run_id);
}

/**
 * The run-level aggregates of the report (everything but its results), with the figures its
 * results give in place of the document's own (`models` is the Ruby library's summary_by_model).
 */
function summaryOf(report: Record<string, unknown>, derived: DerivedFigures | null): Record<string, unknown> {
  const { results: _results, models: _models, summary_by_model: _summaries, criteria: _criteria, recommendations: _recommendations, fix_items: _fixItems, ...rest } = report;
  return derived ? { ...rest, ...derived } : rest;
}

async function insertImportedResults(sql: Sql, runId: string, tenant: string, rows: ReturnType<typeof resultRow>[], at: string): Promise<void> {
  if (rows.length === 0) return;
  await sql.execute(
    `INSERT INTO results (run_id, n, tenant, scenario_key, "group", model_label, provider, model, position, status, score, scores, fault,
       recommendation, diagnosis, answer, tool_calls, error, duration_ms, input_tokens, output_tokens, cost, cost_source, replay_metadata,
       scenario, judge_exchanges, judge_calls, judge_input_tokens, judge_output_tokens, judge_cost, judge_by_kind, judge_model, judge_source,
       replayed_at, scored_at)
     SELECT ?, r.n, ?, r.scenario_key, r."group", r.model_label, r.provider, r.model, r.position, r.status, r.score, r.scores, r.fault,
       r.recommendation, r.diagnosis, r.answer, r.tool_calls, r.error, r.duration_ms, r.input_tokens, r.output_tokens, r.cost, r.cost_source,
       r.replay_metadata, r.scenario, '[]'::jsonb, r.judge_calls, r.judge_input_tokens, r.judge_output_tokens, r.judge_cost, r.judge_by_kind,
       r.judge_model, r.judge_source, ?, ?
     FROM jsonb_to_recordset(?::jsonb) AS r(n int, scenario_key text, "group" text, model_label text, provider text, model text, position int,
       status text, score float8, scores jsonb, fault text, recommendation text, diagnosis jsonb, answer text, tool_calls jsonb, error text,
       duration_ms float8, input_tokens bigint, output_tokens bigint, cost float8, cost_source text, replay_metadata jsonb, scenario jsonb,
       judge_calls int, judge_input_tokens bigint, judge_output_tokens bigint, judge_cost float8, judge_by_kind jsonb, judge_model text,
       judge_source text)
     ON CONFLICT (run_id, n) DO NOTHING`,
    [runId, tenant, at, at, JSON.stringify(rows)],
  );
}

/** The report's verdict and judge label; its ranking inputs are the summaries its results give (null when they could not be computed). */
async function importedVerdict(sql: Sql, runId: string, tenant: string, report: Record<string, unknown>, ranking: Record<string, unknown> | null, at: string) {
  const verdict = asObject(report.verdict);
  if (!verdict) return;
  await sql.execute(
    `INSERT INTO verdicts (run_id, tenant, winner, rationale, judge, judge_label, ranking, judge_exchange, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, NULL, ?) ON CONFLICT (run_id) DO NOTHING`,
    [runId, tenant, str(verdict.winner), str(verdict.rationale), str(verdict.judge), str(report.judge), json(ranking ?? {}), at],
  );
}

