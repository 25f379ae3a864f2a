// The report as one JSON document with the guide's snake_case keys, in a fixed order so the
// same report always serializes to the same bytes: summary_by_model, criteria,
// recommendations, fix_items, verdict, comparison (comparing only), judge, judge_usage (when
// there is one), run_judge_usage (judge spend no result owns, as recorded), release (when given),
// failure (a failed run's reason), kpi_failure (why a judge_defined run has no KPIs), in_progress (a running run's { scored, total }), threshold, agent_name (when given), metadata (when not empty),
// results.
import type { ComparisonJSON } from "../stats/index.js";
import type { ReportDocument, ResultDoc } from "./html/index.js";
import type {
  CriterionStats, FixItem, InProgress, ModelSummary, Recommendation, Release, ReportResult, Verdict,
} from "./reportTypes.js";

interface JsonSource {
  readonly summaryByModel: Record<string, ModelSummary>;
  readonly criterionScores: Record<string, CriterionStats | Record<string, CriterionStats>>;
  readonly recommendations: Recommendation[];
  readonly fixItems: FixItem[];
  readonly verdict: Verdict | null;
  readonly comparisonJSON: ComparisonJSON | null;
  readonly judgeUsage: object | null;
  /** The run-level judge spend as recorded (tokens and model included), for a rebuild. */
  readonly runJudgeUsage: object | null;
  readonly release: Release | null;
  readonly failure: string | null;
  readonly kpiFailure: string | null;
  readonly inProgress: InProgress | null;
  readonly threshold: number;
  readonly metadata: Record<string, unknown>;
  readonly results: readonly ReportResult[];
}

/** A result's JSON plus the scenario's expectations, so a saved report can be rebuilt whole. */
function resultDocument(result: ReportResult): ResultDoc {
  return withExpectations(result, result.toJSON() as unknown as ResultDoc);
}

/**
 * `resultDocument` sharing the result's nested values where the result offers that (a runner
 * Result's `toSharedJSON`), for the HTML renderer, which only reads the document.
 */
export function sharedResultDocument(result: ReportResult): ResultDoc {
  const shared = (result as { toSharedJSON?: () => object }).toSharedJSON;
  return withExpectations(result, (typeof shared === "function" ? shared.call(result) : result.toJSON()) as unknown as ResultDoc);
}

function withExpectations(result: ReportResult, doc: ResultDoc): ResultDoc {
  if (doc.expect !== undefined) return doc;
  const { scenario } = result;
  if (scenario.expectedTools.length + scenario.expectedPatterns.length + scenario.forbiddenPatterns.length === 0) return doc;
  const expect: NonNullable<ResultDoc["expect"]> = {};
  if (scenario.expectedTools.length > 0) expect.tools = [...scenario.expectedTools];
  if (scenario.expectedPatterns.length > 0) expect.contains = [...scenario.expectedPatterns];
  if (scenario.forbiddenPatterns.length > 0) expect.not_contains = [...scenario.forbiddenPatterns];
  // toJSON() gave a fresh object: add the key rather than copying every result once more.
  doc.expect = expect;
  return doc;
}

export function reportDocument(
  source: JsonSource,
  extra: { judgeName: string | null; agentName: string | null },
  toResultDoc: (result: ReportResult) => ResultDoc = resultDocument,
): ReportDocument {
  const doc: ReportDocument = {
    summary_by_model: source.summaryByModel,
    criteria: source.criterionScores,
    recommendations: source.recommendations,
    fix_items: source.fixItems,
    results: [],
  };
  // Rebuild in key order (results last) now that the optional keys are known.
  const ordered: Record<string, unknown> = { ...doc };
  delete ordered.results;
  if (source.verdict) ordered.verdict = source.verdict;
  if (source.comparisonJSON) ordered.comparison = source.comparisonJSON;
  if (extra.judgeName) ordered.judge = extra.judgeName;
  if (source.judgeUsage) ordered.judge_usage = source.judgeUsage;
  // judge_usage.run keeps only calls, cost and kinds; the whole record lets a rebuild match it.
  if (source.runJudgeUsage) ordered.run_judge_usage = source.runJudgeUsage;
  if (source.release) ordered.release = source.release;
  if (source.failure) ordered.failure = source.failure;
  if (source.kpiFailure) ordered.kpi_failure = source.kpiFailure;
  if (source.inProgress) ordered.in_progress = { scored: source.inProgress.scored, total: source.inProgress.total };
  ordered.threshold = source.threshold;
  if (extra.agentName) ordered.agent_name = extra.agentName;
  if (Object.keys(source.metadata).length > 0) ordered.metadata = source.metadata;
  ordered.results = source.results.map(toResultDoc);
  return ordered as unknown as ReportDocument;
}
