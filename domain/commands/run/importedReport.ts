// What an imported report must satisfy before it becomes a completed run (reference-platform
// §3 rule 13 and §2.1 limits). The report is Report#to_h JSON with snake_case keys.
import { FAULTS } from "../../diagnosis/types.js";
import { DomainError } from "../../events/domainError.js";
import { Replay, ReplayError } from "../../replay/index.js";
import { JUDGE_KIND_NAME_MAX, JUDGE_KINDS_MAX } from "../../cost/judgeUsage.js";
import { Report, type ReportDocument } from "../../report/index.js";
import { checkDocumentResults, checkScore, documentModels, isObject, type DocumentRules } from "../../report/documentRules.js";
import { checkRecordedComparison } from "../../stats/comparisonRecord.js";
import { checkJudgeUsageFollowsResults, checkSummariesFollowResults } from "./importedSummaries.js";
import { COST_LIMIT, DURATION_LIMIT_MS, MODEL_NAME_MAX, RELEASE_TEXT_MAX, RESERVED_NAME_RULE, SCENARIO_KEY_MAX, TOKEN_COUNT_LIMIT, isReservedName } from "../../events/shared.js";
import { RUN_MODEL_LIMIT } from "../evaluation/evaluationCommands.js";
import { identifierTextProblem, likelyMeant, lookAlikePair, lookAlikeRule, visibleText } from "../../support/index.js";

/** An imported report may name only the faults our diagnosis knows. */
export const KNOWN_FAULTS = FAULTS;

const REPORT_MAX_RESULTS = 1000;
const REPORT_MAX_MODELS = RUN_MODEL_LIMIT;

function checkModels(models: Record<string, unknown>): void {
  const labels = Object.keys(models);
  if (labels.length > REPORT_MAX_MODELS) throw DomainError.validation(`report.models holds ${labels.length} models, over the ${REPORT_MAX_MODELS} limit`, "report.models");
  const seen = new Map<string, string>();
  for (const label of labels) {
    if (label.length > MODEL_NAME_MAX) throw DomainError.validation(`report.models: a label must be at most ${MODEL_NAME_MAX} characters (one has ${label.length})`, "report.models");
    if (isReservedName(label)) throw DomainError.validation(`report.models: a label ${RESERVED_NAME_RULE}`, "report.models");
    const problem = identifierTextProblem(label);
    if (problem) throw DomainError.validation(`report.models: the label ${visibleText(label)} ${problem}`, "report.models");
    const entry = models[label];
    if (!isObject(entry)) throw DomainError.validation(`report.models.${label} must be an object (the model's summary)`, "report.models");
    for (const part of ["provider", "model"] as const) {
      const value = entry[part];
      checkText(value, `report.models.${part}`);
      if (typeof value === "string" && value.length > MODEL_NAME_MAX) {
        throw DomainError.validation(`report.models.${part}: must be at most ${MODEL_NAME_MAX} characters (it has ${value.length})`, `report.models.${part}`);
      }
    }
    const target = `${String(entry.provider ?? "")}/${String(entry.model ?? label)}`;
    const other = seen.get(target);
    if (other !== undefined) {
      throw DomainError.validation(`report.models: "${other}" and "${label}" name the same provider/model (${target})`, "report.models");
    }
    seen.set(target, label);
  }
  const pair = lookAlikePair(labels);
  if (pair) throw DomainError.validation(`report.models: ${lookAlikeRule(pair, "models")}`, "report.models");
}

/** As every other way in (support/identifierText): no two of the report's scenario keys read alike. */
function checkKeysApart(results: unknown[]): void {
  const keys = [...new Set(results.map((result) => (isObject(result) ? result.scenario_key : null)).filter((key): key is string => typeof key === "string"))];
  const pair = lookAlikePair(keys);
  if (pair) throw DomainError.validation(`report.results: ${lookAlikeRule(pair, "scenario keys")}`, "report.results");
}

/** Largest judge call count, or comparison resample count, a report may carry. */
export const REPORT_MAX_COUNT = 1_000_000;

/**
 * A count the report may omit (null) or give as a whole number in [0, max]. A fraction or a
 * number past what the run's figures hold was accepted, and the read database then refused the
 * whole run: the import answered success and the run never appeared.
 */
function checkCount(value: unknown, max: number, field: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
    throw DomainError.validation(`${field} must be a whole number from 0 to ${max}`, field);
  }
}

/** A figure the report may omit (null) or give as a number (a score, a confidence). */
function checkNumber(value: unknown, field: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "number" || !Number.isFinite(value)) throw DomainError.validation(`${field} must be a number`, field);
}

/** A cost or a duration: omitted (null) or a number in [0, max], so the run's sums stay storable. */
function checkAmount(value: unknown, max: number, field: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > max) {
    throw DomainError.validation(`${field} must be a number from 0 to ${max}`, field);
  }
}

/** The report's meaning (threshold, scores, labels, statuses) is checked as Report.fromJSON checks a document. */
const RULES: DocumentRules = { root: "report.", refuse: DomainError.validation };

/** Text the report may omit (null) or give as a string (what the renderer escapes and prints). */
function checkText(value: unknown, field: string): void {
  if (value === undefined || value === null || typeof value === "string") return;
  throw DomainError.validation(`${field} must be a string`, field);
}

/** The keys of a result the renderer rebuilds its Replay from (domain/report fromJson.ts). */
const REPLAY_KEYS = ["answer", "tool_calls", "duration_ms", "input_tokens", "output_tokens", "error", "cost", "metadata"] as const;

/** The result's answer, tool calls and the rest as Replay.from reads them when the report is rendered. */
function checkReplay(result: Record<string, unknown>, field: string): void {
  const init: Record<string, unknown> = {};
  for (const key of REPLAY_KEYS) if (result[key] !== undefined && result[key] !== null) init[key] = result[key];
  try {
    Replay.from(init);
  } catch (error) {
    if (!(error instanceof ReplayError)) throw error;
    const rule = error.message.slice(`replay.${error.field}: `.length);
    throw DomainError.validation(`${field}.${error.field}: ${rule}`, `${field}.${error.field}`);
  }
}

/** What a result's figures add to the run's sums (its scores were checked with the document's rules). */
function checkResultFigures(result: Record<string, unknown>, field: string): void {
  checkAmount(result.cost, COST_LIMIT, `${field}.cost`);
  checkAmount(result.duration_ms, DURATION_LIMIT_MS, `${field}.duration_ms`);
  for (const key of ["input_tokens", "output_tokens"]) checkCount(result[key], TOKEN_COUNT_LIMIT, `${field}.${key}`);
  checkUsage(result.judge_usage, `${field}.judge_usage`);
  // The copy the report reads (its top-level judge_usage is written out beside it).
  if (isObject(result.metadata)) checkUsage(result.metadata.judge_usage, `${field}.metadata.judge_usage`);
}

/** A judge usage (a result's, or the run's own calls): counts, tokens and cost the run adds up, and its calls by kind. */
function checkUsage(usage: unknown, field: string): void {
  if (!isObject(usage)) return;
  checkCount(usage.calls, REPORT_MAX_COUNT, `${field}.calls`);
  for (const key of ["input_tokens", "output_tokens"]) checkCount(usage[key], TOKEN_COUNT_LIMIT, `${field}.${key}`);
  checkAmount(usage.cost, COST_LIMIT, `${field}.cost`);
  checkByKind(usage.by_kind, `${field}.by_kind`);
}

/**
 * Calls by kind (`{score: 3, verdict: 1}`): at most JUDGE_KINDS_MAX kinds, each named in at most
 * JUDGE_KIND_NAME_MAX characters, each count a whole number from 0 to REPORT_MAX_COUNT. A report
 * naming 140,000 kinds made every read of its run's usage by kind slow and its answer megabytes.
 */
function checkByKind(byKind: unknown, field: string): void {
  if (byKind === undefined || byKind === null) return;
  if (!isObject(byKind)) throw DomainError.validation(`${field} must be an object of calls by kind ({"score": 3})`, field);
  const kinds = Object.keys(byKind);
  if (kinds.length > JUDGE_KINDS_MAX) throw DomainError.validation(`${field} names ${kinds.length} kinds, over the ${JUDGE_KINDS_MAX} limit`, field);
  for (const kind of kinds) {
    if (kind.length > JUDGE_KIND_NAME_MAX) {
      throw DomainError.validation(`${field}: a kind must be at most ${JUDGE_KIND_NAME_MAX} characters (one has ${kind.length})`, field);
    }
    const count = byKind[kind];
    if (typeof count !== "number" || !Number.isInteger(count) || count < 0 || count > REPORT_MAX_COUNT) {
      throw DomainError.validation(`${field}: the count of ${JSON.stringify(kind)} must be a whole number from 0 to ${REPORT_MAX_COUNT}`, field);
    }
  }
}

function checkComparison(comparison: unknown): void {
  if (comparison === undefined || comparison === null) return;
  if (!isObject(comparison)) throw DomainError.validation("report.comparison must be an object (the recorded comparison) or null", "report.comparison");
  checkCount(comparison.seed, Number.MAX_SAFE_INTEGER, "report.comparison.seed");
  checkCount(comparison.resamples, REPORT_MAX_COUNT, "report.comparison.resamples");
  checkNumber(comparison.confidence, "report.comparison.confidence");
  // The report's pages read the comparison back with this check: refused here, naming the field,
  // rather than stored as a completed run whose Markdown and HTML could never be rendered.
  checkRecordedComparison(comparison, "report.comparison", (message, field) => DomainError.validation(message, field));
}

/** The judge's recorded pick: a model of the report (or none), with its rationale and judge as text. */
function checkVerdict(verdict: unknown, models: Record<string, unknown>): void {
  if (verdict === undefined || verdict === null) return;
  if (!isObject(verdict)) throw DomainError.validation("report.verdict must be an object (winner, rationale, judge) or null", "report.verdict");
  const { winner } = verdict;
  // "" reads as no best model, as null does (the reference writes either).
  if (winner !== undefined && winner !== null && winner !== "" && (typeof winner !== "string" || !Object.hasOwn(models, winner))) {
    throw DomainError.validation(`report.verdict.winner must be null, "" or a model label from report.models, got ${JSON.stringify(winner)}`, "report.verdict.winner");
  }
  checkText(verdict.rationale, "report.verdict.rationale");
  checkText(verdict.judge, "report.verdict.judge");
}

/** What the report's header reads besides the results: the agent, the judge, the release, the run's metadata. */
function checkHeader(report: Record<string, unknown>): void {
  checkText(report.agent_name, "report.agent_name");
  checkText(report.judge, "report.judge");
  checkText(report.failure, "report.failure");
  for (const key of ["metadata", "release"]) {
    const value = report[key];
    if (value !== undefined && value !== null && !isObject(value)) throw DomainError.validation(`report.${key} must be an object or null`, `report.${key}`);
  }
  if (isObject(report.release)) checkRelease(report.release);
}

const RELEASE_KEYS = ["digest", "revision", "label"];

/**
 * A report's release (reference-core §13: `{digest, revision, label}`, nils removed) under
 * startRun's rules for what it can hold: those three keys only (a misspelt `labl` was dropped
 * without a word, and the release manager's label with it), each text of at most
 * RELEASE_TEXT_MAX characters. Unlike startRun's, its digest may be missing or blank: the
 * reference writes a release with a label alone, and a blank part reads as none, as the report
 * and the read models read it (the run then pins no release, apps/api README "Pinning").
 */
function checkRelease(release: Record<string, unknown>): void {
  for (const key of Object.keys(release)) {
    if (RELEASE_KEYS.includes(key)) continue;
    const meant = likelyMeant(key, RELEASE_KEYS);
    const field = `report.release.${key}`;
    throw DomainError.validation(`${field}: unknown key; a release takes digest, revision and label${meant ? ` (did you mean ${meant}?)` : ""}`, field);
  }
  for (const key of RELEASE_KEYS) {
    const value = release[key];
    const field = `report.release.${key}`;
    checkText(value, field);
    if (typeof value === "string" && value.length > RELEASE_TEXT_MAX) {
      throw DomainError.validation(`${field}: must be at most ${RELEASE_TEXT_MAX} characters (it has ${value.length})`, field);
    }
  }
}

/**
 * The pages an imported run answers with are rendered from this document (apps/api
 * rebuildReport): one that cannot be rendered is refused here, rather than stored as a run whose
 * pages answer CONFLICT for good. The checks above name the field; this catches what they miss.
 */
function checkRenders(report: Record<string, unknown>): Report {
  try {
    // As the stored run's pages will be rendered (apps/api rebuildReport).
    const rendered = Report.fromStoredJSON(report as unknown as ReportDocument);
    rendered.toMarkdown();
    rendered.toHtml();
    return rendered;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw DomainError.validation(`report cannot be rendered as a report (${reason})`, "report");
  }
}

export function checkImportedReport(report: Record<string, unknown>): void {
  // summary_by_model, else the reference library's `models`: the models the report renders, and
  // the projector and the audit read (they were checked in the other order, so a document with
  // both had models stored that were never checked).
  const models = documentModels(report, RULES);
  const { results } = report;
  if (!Array.isArray(results)) throw DomainError.validation("report.results must be a list", "report.results");
  checkModels(models);
  if (results.length > REPORT_MAX_RESULTS) {
    throw DomainError.validation(`report.results holds ${results.length} results, over the ${REPORT_MAX_RESULTS} limit`, "report.results");
  }
  checkDocumentResults(results, models, RULES, checkStoredResult);
  checkKeysApart(results);
  checkScore(report.threshold, "report.threshold", RULES.refuse);
  checkHeader(report);
  checkVerdict(report.verdict, models);
  checkComparison(report.comparison);
  // The judge's calls for the run itself (the verdict), which the run's judge usage adds in.
  checkUsage(report.run_judge_usage, "report.run_judge_usage");
  if (isObject(report.judge_usage)) checkUsage(report.judge_usage.run, "report.judge_usage.run");
  const rendered = checkRenders(report);
  checkSummariesFollowResults(report, rendered);
  checkJudgeUsageFollowsResults(report, rendered);
}

/** What a result must also be for the platform to store it: a key every other way in takes, text where the pages print text, storable figures and a replay. */
function checkStoredResult(result: Record<string, unknown>, field: string): void {
  const key = result.scenario_key as string;
  // As every other way in limits a scenario key (catalogs, suites, pasted lists).
  if (key.length > SCENARIO_KEY_MAX) {
    throw DomainError.validation(`${field}.scenario_key must be at most ${SCENARIO_KEY_MAX} characters (it has ${key.length})`, `${field}.scenario_key`);
  }
  if (isReservedName(key)) throw DomainError.validation(`${field}.scenario_key ${RESERVED_NAME_RULE}`, `${field}.scenario_key`);
  const problem = identifierTextProblem(key);
  if (problem) throw DomainError.validation(`${field}.scenario_key ${problem}`, `${field}.scenario_key`);
  for (const text of ["prompt", "group", "group_name", "provider", "model"]) checkText(result[text], `${field}.${text}`);
  checkResultFigures(result, field);
  checkReplay(result, field);
}
