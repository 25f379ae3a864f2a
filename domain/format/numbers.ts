// Ruby's number semantics that every surface shares (reference-core §0): Float#round(n) rounds
// half away from zero on the decimal the float was written as, so 2.675.round(2) is 2.68 even
// though the double is 2.67499999…; and "usable" means a finite number or a numeric string.
import { roundHalfAwayFromZero } from "../support/round.js";

/** Ruby's `Float#round(digits)` (half away from zero, float.c's correction); from domain/support. */
export const roundHalfUp = roundHalfAwayFromZero;

/** A whole number, half up on the decimal value: 14.499999999999998 -> 15 (Format's `whole`). */
export function whole(value: number): number {
  const result = roundHalfUp(roundHalfUp(value, 9), 0);
  return result === 0 ? 0 : result; // never print "-0"
}

/**
 * The finite number a value stands for, or null when it is missing, empty or not numeric.
 * Numeric strings count, as Ruby's `Float(value, exception: false)` reads them.
 */
export function usableNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "") return null;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : null;
}

/**
 * `value.toFixed(digits)` that stays in plain digits past 1e21, where toFixed switches to
 * exponent form (`1e+21`) and Ruby's `%.4f` does not: a replay or an imported report may carry
 * any finite cost or rate, and the page must still print it. Past 1e21 a double is a whole
 * number, so its exact integer digits are its fixed form.
 */
export function fixed(value: number, digits: number): string {
  if (Math.abs(value) < 1e21) return value.toFixed(digits);
  return `${BigInt(value)}${digits > 0 ? `.${"0".repeat(digits)}` : ""}`;
}

/** Ruby's `to_i` for the counts a report prints: nil and junk are 0, floats truncate. */
export function toInteger(value: unknown): number {
  const number = usableNumber(value);
  return number === null ? 0 : Math.trunc(number);
}
