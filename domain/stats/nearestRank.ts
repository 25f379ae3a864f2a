// Percentiles by nearest rank (guide, "Comparing models"): the value at rank
// ceil(p / 100 × n) of the ascending values, so the figure is always one a replay took.

/**
 * The `p`th percentile (0-100) of the finite numbers in `values` by nearest rank, or null
 * when there are none. Nulls, undefined and non-finite values are ignored.
 */
export function nearestRank(values: Iterable<number | null | undefined>, p: number): number | null {
  if (!Number.isFinite(p) || p < 0 || p > 100) {
    throw new RangeError(`nearestRank: p must be a number from 0 to 100, got ${String(p)}`);
  }
  const finite: number[] = [];
  for (const value of values) {
    if (typeof value === "number" && Number.isFinite(value)) finite.push(value);
  }
  if (finite.length === 0) return null;
  const sorted = Float64Array.from(finite).sort();
  // p = 0 would give rank 0; the smallest value is the only sensible answer there.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}
