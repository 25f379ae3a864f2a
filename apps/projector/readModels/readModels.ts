// The query surface the API reads: every method is scoped by tenant, so another tenant's ids
// answer null (or an empty list), except runTenant / evaluationTenant, the TenantIndex the API
// decides tenancy with before reading a stream. Lists page with opaque cursors; runs come newest
// first.
import type { MikroORM } from "@mikro-orm/postgresql";
import {
  COST_LIMIT, JUDGE_KINDS_MAX, OTHER_JUDGE_KIND, REPORT_MAX_COUNT, TOKEN_COUNT_LIMIT, type EvaluationDirectory, type TenantIndex,
} from "@verdict/domain";
import { ormDatabase, type Sql, type SqlDatabase } from "../db/sql.js";
import { LATEST_RESULT_SQL, type LatestResult, type RunProgress } from "../progress/progress.js";
import { selectList } from "./columns.js";
import { agentReleasePages, getAgent, listAgents } from "./agents.js";
import { usageMeters } from "./usageMeters.js";
import { runAverageScore } from "./runAverageScore.js";
import { FinishedRunCache, type FinishedRun } from "./finishedRuns.js";
import { RebuildWatch } from "./rebuildWatch.js";
import { readRebuildGeneration } from "../projection/rebuildGeneration.js";
import { projectionState, type ProjectionState } from "../projection/projectionVersion.js";
import { readCheckpoint } from "../projection/checkpoint.js";
import { IMPORTED_RUN_USAGE, runExchangeFigure, runExchanges, usageFigure } from "../projection/resultProjection.js";
import { reportedKinds } from "../projection/usage.js";
import { connection, decodeScopedCursor, pageSize } from "./paging.js";
import {
  CATALOG_SELECT, CELL_SELECT, EVALUATION_SELECT, matches, RESULT_SELECT, resultWhere, RUN_SELECT, SCENARIO_SELECT, spec,
} from "./selects.js";
import type {
  Agent, AgentRelease, UsageMeters, Catalog, CatalogSummary, Connection, Evaluation, EvaluationScenario, FixItem, ModelSummary, PageArgs, Result, ResultCell, ResultFilter,
  Run, RunComparison, RunUsageFigures, RunUsagePart, RunVerdict, JudgeKindFigures, RunJudgePart,
} from "./types.js";

export interface ReadModelsOptions {
  /**
   * Finished runs (COMPLETED or FAILED) kept in memory with their results, model summaries and
   * fix items (default 4, 0 turns it off). Nothing changes a run once it ended (the deciders
   * refuse every later event) but a rebuild, which empties the cache once `rebuilds` notices it,
   * while reading 3,000 wide rows through the driver takes far longer than the 30 ms a `run`
   * query may take. A run of 3,000 results with short answers holds about 4.5 MB; long answers grow it, hence a small
   * default, and older runs also go while those kept hold more than 5,000 results (the most
   * recent run is always kept).
   */
  finishedRunCache?: number;
  /** How often, at most, the rebuild generation is read (default DEFAULT_REBUILD_CHECK_MS, 1 s; rebuildWatch.ts). */
  rebuildCheckMs?: number;
  /** Where a read of the rebuild generation that failed or hung is told, at most every 30 s (default stderr; rebuildWatch.ts). */
  warn?: (line: string) => void;
}

export class ReadModels implements TenantIndex, EvaluationDirectory {
  readonly #finished: FinishedRunCache;
  readonly #database: SqlDatabase;
  /**
   * Notices a rebuild of the read models: the finished runs kept here are dropped, and the API
   * drops its own caches of finished runs on it too (apps/api createApiServer).
   */
  readonly rebuilds: RebuildWatch;

  /** On MikroORM, or on the read database's SQL itself (OpenedReadModels.sql). */
  constructor(database: MikroORM | SqlDatabase, options: ReadModelsOptions = {}) {
    this.#database = "em" in database ? ormDatabase(database) : database;
    this.#finished = new FinishedRunCache(options.finishedRunCache ?? 4);
    this.rebuilds = new RebuildWatch({ read: () => readRebuildGeneration(this.sql()), everyMs: options.rebuildCheckMs, warn: options.warn });
    this.rebuilds.onRebuilt(() => this.#finished.clear());
  }

  /** Forgets every cached finished run (tests that truncate the tables between cases). */
  clearCache(): void {
    this.#finished.clear();
  }

  /** A finished run's entry, reading the run once when it is not cached yet. */
  private async finishedRun(tenant: string, runId: string): Promise<FinishedRun | undefined> {
    if (this.#finished.size === 0) return undefined;
    await this.rebuilds.check();
    const cached = this.#finished.get(tenant, runId);
    if (cached) return cached;
    const epoch = this.rebuilds.epoch;
    const run = await this.one<Run>(`SELECT ${RUN_SELECT} FROM runs r WHERE r.tenant = ? AND r.id = ?`, [tenant, runId]);
    if (!run) return undefined;
    // Read before a rebuild noticed meanwhile: answered, not kept.
    return epoch === this.rebuilds.epoch ? this.#finished.remember(run) : undefined;
  }

  private sql(): Sql {
    return this.#database.sql();
  }

  private async one<T>(query: string, params: unknown[]): Promise<T | null> {
    const rows = await this.sql().execute<T>(query, params);
    return rows[0] ?? null;
  }

  /**
   * The projection version projector `name` stored with its checkpoint (one row), against this
   * build's: the API's readiness probe (apps/api server/readiness.ts) is unready on stale rows.
   */
  projectionState(name: string): Promise<ProjectionState> {
    return projectionState(this.sql(), name);
  }

  /**
   * Whether projector `name` ever committed a batch here (its checkpoint row): with none, nobody
   * fills these read models, and the API's /readyz says so once the log holds events.
   */
  async projectorHasRun(name: string): Promise<boolean> {
    return (await readCheckpoint(this.sql(), name)) !== null;
  }

  /** Whichever tenant's run has this id: for deciding tenancy only, never for showing a caller. */
  async runTenant(runId: string): Promise<string | null> {
    return (await this.one<{ tenant: string }>("SELECT r.tenant FROM runs r WHERE r.id = ?", [runId]))?.tenant ?? null;
  }

  /** Whichever tenant's evaluation has this id: for deciding tenancy only, never for showing a caller. */
  async evaluationTenant(evaluationId: string): Promise<string | null> {
    return (await this.one<{ tenant: string }>("SELECT e.tenant FROM evaluations e WHERE e.id = ?", [evaluationId]))?.tenant ?? null;
  }

  listCatalogs(tenant: string): Promise<CatalogSummary[]> {
    return this.sql().execute<CatalogSummary>(`SELECT ${CATALOG_SELECT} FROM catalogs c WHERE c.tenant = ? ORDER BY c.key COLLATE "C"`, [tenant]);
  }

  getCatalog(tenant: string, key: string): Promise<Catalog | null> {
    return this.one<Catalog>(`SELECT ${CATALOG_SELECT}, c.canonical_yaml AS "canonicalYaml", c.products FROM catalogs c WHERE c.tenant = ? AND c.key = ?`, [tenant, key]);
  }

  /**
   * Newest-updated first (updated_at, then id), as the reference's index lists them; `agent`: only
   * that agent's (matched exactly). An evaluation changed while a caller pages moves to the front,
   * so a later page may skip or repeat it, as any list ordered by last change does.
   */
  async listEvaluations(tenant: string, args: PageArgs & { archived?: boolean | null; agent?: string | null } = {}): Promise<Connection<Evaluation>> {
    const size = pageSize(args.first);
    // The filters and the order are part of the list: a place in one is another in the next
    // (a cursor of the list by creation, before session 43, is not one of this list's).
    const scope = `evaluations of ${tenant} by update${args.archived == null ? "" : ` archived ${args.archived}`}${args.agent == null ? "" : ` of ${JSON.stringify(args.agent)}`}`;
    const where = ["e.tenant = ?"];
    const params: unknown[] = [tenant];
    if (args.archived !== undefined && args.archived !== null) {
      where.push("e.archived = ?");
      params.push(args.archived);
    }
    if (args.agent !== undefined && args.agent !== null) {
      where.push("e.agent = ?");
      params.push(args.agent);
    }
    const countWhere = where.join(" AND ");
    const countParams = [...params];
    if (args.after) {
      // The id (a tie-break) in the database's collation, unlike every other text order: ids are
      // minted UUIDs (lowercase hex, hyphens in fixed places), in the same order in any collation,
      // and COLLATE "C" here would keep evaluations_tenant_updated from serving the page.
      const [updatedAt, id] = decodeScopedCursor(args.after, scope, ["timestamp", "text"]);
      where.push("(e.updated_at, e.id) < (?::timestamptz, ?)");
      params.push(updatedAt, id);
    }
    const sql = this.sql();
    const rows = await sql.execute<Evaluation>(
      `SELECT ${EVALUATION_SELECT} FROM evaluations e WHERE ${where.join(" AND ")} ORDER BY e.updated_at DESC, e.id DESC LIMIT ?`,
      [...params, size + 1],
    );
    const [count] = await sql.execute<{ n: number }>(`SELECT count(*)::int AS n FROM evaluations e WHERE ${countWhere}`, countParams);
    return connection(rows, size, count.n, scope, (e) => [e.updatedAt, e.id]);
  }

  /** Oldest first (created_at, then id): the EvaluationDirectory createEvaluation adopts names from. */
  async evaluationsNamed(tenant: string, agent: string, name: string): Promise<string[]> {
    const rows = await this.sql().execute<{ id: string }>(
      "SELECT e.id FROM evaluations e WHERE e.tenant = ? AND e.agent = ? AND e.name = ? ORDER BY e.created_at, e.id COLLATE \"C\"", [tenant, agent, name],
    );
    return rows.map((row) => row.id);
  }

  /** Oldest first (created_at, then id): the EvaluationDirectory a catalog's sync adopts evaluations from. */
  async evaluationsOfCatalog(tenant: string, catalogKey: string): Promise<string[]> {
    const rows = await this.sql().execute<{ id: string }>(
      "SELECT e.id FROM evaluations e WHERE e.tenant = ? AND e.catalog->>'catalog_key' = ? ORDER BY e.created_at, e.id COLLATE \"C\"", [tenant, catalogKey],
    );
    return rows.map((row) => row.id);
  }

  getEvaluation(tenant: string, id: string): Promise<Evaluation | null> {
    return this.one<Evaluation>(`SELECT ${EVALUATION_SELECT} FROM evaluations e WHERE e.tenant = ? AND e.id = ?`, [tenant, id]);
  }

  /** In suite order (position, then key). */
  listScenarios(tenant: string, evaluationId: string, filter: { group?: string | null; enabled?: boolean | null } = {}): Promise<EvaluationScenario[]> {
    const where = ["s.tenant = ?", "s.evaluation_id = ?"];
    const params: unknown[] = [tenant, evaluationId];
    if (filter.group !== undefined && filter.group !== null) {
      where.push(`s."group" = ?`);
      params.push(filter.group);
    }
    if (filter.enabled !== undefined && filter.enabled !== null) {
      where.push("s.enabled = ?");
      params.push(filter.enabled);
    }
    return this.sql().execute<EvaluationScenario>(`SELECT ${SCENARIO_SELECT} FROM evaluation_scenarios s WHERE ${where.join(" AND ")} ORDER BY s.position, s.key COLLATE "C"`, params);
  }

  /** Newest first (by number within the evaluation). */
  async listRuns(tenant: string, evaluationId: string, args: PageArgs = {}): Promise<Connection<Run>> {
    const size = pageSize(args.first);
    const params: unknown[] = [tenant, evaluationId];
    let after = "";
    if (args.after) {
      const [number] = decodeScopedCursor(args.after, `runs of ${evaluationId}`, ["integer"]);
      after = " AND r.number < ?";
      params.push(number);
    }
    const sql = this.sql();
    const rows = await sql.execute<Run>(
      `SELECT ${RUN_SELECT} FROM runs r WHERE r.tenant = ? AND r.evaluation_id = ?${after} ORDER BY r.number DESC LIMIT ?`,
      [...params, size + 1],
    );
    const [count] = await sql.execute<{ n: number }>("SELECT count(*)::int AS n FROM runs r WHERE r.tenant = ? AND r.evaluation_id = ?", [tenant, evaluationId]);
    return connection(rows, size, count.n, `runs of ${evaluationId}`, (r) => [r.number]);
  }

  async getRun(tenant: string, id: string): Promise<Run | null> {
    if (this.#finished.size > 0) await this.rebuilds.check();
    const cached = this.#finished.get(tenant, id);
    if (cached) return { ...cached.run };
    const epoch = this.rebuilds.epoch;
    const run = await this.one<Run>(`SELECT ${RUN_SELECT} FROM runs r WHERE r.tenant = ? AND r.id = ?`, [tenant, id]);
    if (run && epoch === this.rebuilds.epoch) this.#finished.remember(run);
    return run && { ...run };
  }

  latestRun(tenant: string, evaluationId: string): Promise<Run | null> {
    return this.one<Run>(`SELECT ${RUN_SELECT} FROM runs r WHERE r.tenant = ? AND r.evaluation_id = ? ORDER BY r.number DESC LIMIT 1`, [tenant, evaluationId]);
  }

  /** The run numbered just before this one in its evaluation. */
  previousRun(tenant: string, runId: string): Promise<Run | null> {
    return this.one<Run>(
      `SELECT ${RUN_SELECT} FROM runs r JOIN runs cur ON cur.id = ? AND cur.tenant = r.tenant AND cur.evaluation_id = r.evaluation_id
       WHERE r.tenant = ? AND r.number < cur.number ORDER BY r.number DESC LIMIT 1`,
      [runId, tenant],
    );
  }

  /**
   * One row per scenario x model pair, in run order (n); filters combine. A finished run's rows
   * come from memory and are shared: treat them as read-only.
   */
  async listResults(tenant: string, runId: string, filter: ResultFilter = {}): Promise<Result[]> {
    const entry = await this.finishedRun(tenant, runId);
    if (!entry) return this.queryResults(tenant, runId, filter);
    const results = await this.#finished.part(entry, "results", () => this.queryResults(tenant, runId, {}));
    return filter.model == null && filter.status == null && filter.fault == null && filter.scenarioKey == null
      ? results.slice()
      : results.filter((result) => matches(result, filter));
  }

  /**
   * The light columns of every result (no answer, tool calls, diagnosis, scenario or judge
   * exchanges): a running run's matrix reads several times faster this way. Finished runs are
   * answered from their cached full rows.
   */
  async listResultCells(tenant: string, runId: string, filter: ResultFilter = {}): Promise<ResultCell[]> {
    const entry = await this.finishedRun(tenant, runId);
    if (entry) {
      return (await this.listResults(tenant, runId, filter)).map((r) => ({
        runId: r.runId, n: r.n, scenarioKey: r.scenarioKey, group: r.group, modelLabel: r.modelLabel, position: r.position, status: r.status,
        score: r.score, fault: r.fault, durationMs: r.durationMs, cost: r.cost, costSource: r.costSource, scoredAt: r.scoredAt,
      }));
    }
    const { where, params } = resultWhere(tenant, runId, filter);
    return this.sql().execute<ResultCell>(`SELECT ${CELL_SELECT} FROM results t WHERE ${where} ORDER BY t.n`, params);
  }

  private queryResults(tenant: string, runId: string, filter: ResultFilter): Promise<Result[]> {
    const { where, params } = resultWhere(tenant, runId, filter);
    return this.sql().execute<Result>(`SELECT ${RESULT_SELECT} FROM results t WHERE ${where} ORDER BY t.n`, params);
  }

  /**
   * What the usage of each of `runIds` (the tenant's only) counts, the `parts` asked only, in one
   * aggregate statement for every run asked, reading no answer, tool call or judge exchange
   * (results.judge_exchanges), and none of the finished runs' cached rows:
   *  - `replays`: its scored results counted per run by whether they carry a finite cost and by
   *    their stored cost source, with their costs and recorded durations summed (only scored
   *    results count, as the run's report counts them: a replay not yet scored is not in it);
   *  - `judgeKinds`: its results' judge calls per kind (results.judge_by_kind), at most
   *    JUDGE_KINDS_MAX kinds a run (the rest folded into "other", as the projector folds a
   *    result's), the only part that reads every result's kinds (jsonb_each);
   *  - `judgeModels`: the first model its results' judge usage names (run order);
   *  - `judgeSources`: whether its results' judge usage was metered or reported;
   *  - `judgeRun`: the judge calls recorded on the run itself (its verdict's exchange, read from
   *    verdicts.judge_exchange, or an imported report's run-level usage), read by the rules the
   *    run's judge totals are (recountRuns).
   * What a group means (priced, reported, estimated) is domain/cost's to say (apps/api
   * agentCostCounts), not this query's. A part not asked is left empty (null for judgeRun).
   */
  async runUsageFigures(tenant: string, runIds: readonly string[], parts: Iterable<RunUsagePart> = RUN_USAGE_PARTS): Promise<RunUsageFigures[]> {
    const asked = new Set(parts);
    if (runIds.length === 0 || asked.size === 0) return [];
    const { sql, params } = usageStatement(asked, tenant, runIds);
    type Row = { part: "replays" | "judgeKind" | "judgeModel" | "judgeSources" | "judgeRun"; runId: string; data: Record<string, any> };
    // The planner reads jsonb_each as 100 rows a result (a result names 1 to 4 kinds), so the
    // kinds part of a run of 10,000 results is costed past the JIT thresholds: compiling it took
    // 5 of its 6 seconds (100,000 results) where the work takes 0.6. It runs without JIT.
    const rows = asked.has("judgeKinds")
      ? await this.#database.transaction(async (tx) => {
        await tx.execute("SET LOCAL jit = off");
        return tx.execute<Row>(sql, params);
      })
      : await this.sql().execute<Row>(sql, params);
    const byRun = new Map<string, RunUsageFigures>();
    const of = (runId: string): RunUsageFigures => {
      let figures = byRun.get(runId);
      if (!figures) byRun.set(runId, (figures = { runId, replays: [], judgeKinds: [], judgeModels: [], judgeSources: null, judgeRun: null }));
      return figures;
    };
    for (const { part, runId, data } of rows) {
      const figures = of(runId);
      if (part === "replays") {
        figures.replays.push({
          runId, priced: data.priced, costSource: data.costSource, count: Number(data.count), cost: numberOrNull(data.cost),
          durationMs: numberOrNull(data.durationMs), timed: Number(data.timed),
        });
      } else if (part === "judgeKind") {
        figures.judgeKinds.push(kindFigures(data));
      } else if (part === "judgeModel") {
        figures.judgeModels.push({ model: data.model, n: Number(data.n) });
      } else if (part === "judgeSources") {
        figures.judgeSources = { meter: data.meter === true, reported: data.reported === true };
      } else {
        figures.judgeRun = runJudgePart(data);
      }
    }
    return [...byRun.values()];
  }

  getResult(tenant: string, runId: string, n: number): Promise<Result | null> {
    return this.one<Result>(`SELECT ${RESULT_SELECT} FROM results t WHERE t.run_id = ? AND t.tenant = ? AND t.n = ?`, [runId, tenant, n]);
  }

  /** In report order; with a model, only the items whose models include it. */
  async fixItems(tenant: string, runId: string, filter: { model?: string | null } = {}): Promise<FixItem[]> {
    const entry = await this.finishedRun(tenant, runId);
    if (entry) {
      const items = await this.#finished.part(entry, "fixItems", () => this.queryFixItems(tenant, runId, {}));
      return filter.model ? items.filter((item) => item.models.includes(filter.model!)) : items.slice();
    }
    return this.queryFixItems(tenant, runId, filter);
  }

  private queryFixItems(tenant: string, runId: string, filter: { model?: string | null }): Promise<FixItem[]> {
    const model = filter.model ? " AND f.models @> ?::jsonb" : "";
    const params: unknown[] = [tenant, runId, ...(filter.model ? [JSON.stringify([filter.model])] : [])];
    return this.sql().execute<FixItem>(
      `SELECT f.run_id AS "runId", f.ordinal, f.tenant, f.kind, f.fault, f.models, f.item FROM fix_items f WHERE f.tenant = ? AND f.run_id = ?${model} ORDER BY f.ordinal`,
      params,
    );
  }

  /** In model order. */
  async modelSummaries(tenant: string, runId: string): Promise<ModelSummary[]> {
    const entry = await this.finishedRun(tenant, runId);
    if (entry) return (await this.#finished.part(entry, "summaries", () => this.queryModelSummaries(tenant, runId))).slice();
    return this.queryModelSummaries(tenant, runId);
  }

  private queryModelSummaries(tenant: string, runId: string): Promise<ModelSummary[]> {
    return this.sql().execute<ModelSummary>(
      `SELECT m.run_id AS "runId", m.label, m.tenant, m.position, m.provider, m.model, m.pass_rate AS "passRate", m.avg_score AS "avgScore", m.summary
       FROM model_summaries m WHERE m.tenant = ? AND m.run_id = ? ORDER BY m.position`,
      [tenant, runId],
    );
  }

  comparison(tenant: string, runId: string): Promise<RunComparison | null> {
    return this.one<RunComparison>(
      `SELECT c.run_id AS "runId", c.tenant, c.comparison, c.seed::float8 AS seed, c.resamples, c.confidence, ${selectList("c", ["recorded_at"], spec)}
       FROM comparisons c WHERE c.tenant = ? AND c.run_id = ?`,
      [tenant, runId],
    );
  }

  verdict(tenant: string, runId: string): Promise<RunVerdict | null> {
    return this.one<RunVerdict>(
      `SELECT ${selectList("v", ["run_id", "tenant", "winner", "rationale", "judge", "judge_label", "ranking", "judge_exchange", "recorded_at"], spec)}
       FROM verdicts v WHERE v.tenant = ? AND v.run_id = ?`,
      [tenant, runId],
    );
  }

  /** A page of the tenant's agents (names its evaluations or releases carry), by name, with standings and pooled pass rates (agents.ts): one statement. */
  listAgents(tenant: string, args: PageArgs = {}): Promise<Connection<Agent>> {
    return listAgents(this.sql(), tenant, args);
  }

  /** The tenant's agent of that name (as stored), or null when none of its evaluations or releases names it. */
  getAgent(tenant: string, name: string): Promise<Agent | null> {
    return getAgent(this.sql(), tenant, name);
  }

  /** A page of releases, newest first, of each of the tenant's `agents` (none of another tenant's), in one statement (agents.ts). */
  agentReleasePages(tenant: string, agents: readonly string[], args: PageArgs = {}): Promise<Map<string, Connection<AgentRelease>>> {
    return agentReleasePages(this.sql(), tenant, agents, args);
  }

  /** The tenant's meters for `month` (YYYY-MM): executions and imported reports used (usageMeters.ts). */
  usageMeters(tenant: string, month: string): Promise<UsageMeters> {
    return usageMeters(this.sql(), tenant, month);
  }

  /** The run's average score (reference-platform §2.2, runAverageScore.ts); null when nothing is scorable. */
  averageScore(tenant: string, runId: string): Promise<number | null> {
    return runAverageScore(this.sql(), tenant, runId);
  }

  /** The run's progress now, as a subscription's first message (latest = last scored result). */
  async progress(tenant: string, runId: string): Promise<RunProgress | null> {
    const run = await this.one<Omit<RunProgress, "latest_result">>(
      "SELECT id AS run_id, tenant, status, total, completed, passed, failed, errored FROM runs WHERE tenant = ? AND id = ?",
      [tenant, runId],
    );
    if (!run) return null;
    const latest = await this.one<LatestResult>(LATEST_RESULT_SQL, [runId]);
    return { ...run, latest_result: latest };
  }
}

/** A JSON number (a numeric sum comes back as one), or null. */
function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function kindFigures(data: Record<string, unknown>): JudgeKindFigures {
  return {
    kind: String(data.kind), calls: Number(data.calls), inputTokens: numberOrNull(data.inputTokens), outputTokens: numberOrNull(data.outputTokens),
    cost: numberOrNull(data.cost),
  };
}

/** Every part of a run's usage figures (ReadModels.runUsageFigures). */
const RUN_USAGE_PARTS: readonly RunUsagePart[] = ["replays", "judgeKinds", "judgeModels", "judgeSources", "judgeRun"];

/** The kinds kept first when a run's kinds are folded (as the projector's foldKinds ranks them). */
const KIND_RANK = `CASE k.kind WHEN 'score' THEN 0 WHEN 'recommend' THEN 1 WHEN 'verdict' THEN 2 WHEN 'define' THEN 3 ELSE 4 END`;

/**
 * The statement for the parts asked: a UNION ALL of one SELECT per part, over the scored results
 * (the columns those parts read) and the runs' own judge calls.
 */
function usageStatement(asked: ReadonlySet<RunUsagePart>, tenant: string, runIds: readonly string[]): { sql: string; params: unknown[] } {
  const columns = new Set<string>();
  if (asked.has("replays")) {
    columns.add("t.cost_source");
    columns.add(`CASE WHEN t.cost NOT IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8) THEN t.cost END AS cost`);
    columns.add(`CASE WHEN t.duration_ms NOT IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8) THEN t.duration_ms END AS duration_ms`);
  }
  if (asked.has("judgeKinds")) columns.add("t.judge_by_kind");
  if (asked.has("judgeModels")) columns.add("t.judge_model");
  if (asked.has("judgeSources")) columns.add("t.judge_source");
  const selects: string[] = [];
  if (asked.has("replays")) {
    selects.push(`SELECT 'replays' AS part, s.run_id AS "runId", jsonb_build_object('priced', s.cost IS NOT NULL, 'costSource', s.cost_source, 'count', count(*),
        'cost', sum(s.cost::numeric), 'durationMs', sum(s.duration_ms::numeric), 'timed', count(s.duration_ms)) AS data
      FROM scored s GROUP BY s.run_id, s.cost IS NOT NULL, s.cost_source`);
  }
  if (asked.has("judgeKinds")) {
    // Each kind's calls over the run's results; past JUDGE_KINDS_MAX kinds, the first
    // JUDGE_KINDS_MAX - 1 (the platform's four first, then by name) are kept and the rest summed
    // into "other", with tokens and cost only when every kind folded in splits them.
    selects.push(`SELECT 'judgeKind' AS part, f.run_id AS "runId", jsonb_build_object('kind', f.kind, 'calls', sum(f.calls),
        'inputTokens', CASE WHEN count(*) = 1 THEN max(f.input_tokens) WHEN bool_and(f.split) THEN sum(f.input_tokens) END,
        'outputTokens', CASE WHEN count(*) = 1 THEN max(f.output_tokens) WHEN bool_and(f.split) THEN sum(f.output_tokens) END,
        'cost', CASE WHEN count(*) = 1 THEN max(f.cost) WHEN bool_and(f.split) THEN sum(f.cost) END) AS data
      FROM (
        SELECT k.run_id, k.calls, k.input_tokens, k.output_tokens, k.cost, k.input_tokens IS NOT NULL AND k.output_tokens IS NOT NULL AS split,
          CASE WHEN count(*) OVER (PARTITION BY k.run_id) <= ${JUDGE_KINDS_MAX} THEN k.kind
            WHEN k.kind <> '${OTHER_JUDGE_KIND}' AND row_number() OVER (PARTITION BY k.run_id ORDER BY k.kind = '${OTHER_JUDGE_KIND}', ${KIND_RANK}, k.kind COLLATE "C") < ${JUDGE_KINDS_MAX}
              THEN k.kind
            ELSE '${OTHER_JUDGE_KIND}' END AS kind
        FROM (
          SELECT s.run_id, e.key AS kind, sum((e.value->>'calls')::numeric) AS calls,
            CASE WHEN bool_and(e.value->'input_tokens' IS NOT NULL) THEN sum((e.value->>'input_tokens')::numeric) END AS input_tokens,
            CASE WHEN bool_and(e.value->'output_tokens' IS NOT NULL) THEN sum((e.value->>'output_tokens')::numeric) END AS output_tokens,
            CASE WHEN bool_and(e.value->'cost' IS NOT NULL) THEN sum((e.value->>'cost')::numeric) END AS cost
          FROM scored s CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(s.judge_by_kind) = 'object' THEN s.judge_by_kind ELSE '{}'::jsonb END) e
          GROUP BY s.run_id, e.key
        ) k
      ) f
      GROUP BY f.run_id, f.kind`);
  }
  if (asked.has("judgeModels")) {
    // The first result (in run order) whose judge usage names a model, the one the report's
    // judge_usage.model names: the projector keeps only a model that is not blank (JavaScript's
    // trim), and a row written otherwise is skipped when all it holds is spaces.
    selects.push(`SELECT * FROM (SELECT DISTINCT ON (s.run_id) 'judgeModel' AS part, s.run_id AS "runId", jsonb_build_object('model', s.judge_model, 'n', s.n) AS data
      FROM scored s WHERE s.judge_model ~ '[^[:space:]]' ORDER BY s.run_id, s.n) m`);
  }
  if (asked.has("judgeSources")) {
    selects.push(`SELECT 'judgeSources' AS part, s.run_id AS "runId", jsonb_build_object('meter', bool_or(s.judge_source = 'meter'), 'reported', bool_or(s.judge_source = 'reported')) AS data
      FROM scored s WHERE s.judge_source IS NOT NULL GROUP BY s.run_id`);
  }
  if (asked.has("judgeRun")) {
    // The run's own calls (x: its KPIs' define call, its verdict's), each kept with its figures for byKind.
    selects.push(`SELECT 'judgeRun' AS part, rr.id AS "runId", jsonb_build_object(
        'calls', x.calls + floor(${usageFigure("calls", REPORT_MAX_COUNT)}),
        'inputTokens', x.input_tokens + floor(${usageFigure("input_tokens", TOKEN_COUNT_LIMIT)}),
        'outputTokens', x.output_tokens + floor(${usageFigure("output_tokens", TOKEN_COUNT_LIMIT)}),
        'verdictCost', x.cost, 'reportedCost', ${usageFigure("cost", COST_LIMIT, "NULL")},
        'model', coalesce(x.model, CASE WHEN jsonb_typeof(u.usage->'model') = 'string' THEN u.usage->>'model' END),
        'exchanges', x.exchanges, 'byKind', u.usage->'by_kind', 'metered', x.calls > 0, 'reported', u.usage IS NOT NULL) AS data
      FROM runs rr CROSS JOIN LATERAL (SELECT ${IMPORTED_RUN_USAGE} AS usage) u
        CROSS JOIN LATERAL (
          SELECT count(*) AS calls, ${runExchangeFigure("input_tokens")} AS input_tokens, ${runExchangeFigure("output_tokens")} AS output_tokens,
            ${runExchangeFigure("cost")} AS cost, (array_agg(x.e->'usage'->>'model' ORDER BY x.o DESC) FILTER (WHERE x.e->'usage'->>'model' IS NOT NULL))[1] AS model,
            coalesce(jsonb_agg(jsonb_build_object('kind', x.e->>'kind', 'input_tokens', coalesce((x.e->'usage'->>'input_tokens')::bigint, 0),
              'output_tokens', coalesce((x.e->'usage'->>'output_tokens')::bigint, 0), 'cost', (x.e->'usage'->>'cost')::numeric) ORDER BY x.o), '[]'::jsonb) AS exchanges
          FROM ${runExchanges("rr.id")}
        ) x
      WHERE rr.tenant = ? AND rr.id IN (SELECT run_id FROM ids) AND (x.calls > 0 OR u.usage IS NOT NULL)`);
  }
  // Read once for the parts that share it; inlined into the one part that reads it alone.
  const sharing = ["replays", "judgeKinds", "judgeModels", "judgeSources"].filter((part) => asked.has(part as RunUsagePart)).length;
  const scored = columns.size === 0 ? "" : `,
    scored AS ${sharing > 1 ? "MATERIALIZED" : "NOT MATERIALIZED"} (
      SELECT t.run_id, t.n, ${[...columns].join(", ")}
      FROM results t WHERE t.tenant = ? AND t.run_id IN (SELECT run_id FROM ids) AND t.scored_at IS NOT NULL
    )`;
  const params: unknown[] = [JSON.stringify(runIds)];
  if (columns.size > 0) params.push(tenant);
  if (asked.has("judgeRun")) params.push(tenant);
  return { sql: `WITH ids AS (SELECT jsonb_array_elements_text(?::jsonb) AS run_id)${scored}\n${selects.join("\nUNION ALL\n")}`, params };
}

/**
 * The run-level judge calls: the verdict's exchange (its kind, with its tokens and cost), or the
 * calls per kind an imported report's run-level usage tallies (read as a result's by_kind is, no
 * tokens or cost by kind, at most JUDGE_KINDS_MAX kinds).
 */
/** The run's own calls by kind (define, verdict), with their figures; a cost is null when no call of the kind gave one. */
function exchangeKinds(exchanges: readonly Record<string, unknown>[]): JudgeKindFigures[] {
  const kinds = new Map<string, JudgeKindFigures>();
  for (const exchange of exchanges) {
    const kind = typeof exchange.kind === "string" ? exchange.kind : OTHER_JUDGE_KIND;
    const figures = kinds.get(kind) ?? { kind, calls: 0, inputTokens: 0, outputTokens: 0, cost: null };
    const cost = numberOrNull(exchange.cost);
    figures.calls += 1;
    figures.inputTokens = (figures.inputTokens ?? 0) + Number(exchange.input_tokens ?? 0);
    figures.outputTokens = (figures.outputTokens ?? 0) + Number(exchange.output_tokens ?? 0);
    figures.cost = cost === null ? figures.cost : (figures.cost ?? 0) + cost;
    kinds.set(kind, figures);
  }
  return [...kinds.values()];
}

function runJudgePart(data: Record<string, unknown>): RunJudgePart {
  const verdictCost = numberOrNull(data.verdictCost);
  const reportedCost = numberOrNull(data.reportedCost);
  const inputTokens = Number(data.inputTokens);
  const outputTokens = Number(data.outputTokens);
  let byKind: JudgeKindFigures[];
  if (Array.isArray(data.exchanges) && data.exchanges.length > 0) {
    byKind = exchangeKinds(data.exchanges as Record<string, unknown>[]);
  } else {
    const kinds = reportedKinds(data.byKind) ?? {};
    byKind = Object.entries(kinds).map(([kind, usage]) => ({ kind, calls: usage.calls, inputTokens: null, outputTokens: null, cost: null }));
  }
  return {
    calls: Number(data.calls), inputTokens, outputTokens, cost: verdictCost === null && reportedCost === null ? null : (verdictCost ?? 0) + (reportedCost ?? 0),
    model: typeof data.model === "string" ? data.model : null, byKind, metered: data.metered === true, reported: data.reported === true,
  };
}
