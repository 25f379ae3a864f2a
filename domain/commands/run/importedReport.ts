// What an imported report must satisfy before it becomes a completed run (reference-platform
// §3 rule 13 and §2.1 limits). The report is Report#to_h JSON with snake_case keys.
import { FAULTS } from "../../diagnosis/types.js";
import { DomainError } from "../../events/domainError.js";
import { COST_LIMIT, DURATION_LIMIT_MS, TOKEN_COUNT_LIMIT } from "../../events/shared.js";
import { RUN_MODEL_LIMIT } from "../evaluation/evaluationCommands.js";

/** An imported report may name only the faults our diagnosis knows. */
export const KNOWN_FAULTS = FAULTS;

export const REPORT_MAX_RESULTS = 1000;
export const REPORT_MAX_MODELS = RUN_MODEL_LIMIT;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkModels(models: Record<string, unknown>): void {
  const labels = Object.keys(models);
  if (labels.length > REPORT_MAX_MODELS) throw DomainError.validation(`report.models holds ${labels.length} models, over the ${REPORT_MAX_MODELS} limit`, "report.models");
  const seen = new Map<string, string>();
  for (const label of labels) {
    const entry = models[label];
    if (!isObject(entry)) continue;
    const target = `${String(entry.provider ?? "")}/${String(entry.model ?? label)}`;
    const other = seen.get(target);
    if (other !== undefined) {
      throw DomainError.validation(`report.models: "${other}" and "${label}" name the same provider/model (${target})`, "report.models");
    }
    seen.set(target, label);
  }
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

function checkResultFigures(result: Record<string, unknown>, field: string): void {
  checkNumber(result.score, `${field}.score`);
  checkAmount(result.cost, COST_LIMIT, `${field}.cost`);
  checkAmount(result.duration_ms, DURATION_LIMIT_MS, `${field}.duration_ms`);
  for (const key of ["input_tokens", "output_tokens"]) checkCount(result[key], TOKEN_COUNT_LIMIT, `${field}.${key}`);
  checkUsage(result.judge_usage, `${field}.judge_usage`);
}

/** A judge usage (a result's, or the run's own calls): counts, tokens and cost the run adds up. */
function checkUsage(usage: unknown, field: string): void {
  if (!isObject(usage)) return;
  checkCount(usage.calls, REPORT_MAX_COUNT, `${field}.calls`);
  for (const key of ["input_tokens", "output_tokens"]) checkCount(usage[key], TOKEN_COUNT_LIMIT, `${field}.${key}`);
  checkAmount(usage.cost, COST_LIMIT, `${field}.cost`);
}

function checkComparison(comparison: unknown): void {
  if (!isObject(comparison)) return;
  checkCount(comparison.seed, Number.MAX_SAFE_INTEGER, "report.comparison.seed");
  checkCount(comparison.resamples, REPORT_MAX_COUNT, "report.comparison.resamples");
  checkNumber(comparison.confidence, "report.comparison.confidence");
}

export function checkImportedReport(report: Record<string, unknown>): void {
  // The reference library writes per-model summaries under `models`; ours under `summary_by_model`.
  // Both are the same document shape, so either is accepted.
  const { results } = report;
  const models = report.models ?? report.summary_by_model;
  if (!isObject(models)) throw DomainError.validation("report.models (or summary_by_model) must be an object keyed by model label", "report.models");
  if (!Array.isArray(results)) throw DomainError.validation("report.results must be a list", "report.results");
  checkModels(models);
  if (results.length > REPORT_MAX_RESULTS) {
    throw DomainError.validation(`report.results holds ${results.length} results, over the ${REPORT_MAX_RESULTS} limit`, "report.results");
  }
  results.forEach((result, i) => {
    const field = `report.results[${i}]`;
    if (!isObject(result)) throw DomainError.validation(`${field} must be an object`, field);
    const label = String(result.label ?? "");
    if (!(label in models)) throw DomainError.validation(`${field}.label "${label}" is missing from report.models`, `${field}.label`);
    const fault = result.fault;
    if (fault !== undefined && fault !== null && !(KNOWN_FAULTS as readonly string[]).includes(String(fault))) {
      throw DomainError.validation(`${field}.fault: unknown fault "${String(fault)}"`, `${field}.fault`);
    }
    checkResultFigures(result, field);
  });
  checkNumber(report.threshold, "report.threshold");
  checkComparison(report.comparison);
  // The judge's calls for the run itself (the verdict), which the run's judge usage adds in.
  checkUsage(report.run_judge_usage, "report.run_judge_usage");
  if (isObject(report.judge_usage)) checkUsage(report.judge_usage.run, "report.judge_usage.run");
}
