// Reading a recorded comparison back. The usual input, a comparison this code recorded, is
// checked by hand (no zod); anything the hand check does not accept goes to the zod schema,
// which decides and words the error. The hand check is only ever stricter than the schema and
// builds the same value the schema would (known keys only, in the schema's order, defaults
// filled in), so which of the two read a recording never shows.
import type { ComparisonInterval, ComparisonJSON, ModelComparison, PairComparison } from "./comparison.js";
import { comparisonJSONSchema } from "./comparisonSchema.js";
import { isPlainObject, keyedRecord } from "../support/index.js";

// A plain object, or one with no prototype (how this code keys records by label: keyedRecord).
const isObject = isPlainObject;
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const NOT_ACCEPTED = Symbol("not accepted by the hand check");

function interval(value: unknown): ComparisonInterval | null {
  if (value === null) return null;
  if (Array.isArray(value) && value.length === 2 && isNumber(value[0]) && isNumber(value[1])) return [value[0], value[1]];
  throw NOT_ACCEPTED;
}

function model(value: unknown): ModelComparison {
  if (!isObject(value) || !isCount(value.scenarios)) throw NOT_ACCEPTED;
  if (value.pass_rate !== null && !isNumber(value.pass_rate)) throw NOT_ACCEPTED;
  return { scenarios: value.scenarios, pass_rate: value.pass_rate, interval: interval(value.interval) };
}

function pair(value: unknown): PairComparison {
  if (!isObject(value) || !Array.isArray(value.models) || value.models.length !== 2) throw NOT_ACCEPTED;
  const [a, b] = value.models as unknown[];
  if (typeof a !== "string" || typeof b !== "string" || !isCount(value.scenarios) || typeof value.decisive !== "boolean") throw NOT_ACCEPTED;
  if (value.difference !== null && !isNumber(value.difference)) throw NOT_ACCEPTED;
  return { models: [a, b], scenarios: value.scenarios, difference: value.difference, interval: interval(value.interval), decisive: value.decisive };
}

function setting(value: unknown, fallback: number, valid: (n: number) => boolean): number {
  if (value === undefined) return fallback;
  if (isNumber(value) && valid(value)) return value;
  throw NOT_ACCEPTED;
}

function handCheck(recorded: unknown): ComparisonJSON {
  if (!isObject(recorded) || !isObject(recorded.models) || !Array.isArray(recorded.pairs) || typeof recorded.conclusion !== "string") {
    throw NOT_ACCEPTED;
  }
  const models: Record<string, ModelComparison> = keyedRecord();
  for (const label of Object.keys(recorded.models)) {
    models[label] = model(recorded.models[label]);
  }
  return {
    models,
    pairs: recorded.pairs.map(pair),
    conclusion: recorded.conclusion,
    seed: setting(recorded.seed, 0, Number.isSafeInteger),
    resamples: setting(recorded.resamples, 5000, (n) => Number.isSafeInteger(n) && n > 0),
    confidence: setting(recorded.confidence, 0.95, (n) => n > 0 && n < 1),
  };
}

/** The recorded comparison as a ComparisonJSON, or a TypeError naming the first problem. */
export function readRecordedComparison(recorded: unknown): ComparisonJSON {
  const json = readShape(recorded);
  checkFigures(json);
  return json;
}

/**
 * The same reading for a reader of a larger document (a report, an import): a problem is thrown
 * as the reader's own error, its path under `field` (`comparison.pairs.0.decisive`), so a
 * recording that could never be rendered is refused where it is read, not by a later render.
 */
export function checkRecordedComparison(recorded: unknown, field: string, refuse: (message: string, field: string) => Error): void {
  try {
    readRecordedComparison(recorded);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const [path, rule] = splitProblem(error.message);
    const at = path ? `${field}.${path}` : field;
    throw refuse(`${at}: ${rule}`, at);
  }
}

/** `Comparison.fromJSON: pairs.0.decisive: must be …` as its path and its rule. */
function splitProblem(message: string): [string, string] {
  const match = /^Comparison\.fromJSON: ([^:]*): (.*)$/s.exec(message);
  if (!match) return ["", message];
  return [match[1] === "(root)" ? "" : match[1], match[2]];
}

function readShape(recorded: unknown): ComparisonJSON {
  try {
    return handCheck(recorded);
  } catch (error) {
    if (error !== NOT_ACCEPTED) throw error;
  }
  const parsed = comparisonJSONSchema().safeParse(recorded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(`Comparison.fromJSON: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data as ComparisonJSON;
}

const refuse = (path: string, rule: string): never => {
  throw new TypeError(`Comparison.fromJSON: ${path}: ${rule}`);
};

function within(path: string, value: number | null, low: number): void {
  if (value !== null && !(value >= low && value <= 100)) refuse(path, `must be within ${low}..100, got ${value}`);
}

function checkInterval(path: string, interval: ComparisonInterval | null, low: number): void {
  if (interval === null) return;
  within(`${path}.0`, interval[0], low);
  within(`${path}.1`, interval[1], low);
  if (interval[0] > interval[1]) refuse(path, `lower bound must not exceed the upper, got [${interval[0]}, ${interval[1]}]`);
}

/**
 * What every comparison this code records satisfies, so a recording shown as given (a rebuilt or
 * imported report) cannot print a pass rate of 170% or a pair called decisive on an interval that
 * includes zero: rates and bounds within 0..100 (a pair's within -100..100), lower ≤ upper,
 * `decisive` exactly when the interval excludes zero, and pairs naming compared models.
 */
function checkFigures(json: ComparisonJSON): void {
  for (const [label, entry] of Object.entries(json.models)) {
    within(`models.${label}.pass_rate`, entry.pass_rate, 0);
    checkInterval(`models.${label}.interval`, entry.interval, 0);
  }
  json.pairs.forEach((pair, i) => {
    const path = `pairs.${i}`;
    pair.models.forEach((label, j) => {
      if (!Object.hasOwn(json.models, label)) refuse(`${path}.models.${j}`, `must name a model of models, got ${JSON.stringify(label)}`);
    });
    within(`${path}.difference`, pair.difference, -100);
    checkInterval(`${path}.interval`, pair.interval, -100);
    const excludesZero = pair.interval !== null && (pair.interval[0] > 0 || pair.interval[1] < 0);
    if (pair.decisive !== excludesZero) {
      refuse(`${path}.decisive`, `must be ${excludesZero} (decisive exactly when the interval excludes zero), got ${pair.decisive}`);
    }
  });
}
