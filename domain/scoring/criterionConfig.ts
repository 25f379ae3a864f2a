// What is checked of a criterion before an evaluation or a catalog set keeps it, and (its type
// and config) before a Scorer takes it. The rules read configs as the reference does
// (`chars.to_i`, an unknown type scores nil, an unread key is ignored), so `chars: "abc"` passed
// every answer, `ms: {}` failed every one, `pattern: "/(/"` never matched, `type: contain` scored
// nothing and `min: 5` left the default 40, with nothing telling the author. We deviate from
// reference-core §8 as for a scenario's `expect`: refused, naming the setting and the likely
// typo. Numeric strings stay allowed, as the rules read them.
import { usableNumber } from "../format/numbers.js";
import { patternProblem } from "../scenarios/pattern.js";
import { CRITERION_TYPES } from "./criterionTypes.js";
import { BUILT_IN_SCORES } from "./scoreOrder.js";
import { likelyMeant } from "../support/index.js";

/** The types an evaluation may hold: the Scorer's, and the platform's trace criteria. */
export const EVALUATION_CRITERION_TYPES = [...CRITERION_TYPES, "trace_error_rate", "trace_latency"] as const;

interface CriterionProblem {
  /** Where, below the criterion: `type`, `config.chars`... */
  field: string;
  rule: string;
}

/** Each numeric setting a rule reads, by criterion type. */
const NUMERIC_SETTINGS: Readonly<Record<string, readonly string[]>> = {
  min_length: ["chars"],
  max_latency_ms: ["ms"],
  token_budget: ["output_tokens"],
  trace_error_rate: ["max_error_rate", "window_hours"],
  trace_latency: ["max_avg_ms", "window_hours"],
};

/**
 * The config keys each type reads (the judge reads an llm_judge's prompt). Any other key was
 * ignored, so `min_length: { min: 5 }` scored against the default 40 characters. The trace types
 * take the reference's settings (reference-platform #20) though nothing scores them here (they
 * score a sampling evaluation's traces, not built: README Status), so a typo in one is still told.
 */
const CONFIG_KEYS: Readonly<Record<string, readonly string[]>> = {
  response_present: [],
  min_length: ["chars"],
  max_latency_ms: ["ms"],
  token_budget: ["output_tokens"],
  contains: ["pattern"],
  not_contains: ["pattern"],
  llm_judge: ["prompt"],
  trace_error_rate: ["max_error_rate", "window_hours"],
  trace_latency: ["max_avg_ms", "window_hours"],
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
  return repeatedKeyProblem(criteria, path);
}

/**
 * The first criterion whose key repeats one before it, naming both (`criteria[1].key: repeats
 * "quality" (first at criteria[0].key)`), or null. `mayRepeat` lets a criterion through (one an
 * event recorded before repeats were refused), its key still counted.
 */
export function repeatedKeyProblem<C extends { key: string }>(criteria: readonly C[], path = "criteria", mayRepeat: (criterion: C) => boolean = () => false): CriterionProblem | null {
  const seen = new Map<string, number>();
  for (const [index, criterion] of criteria.entries()) {
    const first = seen.get(criterion.key);
    if (first === undefined) seen.set(criterion.key, index);
    else if (!mayRepeat(criterion)) return { field: `${path}[${index}].key`, rule: `repeats "${criterion.key}" (first at ${path}[${first}].key)` };
  }
  return null;
}

/** Why the criterion cannot score as its author meant, or null. */
function criterionProblem(key: string, type: string, config: Readonly<Record<string, unknown>> | null | undefined): CriterionProblem | null {
  // The Scorer writes these after the criteria: the criterion's score was overwritten by the
  // built-in one, or (task_completion without a judge) reported as the judge's grade.
  if (BUILT_IN_SCORES.includes(key)) return { field: "key", rule: `"${key}" is reserved for the built-in score of the same name` };
  if (isIndexLike(key)) {
    return { field: "key", rule: `criterion key ${key} is a whole number; scores keep their criteria's order only under other keys (e.g. c${key})` };
  }
  return criterionSettingProblem(type, config);
}

/** Why a criterion's type or config cannot score as its author meant (the Scorer's own check), or null. */
export function criterionSettingProblem(type: string, config: Readonly<Record<string, unknown>> | null | undefined): CriterionProblem | null {
  if (!(EVALUATION_CRITERION_TYPES as readonly string[]).includes(type)) return { field: "type", rule: unknownTypeRule(type) };
  const settings = config ?? {};
  const unread = unreadKeyProblem(type, settings);
  if (unread) return unread;
  for (const numeric of NUMERIC_SETTINGS[type] ?? []) {
    if (!(numeric in settings)) continue;
    const value = usableNumber(settings[numeric]);
    if (value === null || value < 0) return { field: `config.${numeric}`, rule: `${type} ${numeric} must be a number, 0 or more` };
  }
  if (type === "contains" || type === "not_contains") return patternSetting(type, settings.pattern);
  // A prompt that is not text was dropped for the criterion's humanized key.
  if (type === "llm_judge" && "prompt" in settings && (typeof settings.prompt !== "string" || settings.prompt.trim() === "")) {
    return { field: "config.prompt", rule: "llm_judge prompt must be non-blank text" };
  }
  return null;
}

function unknownTypeRule(type: string): string {
  const meant = likelyMeant(type, EVALUATION_CRITERION_TYPES);
  const rule = `unknown criterion type ${type}; known types: ${EVALUATION_CRITERION_TYPES.join(", ")}`;
  return meant ? `${rule} (did you mean ${meant}?)` : rule;
}

function unreadKeyProblem(type: string, settings: Readonly<Record<string, unknown>>): CriterionProblem | null {
  const read = CONFIG_KEYS[type];
  if (read === undefined) return null;
  const unread = Object.keys(settings).find((name) => !read.includes(name));
  if (unread === undefined) return null;
  const meant = likelyMeant(unread, read);
  const rule = `unknown key; ${type} reads ${read.length ? read.join(", ") : "no config"}`;
  return { field: `config.${unread}`, rule: meant ? `${rule} (did you mean ${meant}?)` : rule };
}

function patternSetting(type: string, pattern: unknown): CriterionProblem | null {
  if (typeof pattern !== "string" || pattern.trim() === "") {
    return { field: "config.pattern", rule: `${type} needs a pattern: a non-blank string` };
  }
  const problem = patternProblem(pattern);
  return problem ? { field: "config.pattern", rule: problem } : null;
}
