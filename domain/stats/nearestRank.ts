// Percentiles by nearest rank (guide, "Comparing models"): the value at rank
// ceil(p / 100 × n) of the ascending values, so the figure is always one a replay took.

import { roundHalfAwayFromZero } from "../support/index.js";

function checkPercentile(p: number): void {
  if (!Number.isFinite(p) || p < 0 || p > 100) {
    throw new RangeError(`nearestRank: p must be a number from 0 to 100, got ${String(p)}`);
  }
}

/** The finite numbers of `values`, ascending. */
function sortedFinite(values: Iterable<number | null | undefined>): Float64Array {
  const finite: number[] = [];
  for (const value of values) {
    if (typeof value === "number" && Number.isFinite(value)) finite.push(value);
  }
  return Float64Array.from(finite).sort();
}

function atRank(sorted: Float64Array, p: number): number | null {
  if (sorted.length === 0) return null;
  // p = 0 would give rank 0; the smallest value is the only sensible answer there. Rounded before
  // ceil, as the bootstrap's ranks are: (7 / 100) × 100 is 7.000000000000001 in binary floats.
  const rank = Math.max(1, Math.ceil(roundHalfAwayFromZero((p * sorted.length) / 100, 9)));
  return sorted[Math.min(rank, sorted.length) - 1];
}

/**
 * The `p`th percentile (0-100) of the finite numbers in `values` by nearest rank, or null
 * when there are none. Nulls, undefined and non-finite values are ignored.
 */
export function nearestRank(values: Iterable<number | null | undefined>, p: number): number | null {
  checkPercentile(p);
  return atRank(sortedFinite(values), p);
}

/** nearestRank for several percentiles of the same values, sorting them once (a summary's p50 and p95). */
export function nearestRanks(values: Iterable<number | null | undefined>, ps: readonly number[]): (number | null)[] {
  ps.forEach(checkPercentile);
  const sorted = sortedFinite(values);
  return ps.map((p) => atRank(sorted, p));
}
