// What a saved report document must say for the report it stands for to mean anything: a pass
// threshold and scores that are shares from 0 to 1 (70 would render "≥ 7000%"), and results
// that each name a scenario and one of the document's models, once per pair, with a status and
// fault the report knows. Report.fromJSON reads a document with these rules, and importReport
// (commands/run/importedReport.ts) checks one with them before its platform limits, so the two
// refuse the same document, naming the same field with the same rule. A caller gives the root of
// its field paths (`report.` for an import) and how a refusal is thrown.
import { FAULTS } from "../diagnosis/types.js";

/** What a result may be: the Result statuses (reference-core §7). */
const RESULT_STATUSES = ["passed", "failed", "errored"] as const;

/** How a caller refuses: its own error, naming the field (`report.results[3].score` for an import). */
export type Refuse = (message: string, field: string) => Error;

export interface DocumentRules {
  /** Prefix of every field path: `report.` for an imported envelope's report, "" for a document. */
  root: string;
  refuse: Refuse;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A score, a criterion score or the pass threshold: omitted (null) or a number from 0 to 1, as the scorer takes them. */
export function checkScore(value: unknown, field: string, refuse: Refuse): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw refuse(`${field} must be a number from 0 to 1`, field);
  }
}

/**
 * The document's models, keyed by label: `summary_by_model`, else `models` as the reference
 * library writes them (the same shape), in the order the Report reads them, so the labels checked
 * are the models rendered. Named `models` in a refusal, as importReport always has.
 */
export function documentModels(doc: Record<string, unknown>, { root, refuse }: DocumentRules): Record<string, unknown> {
  const models = doc.summary_by_model ?? doc.models;
  if (!isObject(models)) throw refuse(`${root}models (or summary_by_model) must be an object keyed by model label`, `${root}models`);
  return models;
}

function checkResultScores(result: Record<string, unknown>, field: string, refuse: Refuse): void {
  checkScore(result.score, `${field}.score`, refuse);
  if (result.scores === undefined || result.scores === null) return;
  if (!isObject(result.scores)) throw refuse(`${field}.scores must be an object keyed by criterion`, `${field}.scores`);
  for (const [key, value] of Object.entries(result.scores)) checkScore(value, `${field}.scores.${key}`, refuse);
}

/** One result: an object naming a non-blank scenario key and a model of the document, with a known status and fault, and scores from 0 to 1. */
function checkResult(result: unknown, field: string, models: Record<string, unknown>, { root, refuse }: DocumentRules): asserts result is Record<string, unknown> {
  if (!isObject(result)) throw refuse(`${field} must be an object`, field);
  const key = result.scenario_key;
  if (typeof key !== "string" || key.trim() === "") {
    throw refuse(`${field}.scenario_key is required: the key of the scenario the result is for`, `${field}.scenario_key`);
  }
  if (typeof result.label !== "string") throw refuse(`${field}.label must be a model label from ${root}models`, `${field}.label`);
  if (!Object.hasOwn(models, result.label)) throw refuse(`${field}.label "${result.label}" is missing from ${root}models`, `${field}.label`);
  if (!(RESULT_STATUSES as readonly unknown[]).includes(result.status)) {
    throw refuse(`${field}.status must be one of ${RESULT_STATUSES.join(", ")}`, `${field}.status`);
  }
  const fault = result.fault;
  if (fault !== undefined && fault !== null && !(FAULTS as readonly string[]).includes(String(fault))) {
    throw refuse(`${field}.fault: unknown fault "${String(fault)}"`, `${field}.fault`);
  }
  checkResultScores(result, field, refuse);
}

/**
 * Every result by the rules above, and one result per scenario and model (reference-platform
 * §7.2). `each` adds a caller's own checks of a result once it has passed these (importReport's
 * platform limits).
 */
export function checkDocumentResults(
  results: readonly unknown[],
  models: Record<string, unknown>,
  rules: DocumentRules,
  each?: (result: Record<string, unknown>, field: string) => void,
): void {
  // The index of each pair's first result.
  const pairs = new Map<string, number>();
  results.forEach((result, i) => {
    const field = `${rules.root}results[${i}]`;
    checkResult(result, field, models, rules);
    const key = result.scenario_key as string;
    const label = result.label as string;
    const pair = JSON.stringify([key, label]);
    const first = pairs.get(pair);
    if (first !== undefined) {
      throw rules.refuse(
        `${field}: scenario "${key}" × model "${label}" repeats ${rules.root}results[${first}] (one result per scenario and model)`,
        `${field}.scenario_key`,
      );
    }
    pairs.set(pair, i);
    each?.(result, field);
  });
}
