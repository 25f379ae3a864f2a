// A run's usage counts (`usage { agent { priced ... } judge { byKind ... } }`) are counted by the
// database: one small aggregate statement a request per side asked (agent, judge) for every run it
// lists, computing only the parts the fields asked need (the judge's calls by kind, which read
// every result's kinds, only when byKind is asked), reading no result row's answer, tool calls or
// judge exchanges (the verdict's own exchange is read: one small value a run), and only over
// scored results, as the run's report counts them; another tenant's rows never count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";
import { TerminalRunCache } from "./server/terminalRunCache.js";
type Sql = ReturnType<Platform["read"]["sql"]["sql"]>;

const RUNS = 4;
const PAIRS = 300;

let p: Platform;
let evaluationId: string;
let queries: string[] = [];
/** Finished runs' figures are kept: cleared before each request that must read them. */
const runCache = new TerminalRunCache();

beforeAll(async () => {
  p = await startPlatform({ runCache });
  ({ evaluationId } = await finishedSampleRun(p, ["gpt-5-mini"]));
  // Finished runs of PAIRS scored results each, copied from the sample run's first result (with
  // a long answer, as a real one has), one of them left unscored in each.
  await p.read.sql.transaction(async (sql) => {
    const [{ id }] = await sql.execute<{ id: string }>("SELECT id FROM runs WHERE evaluation_id = ?", [evaluationId]);
    for (let i = 0; i < RUNS; i += 1) {
      const copy = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
      await sql.execute(
        `INSERT INTO runs SELECT (jsonb_populate_record(r, jsonb_build_object('id', ?::text, 'number', 100 + ?::int, 'total', ?::int, 'completed', ?::int))).*
         FROM runs r WHERE r.id = ?`,
        [copy, i, PAIRS, PAIRS, id],
      );
      await sql.execute(
        `INSERT INTO results SELECT (jsonb_populate_record(t, jsonb_build_object('run_id', ?::text, 'n', g, 'scenario_key', 's' || g, 'answer', repeat('x', 2000),
           'cost', CASE WHEN g % 3 = 0 THEN NULL ELSE 0.001 END, 'cost_source', CASE WHEN g % 3 = 0 THEN 'unpriced' WHEN g % 3 = 1 THEN 'estimated' ELSE 'reported' END,
           'duration_ms', g, 'judge_model', CASE WHEN g = 0 THEN 'unscored-judge' WHEN g = 1 THEN ' ' WHEN g = 2 THEN 'judge-b' ELSE 'judge-a' END,
           'judge_by_kind', CASE WHEN g % 2 = 0 THEN '{"score": {"calls": 1, "input_tokens": 10, "output_tokens": 2, "cost": 0.0001}}'::jsonb
             ELSE '{"score": {"calls": 1, "input_tokens": 10, "output_tokens": 2, "cost": 0.0001}, "recommend": {"calls": 2, "input_tokens": 5, "output_tokens": 1, "cost": null}}'::jsonb END,
           'scored_at', CASE WHEN g = 0 THEN NULL ELSE t.scored_at END))).*
         FROM results t, generate_series(0, ?::int - 1) g WHERE t.run_id = ? AND t.n = 0`,
        [copy, PAIRS, id],
      );
      // Another tenant's row under the same run id (as no projection writes it) never counts.
      await sql.execute(
        `INSERT INTO results SELECT (jsonb_populate_record(t, jsonb_build_object('run_id', ?::text, 'n', 100000, 'tenant', 'globex', 'cost', 5, 'duration_ms', 1e6,
           'judge_model', 'globex-judge', 'judge_by_kind', '{"define": {"calls": 9, "input_tokens": 1, "output_tokens": 1, "cost": 1}}'::jsonb))).*
         FROM results t WHERE t.run_id = ? AND t.n = 0`,
        [copy, id],
      );
    }
  });
  // Every statement the read models run from here on, in a transaction or not.
  const database = p.read.sql;
  const watched = (sql: Sql): Sql => ({ ...sql, execute: (query: string, params?: unknown[]) => (queries.push(query.replace(/\s+/g, " ")), sql.execute(query, params)) }) as Sql;
  const open = database.sql.bind(database);
  const transaction = database.transaction.bind(database);
  database.sql = () => watched(open());
  database.transaction = (work) => transaction((sql) => work(watched(sql)));
}, 60_000);
afterAll(async () => {
  await p?.close();
});

const LIST = `query ($id: ID!) { evaluation(id: $id) { runs(first: 50) { edges { node { number usage {
  agent { priced unpriced reported estimated costBasis replays perInteraction modelTimeMs }
  judge { source model byKind { kind calls inputTokens outputTokens cost } run { calls cost byKind { kind calls } } }
  runtimeMs } } } } } }`;

/**
 * The statements on results, and that none reads an answer, a tool call or a result's judge
 * exchanges (only the run's own calls: the verdict's exchange, vv, and its KPIs' define call).
 */
function onResults(): string[] {
  expect(queries.some((q) => /\banswer\b|\bjudge_exchanges\b|\btool_calls\b/i.test(q))).toBe(false);
  const read = queries.flatMap((q) => q.replace(/\bkpi_authoring\s*->?\s*'judge_exchange'/g, "").match(/[\w.]*\bjudge_exchange\b/g) ?? []);
  expect(read.every((column) => column === "vv.judge_exchange")).toBe(true);
  return queries.filter((q) => /\bFROM results\b/i.test(q));
}

const pageOf = (usage: string) => `query ($id: ID!) { evaluation(id: $id) { runs(first: 50) { edges { node { number usage { ${usage} } } } } } }`;

describe("usage counts of a list of finished runs", () => {
  it("reads only the agent's part when only agent fields are asked: one statement, no judge kind, model or verdict", async () => {
    runCache.clear();
    queries = [];
    const res = await p.gql(p.keys.acmeRead, pageOf("agent { priced unpriced reported estimated costBasis replays perInteraction modelTimeMs } judge { calls cost }"), { id: evaluationId });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.evaluation.runs.edges).toHaveLength(RUNS + 1);
    const statements = onResults();
    expect(statements).toHaveLength(1);
    expect(statements[0]).not.toMatch(/jsonb_each|judge_by_kind|judge_model|judge_source|\bverdicts\b/i);
    expect(queries.filter((q) => /\bverdicts\b/i.test(q))).toHaveLength(0);
  });

  it("reads the judge's model and source without its calls by kind (no jsonb_each): one statement", async () => {
    runCache.clear();
    queries = [];
    const res = await p.gql(p.keys.acmeRead, pageOf("judge { model source run { calls } }"), { id: evaluationId });
    expect(res.body.errors).toBeUndefined();
    const statements = onResults();
    expect(statements).toHaveLength(1);
    expect(statements[0]).not.toMatch(/jsonb_each|judge_by_kind|\bcost_source\b/i);
  });

  it("reads both sides with at most two aggregate statements, no result row, and counts only scored results", async () => {
    runCache.clear();
    queries = [];
    const res = await p.gql(p.keys.acmeRead, LIST, { id: evaluationId });
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.evaluation.runs.edges.map((edge: { node: { number: number; usage: unknown } }) => edge.node);
    expect(nodes).toHaveLength(RUNS + 1);
    const statements = onResults();
    expect(statements).toHaveLength(2);
    for (const statement of statements) expect(statement).toMatch(/GROUP BY/i);
    // The agent's statement reads no kind; the judge's reads them once for every run, with the
    // run-level judge part (verdicts) in the same statement, not one per run.
    const [judge] = statements.filter((q) => /jsonb_each/.test(q));
    expect(statements.filter((q) => /jsonb_each/.test(q))).toHaveLength(1);
    expect(queries.filter((q) => /\bverdicts\b/i.test(q))).toEqual([judge]);
    // g = 0 (unpriced) unscored: 99 unpriced, 100 estimated, 100 reported of 299 scored, the
    // 200 priced at 0.001; durations 1 + ... + 299; the judge: a score call each, two recommend
    // calls on each odd g (150 of them), the first non-blank model of a scored result judge-b.
    for (const node of nodes.filter((n: { number: number }) => n.number >= 100)) {
      expect(node.usage).toEqual({
        agent: { priced: 200, unpriced: 99, reported: 100, estimated: 100, costBasis: "MIXED", replays: 299, perInteraction: 0.001, modelTimeMs: 44850 },
        judge: {
          source: null, model: "judge-b", run: null,
          byKind: [
            { kind: "score", calls: 299, inputTokens: 2990, outputTokens: 598, cost: 0.0299 },
            { kind: "recommend", calls: 300, inputTokens: 750, outputTokens: 150, cost: null },
          ],
        },
        runtimeMs: expect.any(Number),
      });
    }
  });

  it("keeps a finished run's counts: the next request reads no result", async () => {
    queries = [];
    const res = await p.gql(p.keys.acmeRead, LIST, { id: evaluationId });
    expect(res.body.errors).toBeUndefined();
    expect(onResults()).toHaveLength(0);
  });
});

describe("a run's judge calls by kind", () => {
  it("answers at most 16 kinds a run, the rest summed into other, however many its results name (a report imported before the import refused more)", async () => {
    const runId = "00000000-0000-4000-8000-000000000000";
    // Each scored result names a kind of its own (299 of them), as rows projected from reports
    // imported before 16 kinds a result were the most kept could (and as a run of 1,000 results
    // of 16 kinds each still can).
    await p.read.sql.sql().execute(
      `UPDATE results SET judge_by_kind = jsonb_build_object('k' || lpad(n::text, 3, '0'), '{"calls": 1}'::jsonb, 'score', '{"calls": 1}'::jsonb) WHERE run_id = ? AND tenant = 'acme'`,
      [runId],
    );
    runCache.clear();
    queries = [];
    const res = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { usage { judge { byKind { kind calls inputTokens cost } } } } }`, { r: runId });
    expect(res.body.errors).toBeUndefined();
    const kinds: Array<{ kind: string; calls: number }> = res.body.data.run.usage.judge.byKind;
    expect(kinds).toHaveLength(16);
    expect(kinds[0]).toEqual({ kind: "score", calls: 299, inputTokens: null, cost: null });
    expect(kinds.slice(1, 15).map((k) => k.kind)).toEqual(Array.from({ length: 14 }, (_, i) => `k${String(i + 1).padStart(3, "0")}`));
    expect(kinds[15]).toEqual({ kind: "other", calls: 299 - 14, inputTokens: null, cost: null });
    expect(onResults()).toHaveLength(1);
    // The statement answers 16 kinds, not 300.
    const [figures] = await p.read.readModels.runUsageFigures("acme", [runId], ["judgeKinds"]);
    expect(figures.judgeKinds).toHaveLength(16);
    expect(figures.judgeKinds.find((k) => k.kind === "other")).toMatchObject({ calls: 299 - 14 });
  });

  it("reads runs named by aliases with one statement a side", async () => {
    runCache.clear();
    queries = [];
    const ids = [0, 1, 2, 3].map((i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    const q = `query ($a: ID!, $b: ID!, $c: ID!, $d: ID!) { a: run(id: $a) { usage { agent { priced } } } b: run(id: $b) { usage { agent { priced } judge { model } } }
      c: run(id: $c) { usage { agent { replays } } } d: run(id: $d) { usage { judge { byKind { kind } } } } }`;
    const res = await p.gql(p.keys.acmeRead, q, { a: ids[0], b: ids[1], c: ids[2], d: ids[3] });
    expect(res.body.errors).toBeUndefined();
    expect(onResults()).toHaveLength(2);
  });
});

describe("a finished run's runtime", () => {
  /** A finished run copied from the sample run with these start and completion times, read once (a finished run is then cached). */
  async function runtimeOf(id: string, started: string, completed: string): Promise<number | null> {
    await p.read.sql.transaction((sql) => sql.execute(
      `INSERT INTO runs SELECT (jsonb_populate_record(r, jsonb_build_object('id', ?::text, 'number', 200 + (SELECT count(*) FROM runs)::int,
         'started_at', ?::text, 'completed_at', ?::text))).* FROM runs r WHERE r.evaluation_id = ? AND r.number = 1`,
      [id, started, completed, evaluationId],
    ));
    const res = await p.gql(p.keys.acmeRead, "query ($r: ID!) { run(id: $r) { status usage { runtimeMs } } }", { r: id });
    expect(res.body.data.run.status).toBe("COMPLETED");
    return res.body.data.run.usage.runtimeMs;
  }

  it("is its wall time, or null (not a negative figure) when its completion reads earlier than its start: two processes' clocks apart", async () => {
    expect(await runtimeOf("00000000-0000-4000-8000-100000000001", "2026-12-07T10:00:00Z", "2026-12-07T10:00:02.500Z")).toBe(2500);
    // RunStarted written by an API whose clock ran 2 h ahead of the worker that completed the run.
    expect(await runtimeOf("00000000-0000-4000-8000-100000000002", "2026-12-07T12:00:00Z", "2026-12-07T10:00:02.500Z")).toBeNull();
  });
});

describe("usage counts of a run still going", () => {
  it("leave out a replay not yet scored, as the run's report does, while cost already holds it", async () => {
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { models: ["gpt-5-mini"] }) { runId } }`, { id: evaluationId });
    const runId: string = started.body.data.startRun.runId;
    await p.worker.stop(); // nothing scores the pair: a judge still grading it
    const recorded = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "greeting", modelLabel: "gpt-5-mini", replay: { answer: "Hello", cost: 0.001 }) { duplicate } }`, { r: runId });
    expect(recorded.body.errors).toBeUndefined();
    const usage = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status usage { agent { cost priced unpriced reported estimated costBasis replays perInteraction modelTimeMs } runtimeMs } } }`, { r: runId });
    expect(usage.body.data.run).toEqual({
      status: "RUNNING",
      usage: { agent: { cost: 0.001, priced: 0, unpriced: 0, reported: 0, estimated: 0, costBasis: null, replays: 0, perInteraction: null, modelTimeMs: null }, runtimeMs: null },
    });
    const report = (await (await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.json`)).json()) as {
      report: { summary_by_model: Record<string, { priced: number; reported: number; estimated: number }> };
    };
    const summaries = Object.values(report.report.summary_by_model);
    expect(summaries.reduce((n, s) => n + s.priced, 0)).toBe(0);
  });
});
