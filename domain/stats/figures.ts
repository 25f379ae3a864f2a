// How a comparison's bounds and confidence level are recorded and written, shared by the
// conclusion, the method line, the Markdown and the HTML so no two surfaces disagree.

import { roundHalfAwayFromZero as roundHalfAway } from "../support/index.js";

const MAX_DECIMALS = 12;

/**
 * A bound as recorded: one decimal, or as many as a bound that is not zero needs not to round to
 * 0.0 (past ~2,000 scenarios a bound of 0.033 would, beside a pair decided on the exact bounds).
 */
export function roundBound(value: number): number {
  if (value === 0) return 0;
  let digits = 1;
  let rounded = roundHalfAway(value, digits);
  while (rounded === 0 && digits < MAX_DECIMALS) rounded = roundHalfAway(value, ++digits);
  return rounded || 0;
}

/**
 * A recorded bound written out: one decimal, as bounds were always recorded, or as many as a
 * bound that is not zero needs not to print as 0.0, so the interval shown never contradicts
 * `decisive`.
 */
export function boundText(value: number): string {
  let digits = 1;
  while (value !== 0 && Number(value.toFixed(digits)) === 0 && digits < MAX_DECIMALS) digits++;
  return value.toFixed(digits);
}

/**
 * The confidence level as a percentage: one decimal, trailing zero dropped (0.95 -> `95%`,
 * 0.975 -> `97.5%`), or as many as the smaller of it and its complement needs to keep its
 * first significant digit (0.9995 -> `99.95%`, 0.0005 -> `0.05%`), so no surface rounds a
 * level to a 100% or 0% interval.
 */
export function confidenceLabel(confidence: number): string {
  const percent = confidence * 100;
  const tail = Math.min(percent, 100 - percent);
  let digits = tail > 0 ? Math.min(MAX_DECIMALS, Math.max(1, -Math.floor(Math.log10(tail)))) : 1;
  let rounded = roundHalfAway(percent, digits);
  while ((rounded <= 0 || rounded >= 100) && digits < MAX_DECIMALS) rounded = roundHalfAway(percent, ++digits);
  const text = rounded.toFixed(digits);
  return `${text.replace(/\.?0+$/, "")}%`;
}
