// Rounding as the reference library does it (Ruby Float#round): half away from zero.
// Binary floats put many "halves" a hair below .5 (1.005 is 1.00499999...), so the scaled
// value is first cut to 9 decimals, the way Format does it, before rounding.

/** Rounds `value` to `digits` decimals, half away from zero; never returns -0. */
export function roundHalfAway(value: number, digits = 0): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  const scaled = Number((Math.abs(value) * factor).toFixed(9));
  const rounded = Math.floor(scaled + 0.5) / factor;
  if (rounded === 0) return 0;
  return value < 0 ? -rounded : rounded;
}
