// The few Ruby/ActiveSupport text behaviours the judge's prompts depend on
// (reference-core §0): blank, truncate, humanize, and how Ruby prints a number.

/** nil, empty or whitespace-only strings are blank (ActiveSupport `blank?` on text). */
export function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/**
 * ActiveSupport `truncate(n)`: longer than `n` characters keeps the first `n - 3` and
 * appends `...`, exactly `n` characters in all. Counts code points, not UTF-16 units.
 */
export function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text; // code points never outnumber UTF-16 units
  // More than 2n units is surely more than n characters: only the head needs splitting.
  const whole = text.length <= limit * 2;
  const points = Array.from(whole ? text : text.slice(0, limit * 2));
  if (whole && points.length <= limit) return text;
  return `${points.slice(0, limit - 3).join("")}...`;
}

/** ActiveSupport `humanize`: `response_length` -> `Response length`. */
export function humanize(key: string): string {
  const words = key.replace(/_id$/, "").replace(/_/g, " ").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * How Ruby prints a Float (`Float#to_s`): always a decimal point (`100.0`), exponent form
 * below 1e-4 and from 1e16 up (`1.0e-05`). The verdict prompt prints raw Ruby numbers.
 */
export function rubyFloat(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const magnitude = Math.abs(value);
  if (magnitude < 1e-4 || magnitude >= 1e16) {
    const [mantissa, exponent] = value.toExponential().split("e");
    const digits = exponent.replace(/^[+-]/, "").padStart(2, "0");
    return `${mantissa.includes(".") ? mantissa : `${mantissa}.0`}e${exponent.startsWith("-") ? "-" : "+"}${digits}`;
  }
  const text = String(value);
  return text.includes(".") ? text : `${text}.0`;
}

/** How Ruby prints an Integer: no decimal point. A non-integer falls back to Float form. */
export function rubyInteger(value: number): string {
  return Number.isInteger(value) ? String(value) : rubyFloat(value);
}
