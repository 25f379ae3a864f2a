// Ruby Float#round(n): half away from zero, with Ruby's correction step so a value printed as
// 2.675 rounds to 2.68 (a plain `Math.round(x * 100) / 100` gives 2.67 on the binary value).

export function roundHalfAwayFromZero(value: number, digits = 0): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const sign = value < 0 ? -1 : 1;
  const magnitude = Math.abs(value);
  if (digits <= 0) {
    const scale = 10 ** -digits;
    return (sign * Math.round(magnitude / scale)) * scale;
  }
  const scale = 10 ** digits;
  let whole = Math.round(magnitude * scale);
  // float.c round_half_up: the scaled product may sit just under .5; check against the input.
  if ((whole + 0.5) / scale <= magnitude) whole += 1;
  return (sign * whole) / scale;
}

/** Ruby Float#to_s: `100.0`, `33.3`, `1.0e-05`, `1.0e+16`. Integers pass `asFloat: false`. */
export function rubyNumber(value: number, { asFloat = true } = {}): string {
  if (!asFloat && Number.isInteger(value)) return String(value);
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  const magnitude = Math.abs(value);
  if (value !== 0 && (magnitude < 1e-4 || magnitude >= 1e16)) return rubyExponent(value);
  const text = String(value);
  return text.includes(".") ? text : `${text}.0`;
}

function rubyExponent(value: number): string {
  const [mantissa, exponent] = value.toExponential().split("e");
  const digits = mantissa.includes(".") ? mantissa : `${mantissa}.0`;
  const sign = exponent.startsWith("-") ? "-" : "+";
  const power = exponent.replace(/^[+-]/, "").padStart(2, "0");
  return `${digits}e${sign}${power}`;
}
