// results: one row per scenario x model pair, planned PENDING at RunStarted, filled by its replay
// and made final by its score. Rows are written in bulk at the end of a batch (inserts, then
// replay columns, then score columns: each pair's events touch disjoint columns). A run's counts
// and usage follow its rows: the statement that updates rows adds to the run the difference
// between each row's new and old values (so reapplying an update adds nothing), and a run
// touched any other way (planned, imported, completed) is recounted from all its rows.
import { COST_LIMIT, REPORT_MAX_COUNT, TOKEN_COUNT_LIMIT, type EventOf } from "@verdict/domain";
import type { Sql } from "../db/sql.js";
import type { Batch, Envelope } from "./batch.js";
import { judgeColumns, reportedJudge, resultJudge } from "./usage.js";

function costSource(replay: EventOf<"ReplayRecorded">["data"]["replay"]): string {
  const declared = replay.metadata.cost_source;
  if (typeof declared === "string" && declared !== "") return declared;
  return replay.cost === null || replay.cost === undefined ? "unpriced" : "reported";
}

// The two pair handlers below read events taken as stored (applyBatch.ts): a handler that throws
// on one is run again on the parsed event, so each computes every field of its row before it
// pushes it, and touches the batch only after that (nothing half-applied to apply twice).
export function replayRecorded(event: EventOf<"ReplayRecorded">, envelope: Envelope, batch: Batch): void {
  const { run_id, n, replay } = event.data;
  batch.replays.push({
    run_id, n, answer: replay.answer ?? null, tool_calls: replay.tool_calls, error: replay.error ?? null,
    duration_ms: replay.duration_ms ?? null, input_tokens: replay.input_tokens ?? null, output_tokens: replay.output_tokens ?? null,
    cost: replay.cost ?? null, cost_source: costSource(replay), replay_metadata: replay.metadata, replayed_at: envelope.at,
  });
  batch.resultRuns.add(run_id); // the run's agent usage sums its replays
}

export function resultScored(event: EventOf<"ResultScored">, envelope: Envelope, batch: Batch): void {
  const d = event.data;
  // What the platform's judge metered; flushResults takes the replay's own judge_usage instead
  // when the replay carries one (usage.ts resultJudge: the report's rule).
  batch.scores.push({
    run_id: d.run_id, n: d.n, status: d.status, score: d.score, scores: d.scores, fault: d.fault, recommendation: d.recommendation,
    diagnosis: d.diagnosis, judge_exchanges: d.judge_exchanges, ...judgeColumns(resultJudge(null, d.judge_exchanges)), scored_at: envelope.at,
  });
  batch.resultRuns.add(d.run_id);
  batch.latestResult.set(d.run_id, { scenario_key: d.scenario_key, model_label: d.model_label, status: d.status, score: d.score, fault: d.fault });
}

/**
 * The judge calls recorded on run `runId` (SQL) itself, as rows `x(e, o)`: its KPIs' define call
 * (runs.kpi_authoring, a judge_defined run's) and its verdict's exchange, in that order.
 */
export const runExchanges = (runId: string): string =>
  `(SELECT rk.kpi_authoring->'judge_exchange' AS e, 0 AS o FROM runs rk WHERE rk.id = ${runId} AND jsonb_typeof(rk.kpi_authoring->'judge_exchange') = 'object'
    UNION ALL SELECT vv.judge_exchange, 1 FROM verdicts vv WHERE vv.run_id = ${runId} AND vv.judge_exchange IS NOT NULL) x`;

/** A figure of the run's own judge calls (runExchanges' `x`) summed: a cost (NULL when none has one) or a token count. */
export const runExchangeFigure = (key: "cost" | "input_tokens" | "output_tokens"): string =>
  key === "cost" ? "sum((x.e->'usage'->>'cost')::numeric)" : `coalesce(sum((x.e->'usage'->>'${key}')::bigint), 0)`;

/**
 * A figure of an imported run's own judge usage (`u.usage`) within [0, max], else `otherwise`:
 * the import checks these, but a report imported before it did must not fail a rebuild.
 */
export const usageFigure = (key: string, max: number, otherwise = "0"): string =>
  `CASE WHEN jsonb_typeof(u.usage->'${key}') = 'number' AND (u.usage->>'${key}')::numeric BETWEEN 0 AND ${max}
     THEN (u.usage->>'${key}')::numeric ELSE ${otherwise} END`;

/** Whether a JSON value is truthy as JavaScript reads it (an object or array always; "" , 0, false and null not). */
const truthy = (value: string): string => `CASE jsonb_typeof(${value}) WHEN 'object' THEN true WHEN 'array' THEN true
  WHEN 'string' THEN ${value} <> '""'::jsonb WHEN 'number' THEN ${value} <> '0'::jsonb WHEN 'boolean' THEN ${value} = 'true'::jsonb ELSE false END`;

const RECORDED = "rr.summary->'run_judge_usage'";
const RUN_PART = "rr.summary->'judge_usage'->'run'";

/**
 * The run-level usage an imported report carries, as an object, or NULL when it has none, read
 * as the report reads it (domain/report fromJson and cost judgeUsage): `run_judge_usage` when the
 * document gives one (not null), which counts only when it is a non-empty object (an empty one is
 * no run part: its judge_usage has no `run`); else `judge_usage.run`, of which the report keeps
 * only calls, cost and by_kind (not its tokens or model), when it is there (truthy).
 */
export const IMPORTED_RUN_USAGE = `CASE WHEN rr.origin <> 'imported' THEN NULL
  WHEN coalesce(jsonb_typeof(${RECORDED}), 'null') <> 'null' THEN
    CASE WHEN jsonb_typeof(${RECORDED}) = 'object' AND ${RECORDED} <> '{}'::jsonb THEN ${RECORDED}
      WHEN jsonb_typeof(${RECORDED}) = 'array' AND ${RECORDED} <> '[]'::jsonb THEN '{}'::jsonb END
  WHEN ${truthy(RUN_PART)} THEN jsonb_build_object('calls', ${RUN_PART}->'calls', 'cost', ${RUN_PART}->'cost', 'by_kind', ${RUN_PART}->'by_kind') END`;

const REPLAY_SET = `answer = r.answer, tool_calls = r.tool_calls, error = r.error, duration_ms = r.duration_ms,
  input_tokens = r.input_tokens, output_tokens = r.output_tokens, cost = r.cost, cost_source = r.cost_source,
  replay_metadata = r.replay_metadata, replayed_at = r.replayed_at`;
const REPLAY_COLUMNS = `answer text, tool_calls jsonb, error text, duration_ms float8, input_tokens bigint, output_tokens bigint, cost float8,
  cost_source text, replay_metadata jsonb, replayed_at timestamptz`;
const SCORE_SET = `status = r.status, score = r.score, scores = r.scores, fault = r.fault, recommendation = r.recommendation,
  diagnosis = r.diagnosis, judge_exchanges = r.judge_exchanges, judge_calls = r.judge_calls, judge_input_tokens = r.judge_input_tokens,
  judge_output_tokens = r.judge_output_tokens, judge_cost = r.judge_cost, judge_by_kind = r.judge_by_kind, judge_model = r.judge_model,
  judge_source = r.judge_source, scored_at = r.scored_at`;
const SCORE_COLUMNS = `status text, score float8, scores jsonb, fault text, recommendation text, diagnosis jsonb, judge_exchanges jsonb,
  judge_calls int, judge_input_tokens bigint, judge_output_tokens bigint, judge_cost float8, judge_by_kind jsonb, judge_model text,
  judge_source text, scored_at timestamptz`;

// What a result row adds to its run's counts and usage, for the row as `t`, named with `p`.
function contribution(t: string, p: string): string {
  return `(${t}.status <> 'pending')::int AS ${p}completed, (${t}.status = 'passed')::int AS ${p}passed,
    (${t}.status = 'failed')::int AS ${p}failed, (${t}.status = 'errored')::int AS ${p}errored, coalesce(${t}.input_tokens, 0) AS ${p}agent_in,
    coalesce(${t}.output_tokens, 0) AS ${p}agent_out, ${t}.cost::numeric AS ${p}agent_cost, coalesce(${t}.judge_calls, 0) AS ${p}judge_calls,
    coalesce(${t}.judge_input_tokens, 0) AS ${p}judge_in, coalesce(${t}.judge_output_tokens, 0) AS ${p}judge_out,
    ${t}.judge_cost::numeric AS ${p}judge_cost`;
}

// A run's exact cost sums once the update's (d) are added: NULL while no row has a cost, as sum() gives.
const AGENT_SUM = "CASE WHEN d.agent_cost IS NULL THEN runs.agent_cost_sum ELSE coalesce(runs.agent_cost_sum, 0) + d.agent_cost END";
const JUDGE_SUM = "CASE WHEN d.judge_cost IS NULL THEN runs.judge_cost_sum ELSE coalesce(runs.judge_cost_sum, 0) + d.judge_cost END";

/**
 * Updates result rows and adds to each run in `counted` what its rows changed: counts and tokens
 * by new minus old (exact, and nothing when an update is applied again), the costs of rows that
 * had none into the runs' exact sums. A cost that changes cannot be added up that way, so a run
 * with one is returned, to be recounted from all its rows.
 */
async function updateResults(sql: Sql, set: string, columns: string, rows: Array<{ run_id: string; n: number }>, counted: readonly string[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const found = await sql.execute<{ run_id: string }>(
    // o, the same row joined again, holds its values from before this statement updates it.
    `WITH u AS (
       UPDATE results t SET ${set}
       FROM jsonb_to_recordset(?::jsonb) AS r(run_id text, n int, ${columns}) JOIN results o ON o.run_id = r.run_id AND o.n = r.n
       WHERE t.run_id = r.run_id AND t.n = r.n
       RETURNING t.run_id, ${contribution("t", "")}, ${contribution("o", "old_")}
     ),
     d AS (
       SELECT run_id, sum(completed - old_completed) AS completed, sum(passed - old_passed) AS passed, sum(failed - old_failed) AS failed,
         sum(errored - old_errored) AS errored, sum(agent_in - old_agent_in) AS agent_in, sum(agent_out - old_agent_out) AS agent_out,
         sum(judge_calls - old_judge_calls) AS judge_calls, sum(judge_in - old_judge_in) AS judge_in, sum(judge_out - old_judge_out) AS judge_out,
         sum(agent_cost) FILTER (WHERE old_agent_cost IS NULL) AS agent_cost, sum(judge_cost) FILTER (WHERE old_judge_cost IS NULL) AS judge_cost,
         bool_or((old_agent_cost IS NOT NULL AND agent_cost IS DISTINCT FROM old_agent_cost)
           OR (old_judge_cost IS NOT NULL AND judge_cost IS DISTINCT FROM old_judge_cost)) AS cost_changed
       FROM u WHERE run_id IN (SELECT jsonb_array_elements_text(?::jsonb))
       GROUP BY run_id
     ),
     added AS (
       UPDATE runs SET completed = runs.completed + d.completed, passed = runs.passed + d.passed, failed = runs.failed + d.failed,
         errored = runs.errored + d.errored, agent_input_tokens = runs.agent_input_tokens + d.agent_in,
         agent_output_tokens = runs.agent_output_tokens + d.agent_out, judge_calls = runs.judge_calls + d.judge_calls,
         judge_input_tokens = runs.judge_input_tokens + d.judge_in, judge_output_tokens = runs.judge_output_tokens + d.judge_out,
         agent_cost_sum = ${AGENT_SUM}, agent_cost = (${AGENT_SUM})::float8, judge_cost_sum = ${JUDGE_SUM},
         judge_cost = CASE WHEN (${JUDGE_SUM}) IS NULL AND v.cost IS NULL THEN NULL ELSE (coalesce(${JUDGE_SUM}, 0) + coalesce(v.cost, 0))::float8 END
       FROM d CROSS JOIN LATERAL (SELECT ${runExchangeFigure("cost")} AS cost FROM ${runExchanges("d.run_id")}) v
       WHERE runs.id = d.run_id AND NOT d.cost_changed
     )
     SELECT run_id FROM d WHERE cost_changed`,
    [JSON.stringify(rows), JSON.stringify(counted)],
  );
  return found.map((row) => row.run_id);
}

/**
 * A scored pair whose replay carries its own `metadata.judge_usage` (an agent's or a host's
 * record of what its judge spent) counts that, not the platform's exchanges, as the run's report
 * does (usage.ts resultJudge): the replay is this batch's, or the one its row holds (recorded in
 * an earlier batch; read with one statement for the batch's scores).
 */
async function takeReportedJudgeUsage(sql: Sql, batch: Batch, replays: ReadonlyMap<string, { replay_metadata: unknown }>): Promise<void> {
  if (batch.scores.length === 0) return;
  const recorded = new Map<string, unknown>();
  const earlier = batch.scores.filter((score) => !replays.has(`${score.run_id}\u0000${score.n}`)).map(({ run_id, n }) => ({ run_id, n }));
  if (earlier.length > 0) {
    const rows = await sql.execute<{ run_id: string; n: number; usage: unknown }>(
      `SELECT t.run_id, t.n, t.replay_metadata->'judge_usage' AS usage
       FROM jsonb_to_recordset(?::jsonb) AS k(run_id text, n int) JOIN results t ON t.run_id = k.run_id AND t.n = k.n
       WHERE t.replay_metadata->'judge_usage' IS NOT NULL`,
      [JSON.stringify(earlier)],
    );
    for (const row of rows) recorded.set(`${row.run_id}\u0000${row.n}`, row.usage);
  }
  for (const score of batch.scores) {
    const key = `${score.run_id}\u0000${score.n}`;
    const metadata = replays.get(key)?.replay_metadata as Record<string, unknown> | null | undefined;
    if (metadata ? Object.hasOwn(metadata, "judge_usage") : recorded.has(key)) {
      Object.assign(score, judgeColumns(reportedJudge(metadata ? metadata.judge_usage : recorded.get(key))));
    }
  }
}

/**
 * Writes the batch's result rows. Returns the runs to recount from all their rows: those the
 * batch touched otherwise, and those whose rows changed in a way the update could not add up.
 */
export async function flushResults(sql: Sql, batch: Batch): Promise<string[]> {
  const recount = new Set(batch.touchedRuns);
  const counted = [...batch.resultRuns].filter((runId) => !recount.has(runId));
  if (batch.pendingResults.length > 0) {
    await sql.execute(
      `INSERT INTO results (run_id, n, tenant, scenario_key, "group", model_label, provider, model, position, status, scenario)
       SELECT r.run_id, r.n, r.tenant, r.scenario_key, r."group", r.model_label, r.provider, r.model, r.position, 'pending', r.scenario
       FROM jsonb_to_recordset(?::jsonb) AS r(run_id text, n int, tenant text, scenario_key text, "group" text, model_label text,
         provider text, model text, position int, scenario jsonb)
       ON CONFLICT (run_id, n) DO NOTHING`,
      [JSON.stringify(batch.pendingResults)],
    );
  }
  // A pair replayed and scored in the same batch is written once, with both sets of columns.
  const replays = new Map(batch.replays.map((r) => [`${r.run_id}\u0000${r.n}`, r]));
  await takeReportedJudgeUsage(sql, batch, replays);
  const both: Array<{ run_id: string; n: number }> = [];
  const scoresOnly: Array<{ run_id: string; n: number }> = [];
  for (const score of batch.scores) {
    const key = `${score.run_id}\u0000${score.n}`;
    const replay = replays.get(key);
    if (replay) {
      both.push({ ...replay, ...score });
      replays.delete(key);
    } else {
      scoresOnly.push(score);
    }
  }
  const updates: Array<[string, string, Array<{ run_id: string; n: number }>]> = [
    [REPLAY_SET, REPLAY_COLUMNS, [...replays.values()]],
    [SCORE_SET, SCORE_COLUMNS, scoresOnly],
    [`${REPLAY_SET}, ${SCORE_SET}`, `${REPLAY_COLUMNS}, ${SCORE_COLUMNS}`, both],
  ];
  for (const [set, columns, rows] of updates) {
    for (const runId of await updateResults(sql, set, columns, rows, counted)) recount.add(runId);
  }
  return [...recount].sort();
}

/**
 * Counts and usage of each touched run, recounted from its rows (absolute, so idempotent). Money
 * is summed as numeric, which does not depend on row order, so a rebuild gives the same value.
 * The run's judge usage is its results' plus its own calls (its KPIs' define call, its verdict's), or for an imported run
 * the run-level usage its report carries (`run_judge_usage`, else `judge_usage.run`).
 */
export async function recountRuns(sql: Sql, runIds: readonly string[]): Promise<void> {
  if (runIds.length === 0) return;
  await sql.execute(
    `UPDATE runs SET total = c.total, completed = c.completed, passed = c.passed, failed = c.failed, errored = c.errored,
       agent_input_tokens = c.agent_in, agent_output_tokens = c.agent_out, agent_cost = c.agent_cost::float8, agent_cost_sum = c.agent_cost,
       judge_cost_sum = c.judge_cost,
       judge_calls = c.judge_calls + coalesce(v.calls, 0) + i.calls, judge_input_tokens = c.judge_in + coalesce(v.input_tokens, 0) + i.input_tokens,
       judge_output_tokens = c.judge_out + coalesce(v.output_tokens, 0) + i.output_tokens,
       judge_cost = CASE WHEN c.judge_cost IS NULL AND v.cost IS NULL AND i.cost IS NULL THEN NULL
         ELSE (coalesce(c.judge_cost, 0) + coalesce(v.cost, 0) + coalesce(i.cost, 0))::float8 END
     FROM (
       SELECT id.run_id, count(r.n) AS total, count(r.n) FILTER (WHERE r.status <> 'pending') AS completed,
         count(r.n) FILTER (WHERE r.status = 'passed') AS passed, count(r.n) FILTER (WHERE r.status = 'failed') AS failed,
         count(r.n) FILTER (WHERE r.status = 'errored') AS errored, coalesce(sum(r.input_tokens), 0) AS agent_in,
         coalesce(sum(r.output_tokens), 0) AS agent_out, sum(r.cost::numeric) AS agent_cost, coalesce(sum(r.judge_calls), 0) AS judge_calls,
         coalesce(sum(r.judge_input_tokens), 0) AS judge_in, coalesce(sum(r.judge_output_tokens), 0) AS judge_out,
         sum(r.judge_cost::numeric) AS judge_cost
       FROM (SELECT jsonb_array_elements_text(?::jsonb) AS run_id) id LEFT JOIN results r ON r.run_id = id.run_id
       GROUP BY id.run_id
     ) c
     CROSS JOIN LATERAL (
       SELECT count(*) AS calls, ${runExchangeFigure("input_tokens")} AS input_tokens, ${runExchangeFigure("output_tokens")} AS output_tokens,
         ${runExchangeFigure("cost")} AS cost
       FROM ${runExchanges("c.run_id")}
     ) v
     CROSS JOIN LATERAL (
       SELECT floor(${usageFigure("calls", REPORT_MAX_COUNT)})::int AS calls,
         floor(${usageFigure("input_tokens", TOKEN_COUNT_LIMIT)})::bigint AS input_tokens,
         floor(${usageFigure("output_tokens", TOKEN_COUNT_LIMIT)})::bigint AS output_tokens,
         ${usageFigure("cost", COST_LIMIT, "NULL")} AS cost
       FROM (SELECT ${IMPORTED_RUN_USAGE} AS usage FROM runs rr WHERE rr.id = c.run_id) u
     ) i
     WHERE runs.id = c.run_id AND (c.total > 0 OR runs.total = 0)`,
    [JSON.stringify(runIds)],
  );
}
