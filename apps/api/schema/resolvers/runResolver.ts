// A run: read-model fields (status, progress, results, summaries, fix items, verdict, usage) and
// the report rebuilt from its events.
import { Arg, Ctx, FieldResolver, Float, ID, Int, Query, Resolver, Root } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { addedJudgeUsage, comparisonInModelOrder, rankingInReportOrder, roundHalfAwayFromZero, scoresInScorerOrder, summaryInReportOrder, type FixItem, type Report } from "@verdict/domain";
import { listPage, type ModelSummary, type Result, type Run, type RunUsagePart } from "@verdict/projector";
import { memo, type ApiContext } from "../../server/context.js";
import { notFound } from "../../server/errors.js";
import { checkModelFilter, checkRunModel } from "../../report/runModel.js";
import { importedScoresInOrder } from "../../report/importedDocument.js";
import { evaluationCriterionKeys } from "../../report/runEvents.js";
import { TERMINAL_STATUSES } from "../../server/terminalRunCache.js";
import { FixItemKind, ResultStatus, resultStatusOf, RunStatus, runStatusOf } from "../types/enums.js";
import { EvaluationNode } from "../types/evaluation.js";
import { RunReportNode } from "../types/report.js";
import {
  FixItemConnection, FixItemNode, MatrixRow, MatrixRowConnection, ModelSummaryNode, ResultConnection, ResultNode, RunModel, RunNode, RunProgressNode,
  RunUsage, VerdictNode,
} from "../types/run.js";
import { runReport } from "./runSupport.js";
import { runUsageFigures } from "../../server/runUsageLoader.js";
import { OVER_BUDGET } from "../../server/answerBudget.js";
import { PAGE_AFTER, WHOLE_LIST_FIRST } from "./pageArguments.js";
import { MISSING_NULL } from "./missingNull.js";

type RunRow = RunNode & Run;

type Scores = Record<string, number | null>;

/**
 * How the run's results' scores are put back in the order its report gives them (read from
 * jsonb, their keys come sorted by length): the run's criteria (its KPIs after them, as the
 * read model keeps them), then the built-in checks; an imported run's, its evaluation's criteria
 * as its report.json, HTML and Markdown order them.
 */
async function scoresOrder(run: RunRow, context: ApiContext): Promise<(scores: Scores) => Scores> {
  if (run.origin === "imported") {
    const keys = await memo(context, `criterionKeys:${run.evaluationId}`, () => evaluationCriterionKeys(context.deps.store, run.evaluationId));
    return (scores) => importedScoresInOrder(scores, keys) as Scores;
  }
  const keys = (Array.isArray(run.criteria) ? (run.criteria as { key?: unknown }[]) : []).map((c) => c.key).filter((key): key is string => typeof key === "string");
  return (scores) => scoresInScorerOrder(scores, keys);
}

/**
 * A result's metadata as its report.json gives it (apps/worker runReport.ts resultFromEvents):
 * the replay's metadata as recorded, with, once scored, the judge's usage from its exchanges
 * when the replay carried none of its own (the one rule the report and the read model's judge
 * usage follow). An imported result's exchanges are none, so its metadata is its report's as
 * given. Null until replayed. Kept on the node (not a field resolver), so a `results` list that
 * selects it weighs it against the answer budget (answerWeight.ts), as scenario and toolCalls are.
 */
function resultMetadata(result: Result): unknown {
  const recorded = result.replayMetadata;
  if (recorded === null || typeof recorded !== "object" || Array.isArray(recorded)) return recorded ?? null;
  const metadata = recorded as Record<string, unknown>;
  if (result.status === "pending" || !Array.isArray(result.judgeExchanges)) return metadata;
  const usage = addedJudgeUsage(metadata, result.judgeExchanges as Parameters<typeof addedJudgeUsage>[1]);
  return usage ? { ...metadata, judge_usage: usage } : metadata;
}

function toResultNode(result: Result, order: (scores: Scores) => Scores): ResultNode {
  const scores = result.scores !== null && typeof result.scores === "object" && !Array.isArray(result.scores) ? order(result.scores as Scores) : result.scores;
  return { ...result, scores, status: resultStatusOf(result.status), metadata: resultMetadata(result) } as ResultNode;
}

/** A run's results with the filters applied, in run order. */
async function filteredResults(run: RunRow, args: { model: string | null; status: ResultStatus | null; fault: string | null }, context: ApiContext): Promise<ResultNode[]> {
  const { model, status, fault } = args;
  const filter = { model, status: status ? (status.toLowerCase() as Result["status"]) : null, fault };
  const tenant = context.principal.tenant;
  const node = (order: (scores: Scores) => Scores) => (result: Result) => toResultNode(result, order);
  // Still going: read fresh, filtered by the database.
  if (!TERMINAL_STATUSES.has(run.status)) return (await context.deps.readModels.listResults(tenant, run.id, filter)).map(node(await scoresOrder(run, context)));
  // Ended: the full list is kept once and filtered here, so no argument's text becomes a key.
  const all = await cached(context, run, "results", async () => (await context.deps.readModels.listResults(tenant, run.id)).map(node(await scoresOrder(run, context))));
  if (model == null && status == null && fault == null) return all;
  return all.filter((r) => (model == null || r.modelLabel === model) && (status == null || r.status === status) && (fault == null || r.fault === fault));
}

/**
 * A completed run's model summaries (RunCompleted's), each in the order its report writes it:
 * kept in jsonb, its keys came back sorted by length and its faults with them, while a run still
 * going answers them from its report (fromReport), so the order changed at completion. The
 * faults go in the order the model's results first name them, as the report tallies them. An
 * imported run's too: its summaries are the ones its results give (importReport checks the
 * document's), read back from jsonb alike.
 */
async function summariesInReportOrder(run: RunRow, context: ApiContext): Promise<ModelSummary[]> {
  const tenant = context.principal.tenant;
  const summaries = await context.deps.readModels.modelSummaries(tenant, run.id);
  const faultsByModel = new Map<string, string[]>();
  // The run's results as `results` keeps them (read once for both fields).
  for (const cell of await filteredResults(run, { model: null, status: null, fault: null }, context)) {
    if (!cell.fault) continue;
    const faults = faultsByModel.get(cell.modelLabel) ?? [];
    faults.push(cell.fault);
    faultsByModel.set(cell.modelLabel, faults);
  }
  return summaries.map((s) => ({ ...s, summary: s.summary !== null && typeof s.summary === "object" ? summaryInReportOrder(s.summary, faultsByModel.get(s.label) ?? []) : s.summary }));
}

/** A run's fix items in report order, only those involving `model` when one is given. */
async function runFixItems(run: RunRow, model: string | null, context: ApiContext): Promise<FixItemNode[]> {
  if (fromReport(run)) {
    const items = (await runReport(context, run.id)).fixItems.map(fixItemNode);
    return model ? items.filter((item) => item.models.includes(model)) : items;
  }
  const tenant = context.principal.tenant;
  if (!TERMINAL_STATUSES.has(run.status)) return (await context.deps.readModels.fixItems(tenant, run.id, { model })) as FixItemNode[];
  // Ended: the full list is kept once and filtered here, as results are (no argument in a key).
  const all = await cached(context, run, "fixItems", async () => (await context.deps.readModels.fixItems(tenant, run.id)) as FixItemNode[]);
  return model ? all.filter((item) => item.models.includes(model)) : all;
}

/** Read fresh while the run goes on; kept once it has ended (see TerminalRunCache). */
function cached<T>(context: ApiContext, run: RunRow, field: string, load: () => Promise<T>): Promise<T> {
  return context.runCache.read(context.principal.tenant, run.id, run.status, field, load);
}

/**
 * A run that has not completed (still running, or failed) has no summaries or fix items recorded
 * (RunCompleted carries them): its fields read them from its report, rebuilt as report.md and
 * `report` serve it, so the two agree and a failed run keeps what it had scored.
 */
function fromReport(run: RunRow): boolean {
  return run.status === "RUNNING" || run.status === "FAILED";
}

/** A report's fix item as the fix_items read model holds it. */
function fixItemNode(item: FixItem): FixItemNode {
  return { kind: item.kind === "instruction" ? FixItemKind.INSTRUCTION : FixItemKind.FAULT, fault: item.fault ?? "", models: item.models ?? [], item };
}

/** Each model's summary in the report, or null for a model with nothing scored yet. */
function reportSummary(report: Report, label: string): ModelSummaryNode | null {
  const summary = report.summaryByModel[label];
  return summary && summary.scenarios > 0 ? { passRate: summary.pass_rate, avgScore: summary.avg_score, summary } : null;
}

/**
 * A side's cost to the 6 decimals the report keeps a cost in (domain/cost runCosts): the read
 * model sums the results' costs exactly, so 0.4333335 + 0.002412 read 0.4357455 beside a total
 * of 0.435746. Engine, external and imported runs alike.
 */
function cost6(cost: number | null): number | null {
  return cost === null ? null : roundHalfAwayFromZero(cost, 6);
}

/** The agent's and the judge's cost together, each kept in 6 decimals (cost6; no float noise). */
function sum(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : roundHalfAwayFromZero((a ?? 0) + (b ?? 0), 6);
}

/**
 * The run's wall time (ms) once it has ended: from RunStarted to RunCompleted or RunFailed, as the
 * read model records their times. Null while it runs, and for an imported run (started and
 * completed at its import: how long the host's run took is not in its report). Each time is the
 * clock of the process that recorded the event: when its completion reads earlier than its start
 * (the API's and a worker's clocks apart), the runtime is not known, and null rather than negative.
 */
function runtimeMs(run: RunRow): number | null {
  if (run.origin === "imported" || !TERMINAL_STATUSES.has(run.status) || !run.startedAt || !run.completedAt) return null;
  const elapsed = Date.parse(run.completedAt) - Date.parse(run.startedAt);
  return elapsed >= 0 ? elapsed : null;
}

@Resolver(() => RunNode)
export class RunResolver {
  @Query(() => RunNode, { nullable: true, description: `A run of the tenant's; NOT_FOUND otherwise. ${MISSING_NULL}` })
  async run(@Arg("id", () => ID, { description: "The run's id: a run started here, or an imported run's id here (not its hostRunId); one of another tenant's is NOT_FOUND." }) id: string, @Ctx() context: ApiContext): Promise<RunNode> {
    const tenant = context.principal.tenant;
    const run = await context.runCache.whenTerminal(tenant, id, "run", () => context.deps.readModels.getRun(tenant, id));
    if (!run) throw notFound("run", id);
    context.responseTrace?.statuses.push(run.status);
    return run as unknown as RunNode;
  }

  @FieldResolver(() => RunStatus, { description: "RUNNING from its start until it is COMPLETED or FAILED; an imported run is COMPLETED." })
  status(@Root() run: RunRow): RunStatus {
    return runStatusOf(run.status);
  }

  @FieldResolver(() => EvaluationNode, { description: "The evaluation it ran, as it stands now (its suite and settings may have changed since the run froze its selection)." })
  async evaluation(@Root() run: RunRow, @Ctx() context: ApiContext): Promise<EvaluationNode> {
    const evaluation = await context.deps.readModels.getEvaluation(context.principal.tenant, run.evaluationId);
    if (!evaluation) throw notFound("evaluation", run.evaluationId);
    return evaluation as EvaluationNode;
  }

  @FieldResolver(() => RunProgressNode, { description: "How far it is now: pairs scored of its total, and the last one scored (what runProgress sends)." })
  async progress(@Root() run: RunRow, @Ctx() context: ApiContext): Promise<RunProgressNode> {
    const progress = await cached(context, run, "progress", () => context.deps.readModels.progress(context.principal.tenant, run.id));
    const latest = progress?.latest_result ?? null;
    return {
      runId: run.id,
      status: runStatusOf(run.status),
      total: run.total,
      completed: run.completed,
      passed: run.passed,
      failed: run.failed,
      errored: run.errored,
      latestResult: latest
        ? { scenarioKey: latest.scenario_key, modelLabel: latest.model_label, status: resultStatusOf(latest.status), score: latest.score, fault: latest.fault }
        : null,
    };
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description:
      "The run's average score (reference-platform average_score), a fraction from 0 to 1, 3 decimals: the mean of each criterion's score, a criterion's score over several models being the mean of its per-model means; " +
      "a criterion nothing scored is left out. Null when nothing is scorable (no result scored yet, or none with a criterion score). A running run: what it has scored so far.",
  })
  async averageScore(@Root() run: RunRow, @Ctx() context: ApiContext): Promise<number | null> {
    return cached(context, run, "averageScore", () => context.deps.readModels.averageScore(context.principal.tenant, run.id));
  }

  @FieldResolver(() => [RunModel], { description: "The models in selection order, each with its summary once scored (a run not completed: as its report has it so far)." })
  async models(@Root() run: RunRow, @Ctx() context: ApiContext): Promise<RunModel[]> {
    if (fromReport(run)) {
      const report = await runReport(context, run.id);
      return (run.models ?? []).map((m) => ({ label: m.label, provider: m.provider, model: m.model, summary: reportSummary(report, m.label) }));
    }
    const summaries = await cached(context, run, "models", () => summariesInReportOrder(run, context));
    const byLabel = new Map(summaries.map((s) => [s.label, s]));
    return (run.models ?? []).map((m) => {
      const s = byLabel.get(m.label);
      const summary: ModelSummaryNode | null = s ? { passRate: s.passRate, avgScore: s.avgScore, summary: s.summary } : null;
      return { label: m.label, provider: m.provider, model: m.model, summary };
    });
  }

  @FieldResolver(() => ResultConnection, {
    nullable: true,
    description: `One per scenario x model pair in run order, filters combined; the whole list unless \`first\` is given. ${OVER_BUDGET}`,
  })
  async results(
    @Root() run: RunRow,
    @Arg("model", () => String, { nullable: true, description: "One of the run's model labels (else NOT_FOUND naming its models, as fixItems(model:); blank is VALIDATION)." })
    model: string | null,
    @Arg("status", () => ResultStatus, { nullable: true, description: "Only the pairs with this status (PENDING: not scored yet); omitted: every status." }) status: ResultStatus | null,
    @Arg("fault", () => String, {
      nullable: true,
      description: "A fault's name as results carry it, lowercase with underscores (`tool_error`, `expected_tool_not_called`); any other text matches none.",
    })
    fault: string | null,
    @Arg("first", () => Int, { nullable: true, description: WHOLE_LIST_FIRST }) first: number | null,
    @Arg("after", () => String, { nullable: true, description: PAGE_AFTER }) after: string | null,
    @Ctx() context: ApiContext,
  ): Promise<ResultConnection> {
    // A model not in the run is NOT_FOUND, as fixItems(model:) answers it: an empty list read as
    // "no results for this model" for a typo such as `gpt-5` for `openai/gpt-5`.
    checkModelFilter(model);
    if (model != null) checkRunModel(model, (run.models ?? []).map((m) => m.label));
    // Keyed by n, the pair's place in the run: a page of a filter goes on after the last pair it
    // showed even when pairs before it were scored into the filter since.
    return listPage(await filteredResults(run, { model, status, fault }, context), { first, after }, `results of ${run.id}`, (result) => result.n);
  }

  @FieldResolver(() => MatrixRowConnection, { nullable: true, description: `Scenario x model: rows in run order, cells in model order; the whole matrix unless \`first\` is given. ${OVER_BUDGET}` })
  async matrix(
    @Root() run: RunRow,
    @Arg("first", () => Int, { nullable: true, description: WHOLE_LIST_FIRST }) first: number | null,
    @Arg("after", () => String, { nullable: true, description: PAGE_AFTER }) after: string | null,
    @Ctx() context: ApiContext,
  ): Promise<MatrixRowConnection> {
    const rows = await cached(context, run, "matrix", async () => {
      const byScenario = new Map<string, MatrixRow>();
      for (const r of await context.deps.readModels.listResults(context.principal.tenant, run.id)) {
        const row = byScenario.get(r.scenarioKey) ?? { scenarioKey: r.scenarioKey, group: r.group, cells: [] };
        row.cells.push({ modelLabel: r.modelLabel, status: resultStatusOf(r.status), score: r.score, fault: r.fault });
        byScenario.set(r.scenarioKey, row);
      }
      return [...byScenario.values()];
    });
    return listPage(rows, { first, after }, `matrix of ${run.id}`);
  }

  @FieldResolver(() => FixItemConnection, {
    nullable: true,
    description: `What to fix, in report order (a run not completed: as its report has them so far); with model (one of the run's labels, else NOT_FOUND; blank is VALIDATION), only items involving it; the whole list unless \`first\` is given. ${OVER_BUDGET}`,
  })
  async fixItems(
    @Root() run: RunRow,
    @Arg("model", () => String, { nullable: true, description: "One of the run's model labels: only the items involving it (else NOT_FOUND naming its models; blank is VALIDATION)." }) model: string | null,
    @Arg("first", () => Int, { nullable: true, description: WHOLE_LIST_FIRST }) first: number | null,
    @Arg("after", () => String, { nullable: true, description: PAGE_AFTER }) after: string | null,
    @Ctx() context: ApiContext,
  ): Promise<FixItemConnection> {
    // A model not in the run is NOT_FOUND, as in the report's fixItemsMarkdown(model:) and report.md.
    checkModelFilter(model);
    if (model != null) checkRunModel(model, (run.models ?? []).map((m) => m.label));
    // The model filter is part of the list: a place in one filter's list is another in the next's.
    return listPage(await runFixItems(run, model, context), { first, after }, `fixItems of ${run.id}${model == null ? "" : ` for ${model}`}`);
  }

  @FieldResolver(() => GraphQLJSON, { nullable: true, description: "The recorded comparison (models, pairs, conclusion, seed, resamples)." })
  async comparison(@Root() run: RunRow, @Ctx() context: ApiContext): Promise<unknown> {
    const found = await cached(context, run, "comparison", () => context.deps.readModels.comparison(context.principal.tenant, run.id));
    if (!found) return null;
    // Kept in jsonb, whose keys come back sorted by length: the models go back in the run's order.
    const ordered = comparisonInModelOrder(found.comparison, (run.models ?? []).map((model) => model.label));
    return { ...ordered, seed: found.seed, resamples: found.resamples, confidence: found.confidence };
  }

  @FieldResolver(() => VerdictNode, { nullable: true, description: "The recorded verdict; null until one is recorded, and for a run of one model (no comparison, no verdict)." })
  async verdict(@Root() run: RunRow, @Ctx() context: ApiContext): Promise<VerdictNode | null> {
    const recorded = await cached(context, run, "verdict", async () => (await context.deps.readModels.verdict(context.principal.tenant, run.id)) as VerdictNode | null);
    // A single-model run records VerdictRecorded with no verdict (only the judge it was scored
    // with), and its row is all nulls: that is no verdict, as the run's report.json says.
    if (!recorded || (recorded.winner === null && recorded.rationale === null && recorded.judge === null)) return null;
    // Kept in jsonb, its ranking came back sorted by length: best first, as runAudit gives it.
    return { ...recorded, ranking: rankingInReportOrder(recorded.ranking, (run.models ?? []).map((model) => model.label)) };
  }

  @FieldResolver(() => RunUsage, { description: "What it spent so far: the agent's replays and the judge's calls, kept apart, with its runtime." })
  usage(@Root() run: RunRow, @Ctx() context: ApiContext): RunUsage {
    // The figures beyond the sums (the agent's priced / estimated counts, the judge's calls by
    // kind, its model, its source): counted by the database over the run's rows, with every other
    // run of the request in one statement per side computing only the parts asked, once a
    // request and kept once the run has ended, and only when a query asks for one of them.
    const figures = (parts: readonly RunUsagePart[]) => {
      const key = `usageFigures:${parts.join(",")}`;
      return memo(context, `${key}:${run.id}`, () => cached(context, run, key, () => runUsageFigures(context, run.id, parts)));
    };
    return {
      agent: { inputTokens: run.agentInputTokens, outputTokens: run.agentOutputTokens, cost: cost6(run.agentCost), calls: null, side: "agent", figures },
      judge: { inputTokens: run.judgeInputTokens, outputTokens: run.judgeOutputTokens, cost: cost6(run.judgeCost), calls: run.judgeCalls, side: "judge", figures },
      totalCost: sum(cost6(run.agentCost), cost6(run.judgeCost)),
      runtimeMs: runtimeMs(run),
    };
  }

  @FieldResolver(() => RunReportNode, { description: "The report, rebuilt from the run's recorded events." })
  async report(@Root() run: RunRow, @Ctx() context: ApiContext): Promise<RunReportNode> {
    return { runId: run.id, report: await runReport(context, run.id) };
  }
}
