// What an imported report must satisfy before it becomes a completed run (reference-platform
// §3 rule 13 and §2.1 limits). The report is Report#to_h JSON with snake_case keys.
import { FAULTS } from "../../diagnosis/types.js";
import { DomainError } from "../../events/domainError.js";
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
  });
}
