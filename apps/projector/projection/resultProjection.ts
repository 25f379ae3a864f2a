// results: one row per scenario x model pair, planned PENDING at RunStarted, filled by its replay
// and made final by its score. Rows are written in bulk at the end of a batch (inserts, then
// replay columns, then score columns: each pair's events touch disjoint columns), then every
// touched run's counts and usage are recounted from its rows, so reapplying changes nothing.
import type { EventOf } from "@verdict/domain";
import type { Sql } from "../db/sql.js";
import type { Batch, Envelope } from "./batch.js";
import { exchangeUsage } from "./usage.js";

function costSource(replay: EventOf<"ReplayRecorded">["data"]["replay"]): string {
  const declared = replay.metadata.cost_source;
  if (typeof declared === "string" && declared !== "") return declared;
  return replay.cost === null || replay.cost === undefined ? "unpriced" : "reported";
}

export function replayRecorded(event: EventOf<"ReplayRecorded">, envelope: Envelope, batch: Batch): void {
  const { run_id, n, replay } = event.data;
  batch.replays.push({
    run_id, n, answer: replay.answer ?? null, tool_calls: replay.tool_calls, error: replay.error ?? null,
    duration_ms: replay.duration_ms ?? null, input_tokens: replay.input_tokens ?? null, output_tokens: replay.output_tokens ?? null,
    cost: replay.cost ?? null, cost_source: costSource(replay), replay_metadata: replay.metadata, replayed_at: envelope.at,
  });
  batch.touchedRuns.add(run_id); // the run's agent usage sums its replays
}

export function resultScored(event: EventOf<"ResultScored">, envelope: Envelope, batch: Batch): void {
  const d = event.data;
  const usage = exchangeUsage(d.judge_exchanges);
  batch.scores.push({
    run_id: d.run_id, n: d.n, status: d.status, score: d.score, scores: d.scores, fault: d.fault, recommendation: d.recommendation,
    diagnosis: d.diagnosis, judge_exchanges: d.judge_exchanges, judge_calls: usage.calls, judge_input_tokens: usage.inputTokens,
    judge_output_tokens: usage.outputTokens, judge_cost: usage.cost, scored_at: envelope.at,
  });
  batch.touchedRuns.add(d.run_id);
  batch.latestResult.set(d.run_id, { scenario_key: d.scenario_key, model_label: d.model_label, status: d.status, score: d.score, fault: d.fault });
}

const REPLAY_SET = `answer = r.answer, tool_calls = r.tool_calls, error = r.error, duration_ms = r.duration_ms,
  input_tokens = r.input_tokens, output_tokens = r.output_tokens, cost = r.cost, cost_source = r.cost_source,
  replay_metadata = r.replay_metadata, replayed_at = r.replayed_at`;
const REPLAY_COLUMNS = `answer text, tool_calls jsonb, error text, duration_ms float8, input_tokens bigint, output_tokens bigint, cost float8,
  cost_source text, replay_metadata jsonb, replayed_at timestamptz`;
const SCORE_SET = `status = r.status, score = r.score, scores = r.scores, fault = r.fault, recommendation = r.recommendation,
  diagnosis = r.diagnosis, judge_exchanges = r.judge_exchanges, judge_calls = r.judge_calls, judge_input_tokens = r.judge_input_tokens,
  judge_output_tokens = r.judge_output_tokens, judge_cost = r.judge_cost, scored_at = r.scored_at`;
const SCORE_COLUMNS = `status text, score float8, scores jsonb, fault text, recommendation text, diagnosis jsonb, judge_exchanges jsonb,
  judge_calls int, judge_input_tokens bigint, judge_output_tokens bigint, judge_cost float8, scored_at timestamptz`;

async function updateResults(sql: Sql, set: string, columns: string, rows: object[]): Promise<void> {
  if (rows.length === 0) return;
  await sql.execute(
    `UPDATE results t SET ${set} FROM jsonb_to_recordset(?::jsonb) AS r(run_id text, n int, ${columns}) WHERE t.run_id = r.run_id AND t.n = r.n`,
    [JSON.stringify(rows)],
  );
}

export async function flushResults(sql: Sql, batch: Batch): Promise<void> {
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
  const both: object[] = [];
  const scoresOnly: object[] = [];
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
  await updateResults(sql, REPLAY_SET, REPLAY_COLUMNS, [...replays.values()]);
  await updateResults(sql, SCORE_SET, SCORE_COLUMNS, scoresOnly);
  await updateResults(sql, `${REPLAY_SET}, ${SCORE_SET}`, `${REPLAY_COLUMNS}, ${SCORE_COLUMNS}`, both);
}

/**
 * Counts and usage of each touched run, recounted from its rows (absolute, so idempotent). Money
 * is summed as numeric, which does not depend on row order, so a rebuild gives the same value.
 * The run's judge usage is its results' plus the verdict's own exchange.
 */
export async function recountRuns(sql: Sql, runIds: readonly string[]): Promise<void> {
  if (runIds.length === 0) return;
  await sql.execute(
    `UPDATE runs SET total = c.total, completed = c.completed, passed = c.passed, failed = c.failed, errored = c.errored,
       agent_input_tokens = c.agent_in, agent_output_tokens = c.agent_out, agent_cost = c.agent_cost,
       judge_calls = c.judge_calls + coalesce(v.calls, 0), judge_input_tokens = c.judge_in + coalesce(v.input_tokens, 0),
       judge_output_tokens = c.judge_out + coalesce(v.output_tokens, 0),
       judge_cost = CASE WHEN c.judge_cost IS NULL AND v.cost IS NULL THEN NULL ELSE (coalesce(c.judge_cost, 0) + coalesce(v.cost, 0))::float8 END
     FROM (
       SELECT id.run_id, count(r.n) AS total, count(r.n) FILTER (WHERE r.status <> 'pending') AS completed,
         count(r.n) FILTER (WHERE r.status = 'passed') AS passed, count(r.n) FILTER (WHERE r.status = 'failed') AS failed,
         count(r.n) FILTER (WHERE r.status = 'errored') AS errored, coalesce(sum(r.input_tokens), 0) AS agent_in,
         coalesce(sum(r.output_tokens), 0) AS agent_out, sum(r.cost::numeric)::float8 AS agent_cost, coalesce(sum(r.judge_calls), 0) AS judge_calls,
         coalesce(sum(r.judge_input_tokens), 0) AS judge_in, coalesce(sum(r.judge_output_tokens), 0) AS judge_out,
         sum(r.judge_cost::numeric) AS judge_cost
       FROM (SELECT jsonb_array_elements_text(?::jsonb) AS run_id) id LEFT JOIN results r ON r.run_id = id.run_id
       GROUP BY id.run_id
     ) c
     LEFT JOIN LATERAL (
       SELECT CASE WHEN vv.judge_exchange IS NULL THEN 0 ELSE 1 END AS calls,
         coalesce((vv.judge_exchange->'usage'->>'input_tokens')::bigint, 0) AS input_tokens,
         coalesce((vv.judge_exchange->'usage'->>'output_tokens')::bigint, 0) AS output_tokens,
         (vv.judge_exchange->'usage'->>'cost')::numeric AS cost
       FROM verdicts vv WHERE vv.run_id = c.run_id
     ) v ON true
     WHERE runs.id = c.run_id AND (c.total > 0 OR runs.total = 0)`,
    [JSON.stringify(runIds)],
  );
}
