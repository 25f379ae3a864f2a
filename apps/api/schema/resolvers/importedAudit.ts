// The audit of an imported run: it has no pair events, so its grades and verdict are what the
// report it was imported with records (each result as the host scored it, its verdict and
// comparison), as the run's other reads (`run { verdict results }`, the report) take them. The
// ranking inputs are the summaries those results give (derivedFromJSON), as the run's
// `models { summary }` and its report.md have them, not the document's own summary_by_model.
import { comparisonInModelOrder, derivedFromJSONOrNull, labelsInRecordedOrder, rankingInReportOrder, type EventData, type ReportDocument } from "@verdict/domain";
import { importedScoresInOrder } from "../../report/importedDocument.js";
import { importedResultStatusOf } from "../types/enums.js";
import type { GradeAudit, VerdictAudit } from "../types/report.js";

type Doc = Record<string, unknown>;

const isObject = (value: unknown): value is Doc => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

const REPLAY_KEYS = ["answer", "tool_calls", "duration_ms", "input_tokens", "output_tokens", "cost", "error", "metadata"] as const;

function results(report: Doc): Doc[] {
  return Array.isArray(report.results) ? report.results.filter(isObject) : [];
}

/**
 * What a grade says about its fix, from the diagnosis as recorded (ResultScored's, or an imported
 * result's): its summary and evidence, the recommendation (`recommendation` when given: the one
 * recorded beside it, the judge's refinement when it refined it), and the whole diagnosis.
 */
export function diagnosisParts(diagnosis: unknown, recommendation?: string | null): Pick<GradeAudit, "summary" | "evidence" | "recommendation" | "diagnosis"> {
  const recorded = isObject(diagnosis) ? diagnosis : null;
  return {
    summary: text(recorded?.summary),
    evidence: isObject(recorded?.evidence) ? recorded.evidence : null,
    recommendation: recommendation ?? text(recorded?.recommendation),
    diagnosis: recorded,
  };
}

/** One grade per result, in the report's order: the scenario and replay as the report gives them. */
export function importedGrades(imported: EventData<"ReportImported">, criterionKeys: readonly string[]): GradeAudit[] {
  return results(imported.report).map((result) => {
    const replay: Doc = {};
    for (const key of REPLAY_KEYS) if (result[key] !== undefined) replay[key] = result[key];
    const scenario: Doc = { key: text(result.scenario_key), group: text(result.group), prompt: text(result.prompt) };
    if (isObject(result.expect)) scenario.expectations = result.expect;
    return {
      scenarioKey: text(result.scenario_key) ?? "",
      modelLabel: text(result.label) ?? "",
      status: importedResultStatusOf(result.status),
      score: num(result.score),
      // In the report's order (its evaluation's criteria first), as its report.json gives them.
      scores: isObject(result.scores) ? importedScoresInOrder(result.scores, criterionKeys) : {},
      // The report's status, as `status` reads it: a host's own `pass` flag is not in a result.
      pass: result.status === "passed",
      fault: text(result.fault),
      ...diagnosisParts(result.diagnosis, text(result.recommendation)),
      scenario,
      replay,
      // A host's report carries its judge's usage, not its exchanges.
      judgeExchanges: [],
    };
  });
}

/** The report's verdict and comparison (its models in the report's model order), or null for neither. */
export function importedVerdict(imported: EventData<"ReportImported">): VerdictAudit | null {
  const report = imported.report;
  const byModel = isObject(report.summary_by_model) ? report.summary_by_model : isObject(report.models) ? report.models : {};
  const verdict = isObject(report.verdict) ? report.verdict : null;
  const recorded = isObject(report.comparison) ? report.comparison : null;
  if (!verdict && !recorded) return null;
  // jsonb sorted the models' keys; the results keep the report's order.
  const labels = labelsInRecordedOrder(Object.keys(byModel), results(report).map((r) => text(r.label) ?? ""));
  const comparison = recorded
    ? { comparison: comparisonInModelOrder(recorded, labels), seed: num(recorded.seed), resamples: num(recorded.resamples), confidence: num(recorded.confidence) }
    : null;
  return { verdict, judgeLabel: text(report.judge), ranking: rankingOf(report, labels), judgeExchange: null, comparison };
}

/** The summaries the report's results give; none ({}) for results that cannot be rebuilt (its report.md answers CONFLICT). */
function rankingOf(report: Doc, labels: readonly string[]): Doc {
  const summaries = derivedFromJSONOrNull(report as unknown as ReportDocument)?.summary_by_model ?? {};
  // Best first (a tie in the report's model order), as an engine run's audit gives its ranking.
  return rankingInReportOrder(summaries, labels) as Doc;
}
