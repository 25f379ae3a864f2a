// Rebuilding a Report from its own JSON document (what `toJSON()` wrote, or a reference
// library's `to_h` with `models` for `summary_by_model`): results, models, the recorded verdict
// and comparison, judge, release, threshold and metadata. Nothing is re-judged or resampled, so
// the rebuilt report writes the same Markdown, JSON and HTML.
import { Replay, ReplayError } from "../replay/index.js";
import { Result } from "../runner/result.js";
import { Scenario } from "../scenarios/scenario.js";
import type { ComparisonJSON } from "../stats/index.js";
import type { ReportDocument, ResultDoc } from "./html/index.js";
import type { ReportOptions } from "./report.js";
import type { Release, Verdict } from "./reportTypes.js";
import { labelsInRecordedOrder } from "./modelOrder.js";
import { checkRecordedComparison } from "../stats/comparisonRecord.js";
import { checkDocumentResults, checkScore, documentModels, type DocumentRules } from "./documentRules.js";

const REPLAY_KEYS = ["answer", "tool_calls", "duration_ms", "input_tokens", "output_tokens", "error", "cost", "metadata"] as const;

/** How a result's replay is read: checked as a host's (fromJSON), or as recorded (fromStoredJSON). */
type ReadReplay = (init: Record<string, unknown>, field: string) => Replay;

function resultFrom(doc: ResultDoc, index: number, readReplay: ReadReplay): Result {
  if (!doc || typeof doc.scenario_key !== "string" || typeof doc.label !== "string") {
    throw new TypeError(`Report.fromJSON: results[${index}] must name its scenario_key and label`);
  }
  const scenario = Scenario.recorded({
    key: doc.scenario_key,
    prompt: doc.prompt ?? "",
    group: doc.group ?? null,
    groupName: doc.group_name ?? null,
    expectedTools: doc.expect?.tools ?? [],
    expectedPatterns: doc.expect?.contains ?? [],
    forbiddenPatterns: doc.expect?.not_contains ?? [],
  });
  const replayInit: Record<string, unknown> = {};
  for (const key of REPLAY_KEYS) if (doc[key] !== undefined && doc[key] !== null) replayInit[key] = doc[key];
  return new Result({
    scenario,
    spec: { label: doc.label, provider: doc.provider ?? "", model: doc.model ?? doc.label },
    replay: readReplay(replayInit, `results[${index}]`),
    scores: (doc.scores ?? {}) as Record<string, number | null>,
    score: doc.score ?? null,
    status: doc.status,
    diagnosis: (doc.diagnosis as ConstructorParameters<typeof Result>[0]["diagnosis"]) ?? null,
  });
}

/** A result's replay as a host's is read, a problem thrown as fromJSON's TypeError naming the result's field. */
function checkedReplay(init: Record<string, unknown>, field: string): Replay {
  try {
    return Replay.from(init);
  } catch (error) {
    if (!(error instanceof ReplayError)) throw error;
    throw new TypeError(`Report.fromJSON: ${field}.${error.message.slice("replay.".length)}`);
  }
}

/** A running run's `in_progress` as the document gives it; anything but a whole total is none. */
function inProgressOf(value: unknown): { total: number } | null {
  if (typeof value !== "object" || value === null) return null;
  const total = (value as { total?: unknown }).total;
  return typeof total === "number" && Number.isInteger(total) && total >= 0 ? { total } : null;
}

const READER_RULES: DocumentRules = { root: "", refuse: (message) => new TypeError(`Report.fromJSON: ${message}`) };

/**
 * Refuses a document whose threshold, scores or labels importReport would refuse (documentRules.ts),
 * naming the field and the rule, before any Result is made: a percent-style threshold (70) would
 * render "≥ 7000%" and fail every answer, a score of 85 would average past 100%, and a result
 * whose label is not among the models would be left out of every figure.
 */
export function checkDocument(doc: ReportDocument): void {
  if (!doc || !Array.isArray(doc.results)) throw new TypeError("Report.fromJSON: results must be an array");
  const record = doc as unknown as Record<string, unknown>;
  const models = documentModels(record, READER_RULES);
  checkDocumentResults(doc.results, models, READER_RULES);
  checkScore(record.threshold, "threshold", READER_RULES.refuse);
  if (record.comparison !== undefined && record.comparison !== null) checkRecordedComparison(record.comparison, "comparison", READER_RULES.refuse);
}

/**
 * The Report options a saved document stands for; `extra` adds what a document does not carry.
 * A `stored` document (the platform's) has its replays read as recorded (Replay.recorded).
 */
export function optionsFromJSON(doc: ReportDocument, extra: Partial<ReportOptions> = {}, stored = false): ReportOptions {
  if (!doc || !Array.isArray(doc.results)) throw new TypeError("Report.fromJSON: results must be an array");
  const summaries = doc.summary_by_model ?? doc.models ?? {};
  const labels = labelsInRecordedOrder(Object.keys(summaries), doc.results.map((result) => result?.label));
  const models = labels.map((label) => ({ label, provider: summaries[label].provider ?? "", model: summaries[label].model ?? label }));
  const readReplay: ReadReplay = stored ? (init) => Replay.recorded(init) : checkedReplay;
  const results = doc.results.map((result, index) => resultFrom(result, index, readReplay));
  const recorded = (doc as { run_judge_usage?: Record<string, unknown> | null }).run_judge_usage;
  const runUsage = doc.judge_usage?.run;
  return {
    results,
    models,
    threshold: doc.threshold ?? 0.7,
    metadata: doc.metadata ?? {},
    release: (doc.release as Release | null | undefined) ?? null,
    failure: typeof doc.failure === "string" ? doc.failure : null,
    kpiFailure: typeof doc.kpi_failure === "string" ? doc.kpi_failure : null,
    inProgress: inProgressOf(doc.in_progress),
    agentName: doc.agent_name ?? null,
    judgeLabel: doc.judge ?? null,
    // Recorded, never recomputed: a missing verdict or comparison stays missing.
    verdict: (doc.verdict as Verdict | null | undefined) ?? null,
    comparison: (doc.comparison as ComparisonJSON | null | undefined) ?? null,
    judgeUsage: recorded ?? (runUsage ? { calls: runUsage.calls ?? 0, cost: runUsage.cost ?? null, by_kind: runUsage.by_kind ?? {} } : null),
    ...extra,
  };
}
