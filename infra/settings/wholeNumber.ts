// Whole-number settings from the environment (VERDICT_*_MS, PORT, ...) and from flags (--port),
// read one way for every app: decimal digits only, around them spaces allowed. `Number()` took
// "0x1f90" for 8080, "1e3" for 1000 and "" for 0; the apps read these four different ways.
import { z } from "zod";

/** A setting's value broke its rule; the message names the setting (variable or flag) and the rule. */
export class SettingError extends Error {
  readonly code = "validation";
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
  }
}

export interface WholeNumberRule {
  min: number;
  /** Inclusive; none: any safe integer from `min`. */
  max?: number;
  /** What the number counts, said in the rule: "milliseconds" -> "a whole number of milliseconds >= 1". */
  unit?: string;
  /** What the number is when not "whole number": "port number" -> "a port number 0-65535". */
  noun?: string;
  /** `0` is accepted below `min` and read as null: what it means, said in the rule ("no limit"). */
  zeroMeans?: string;
}

/** Node runs a timer set past 2^31-1 ms at once (TimeoutOverflowWarning): a longer limit would not wait at all. */
export const TIMER_MAX_MS = 2 ** 31 - 1;

/** The rule as the error says it: `a whole number of milliseconds >= 1, or 0 for no limit`. */
function ruleText(rule: WholeNumberRule): string {
  const what = `a ${rule.noun ?? "whole number"}${rule.unit ? ` of ${rule.unit}` : ""}`;
  const range = rule.max === undefined ? ` >= ${rule.min}` : ` ${rule.min}-${rule.max}`;
  return `${what}${range}${rule.zeroMeans ? `, or 0 for ${rule.zeroMeans}` : ""}`;
}

function schemaOf(rule: WholeNumberRule) {
  const number = z
    .number()
    .int()
    .min(rule.min)
    .max(rule.max ?? Number.MAX_SAFE_INTEGER);
  return z
    .string()
    .trim()
    .regex(/^\d+$/)
    .transform(Number)
    .pipe(rule.zeroMeans ? z.union([z.literal(0), number]) : number);
}

/**
 * `raw`, a value given for `setting` (a flag's value, or a variable that is set), as a whole
 * number by `rule`; null for `0` when the rule gives 0 a meaning. Anything else (blank, "0x10",
 * "1e3", "1.5", "-1", out of range) throws a SettingError naming `setting` and the rule.
 */
export function parseWholeNumber(setting: string, raw: string, rule: WholeNumberRule & { zeroMeans: string }): number | null;
export function parseWholeNumber(setting: string, raw: string, rule: WholeNumberRule): number;
export function parseWholeNumber(setting: string, raw: string, rule: WholeNumberRule): number | null {
  const parsed = schemaOf(rule).safeParse(raw);
  if (!parsed.success) throw new SettingError(setting, `${setting} must be ${ruleText(rule)} (got ${JSON.stringify(raw)})`);
  if (rule.unit === "milliseconds" && rule.max === undefined && parsed.data > TIMER_MAX_MS) {
    throw new SettingError(setting, `${setting} must be at most ${TIMER_MAX_MS} milliseconds (about 24.8 days), the longest a timer waits (got ${JSON.stringify(raw)})`);
  }
  return parsed.data === 0 && rule.zeroMeans ? null : parsed.data;
}

/**
 * The environment variable `name` read by `rule`, or `fallback` when it is unset or blank (as
 * every app has treated `NAME=`); see parseWholeNumber.
 */
export function wholeNumberSetting<F extends number | null | undefined>(env: Readonly<Record<string, string | undefined>>, name: string, rule: WholeNumberRule & { zeroMeans: string }, fallback: F): number | null | F;
export function wholeNumberSetting<F extends number | undefined>(env: Readonly<Record<string, string | undefined>>, name: string, rule: WholeNumberRule, fallback: F): number | F;
export function wholeNumberSetting(env: Readonly<Record<string, string | undefined>>, name: string, rule: WholeNumberRule, fallback: number | null | undefined): number | null | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  return parseWholeNumber(name, raw, rule);
}
