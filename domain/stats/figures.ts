// How a comparison's bounds and confidence level are recorded and written, shared by the
// conclusion, the method line, the Markdown and the HTML so no two surfaces disagree.

import { roundHalfAwayFromZero as roundHalfAway } from "../support/index.js";

const MAX_DECIMALS = 12;

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
