// What the platform checks of a criterion before an evaluation or a catalog set keeps it. The
// Scorer reads configs as the reference does (`chars.to_i`, an unknown type scores nil), so
// `chars: "abc"` passed every answer, `ms: {}` failed every one and `pattern: "/(/"` never
// matched, with nothing telling the author. Numeric strings stay allowed, as the Scorer reads them.
import { usableNumber } from "../format/numbers.js";
import { patternProblem } from "../scenarios/pattern.js";
import { CRITERION_TYPES } from "./criteria.js";
import { BUILT_IN_SCORES } from "./scoreOrder.js";

/** The types an evaluation may hold: the Scorer's, and the platform's trace criteria. */
export const EVALUATION_CRITERION_TYPES = [...CRITERION_TYPES, "trace_error_rate", "trace_latency"] as const;

export interface CriterionProblem {
  /** Where, below the criterion: `type`, `config.chars`... */
  field: string;
  rule: string;
}

/** Each numeric setting a rule reads, by criterion type. */
const NUMERIC_SETTINGS: Readonly<Record<string, string>> = {
  min_length: "chars",
  max_latency_ms: "ms",
  token_budget: "output_tokens",
};

/** A key JavaScript objects list before every other (`2024`): an array index, 0 to 2^32 - 2. */
const isIndexLike = (key: string): boolean => /^(0|[1-9][0-9]{0,9})$/.test(key) && Number(key) <= 4_294_967_294;

/**
 * Why a list of criteria cannot score as its author meant, or null: the first criterion with a
 * problem of its own, else the first key that repeats one before it (two criteria under one key
 * made a single score, the second overwriting the first). `field` is the whole path below `path`
 * (`criteria[1].key`, `products[0].sets[0].criteria[1].key`).
 */
export function criteriaProblem(
  criteria: ReadonlyArray<{ key: string; type: string; config?: Readonly<Record<string, unknown>> | null }>,
  path = "criteria",
): CriterionProblem | null {
  for (const [index, criterion] of criteria.entries()) {
    const problem = criterionProblem(criterion.key, criterion.type, criterion.config);
    if (problem) return { field: `${path}[${index}].${problem.field}`, rule: problem.rule };
  }
  const seen = new Map<string, number>();
  for (const [index, { key }] of criteria.entries()) {
    const first = seen.get(key);
    if (first !== undefined) return { field: `${path}[${index}].key`, rule: `repeats "${key}" (first at ${path}[${first}].key)` };
    seen.set(key, index);
  }
  return null;
}

/** Why the criterion cannot score as its author meant, or null. */
export function criterionProblem(key: string, type: string, config: Readonly<Record<string, unknown>> | null | undefined): CriterionProblem | null {
  // The Scorer writes these after the criteria: the criterion's score was overwritten by the
  // built-in one, or (task_completion without a judge) reported as the judge's grade.
  if (BUILT_IN_SCORES.includes(key)) return { field: "key", rule: `"${key}" is reserved for the built-in score of the same name` };
  if (isIndexLike(key)) {
    return { field: "key", rule: `criterion key ${key} is a whole number; scores keep their criteria's order only under other keys (e.g. c${key})` };
  }
  if (!(EVALUATION_CRITERION_TYPES as readonly string[]).includes(type)) return { field: "type", rule: `unknown criterion type ${type}` };
  const settings = config ?? {};
  const numeric = NUMERIC_SETTINGS[type];
  if (numeric && numeric in settings) {
    const value = usableNumber(settings[numeric]);
    if (value === null || value < 0) return { field: `config.${numeric}`, rule: `${type} ${numeric} must be a number, 0 or more` };
  }
  if (type === "contains" || type === "not_contains") return patternSetting(type, settings.pattern);
  return null;
}

function patternSetting(type: string, pattern: unknown): CriterionProblem | null {
  if (typeof pattern !== "string" || pattern.trim() === "") {
    return { field: "config.pattern", rule: `${type} needs a pattern: a non-blank string` };
  }
  const problem = patternProblem(pattern);
  return problem ? { field: "config.pattern", rule: problem } : null;
}
