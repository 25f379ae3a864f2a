// The rule criteria an evaluation scores every answer on (reference-core §8). Each criterion is
// `{ key, type, config }`; it compiles once into a function of the answer, so a pattern is
// compiled per criterion rather than per replay.
import { usableNumber, toInteger } from "../format/numbers.js";
import type { Replay } from "../replay/replay.js";
import { compilePattern, matchesCompiled } from "./pattern.js";
import { characterLength } from "../support/index.js";
import { criterionSettingProblem, repeatedKeyProblem } from "./criterionConfig.js";

export { RULE_CRITERION_TYPES, CRITERION_TYPES, type CriterionType } from "./criterionTypes.js";

export interface Criterion {
  key: string;
  /** One of CRITERION_TYPES or a platform trace type (scored null); the Scorer refuses another, but scores a recorded one null. */
  type: string;
  config?: Record<string, unknown> | null;
}

/** What a compiled criterion reads: the answer (present), its lower-case form, the replay. */
type CriterionRule = (answer: string, lower: string, replay: Replay, judged: number | null) => number | null;

export interface CompiledCriterion {
  readonly key: string;
  readonly type: string;
  readonly judged: boolean;
  readonly rule: CriterionRule;
}

/** A criterion that cannot be scored as given; names the criterion's index and the rule. */
export class CriterionError extends Error {
  readonly code = "validation" as const;
  constructor(path: string, rule: string) {
    super(`${path}: ${rule}`);
    this.name = "CriterionError";
  }
}

/** Checks the shape the Scorer relies on; the evaluation's own zod schema is the first line. */
export function checkCriterion(criterion: unknown, index: number): Criterion {
  const path = `criteria[${index}]`;
  if (criterion === null || typeof criterion !== "object" || Array.isArray(criterion)) throw new CriterionError(path, "must be an object");
  const { key, type, config } = criterion as Record<string, unknown>;
  if (typeof key !== "string" || key.trim() === "") throw new CriterionError(`${path}.key`, "required, a non-blank string");
  if (typeof type !== "string" || type.trim() === "") throw new CriterionError(`${path}.type`, "required, a non-blank string");
  if (config !== undefined && config !== null && (typeof config !== "object" || Array.isArray(config))) {
    throw new CriterionError(`${path}.config`, "must be an object");
  }
  // A typo in a type or config dropped the check without a word; a recorded one scores as it did.
  const problem = recorded.has(criterion) ? null : criterionSettingProblem(type, config as Record<string, unknown> | null | undefined);
  if (problem) throw new CriterionError(`${path}.${problem.field}`, problem.rule);
  return criterion as Criterion;
}

/**
 * Two criteria under one key made a single score, the second overwriting the first: refused
 * naming both, as the platform words it (criteriaProblem). Recorded criteria score as they did.
 */
export function checkUniqueKeys(criteria: readonly Criterion[]): void {
  const problem = repeatedKeyProblem(criteria, "criteria", (criterion) => recorded.has(criterion));
  if (problem) throw new CriterionError(problem.field, problem.rule);
}

/** Criteria taken as recorded (see recordedCriteria). */
const recorded = new WeakSet<object>();

/**
 * Marks criteria an event already recorded, for a Runner that scores a recorded run: they were
 * checked (or, before the checks, not) when they were given, and an older event's unknown type
 * must still score null (reference-core §8) rather than stop the run. Returns the same list.
 */
export function recordedCriteria<T extends object>(criteria: readonly T[]): readonly T[] {
  for (const criterion of criteria) recorded.add(criterion);
  return criteria;
}

export function compileCriterion(criterion: Criterion): CompiledCriterion {
  const key = criterion.key;
  const type = criterion.type;
  const config = criterion.config ?? {};
  return { key, type, judged: type === "llm_judge", rule: ruleFor(type, config) };
}

function ruleFor(type: string, config: Record<string, unknown>): CriterionRule {
  switch (type) {
    case "response_present":
      return () => 1.0; // reached only for a present answer
    case "min_length": {
      const min = Math.max("chars" in config ? toInteger(config.chars) : 40, 1);
      // Every character is at most two UTF-16 units, so a long enough answer needs no count.
      return (answer) => (answer.length >= 2 * min ? 1.0 : Math.min(characterLength(answer) / min, 1.0));
    }
    case "max_latency_ms": {
      const budget = "ms" in config ? (usableNumber(config.ms) ?? 0) : 5_000;
      return (_answer, _lower, replay) => {
        const duration = replay.durationMs ?? 0;
        return duration === 0 || duration <= budget ? 1.0 : Math.min(budget / duration, 1.0);
      };
    }
    case "token_budget": {
      const budget = "output_tokens" in config ? (usableNumber(config.output_tokens) ?? 0) : 1_000;
      return (_answer, _lower, replay) => {
        const tokens = replay.outputTokens ?? 0;
        return tokens <= budget ? 1.0 : Math.min(budget / tokens, 1.0);
      };
    }
    case "contains": {
      const pattern = compilePattern(config.pattern);
      return (answer, lower) => (matchesCompiled(pattern, answer, lower) ? 1.0 : 0.0);
    }
    case "not_contains": {
      const pattern = compilePattern(config.pattern);
      return (answer, lower) => (matchesCompiled(pattern, answer, lower) ? 0.0 : 1.0);
    }
    case "llm_judge":
      return (_answer, _lower, _replay, judged) => judged;
    default:
      return () => null;
  }
}
