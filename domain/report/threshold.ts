// The pass threshold a Runner or a Report is given: a share from 0 to 1 (70 would render "≥ 7000%"
// and fail every answer; NaN would pass every one). A threshold rebuilt from a report the
// platform stored (Report.fromStoredJSON) need only be a number: the report shows what it
// recorded (imports before session 27 took any finite one).

/** Throws, naming `owner`, unless `threshold` is a share from 0 to 1 (any finite number when stored). */
export function checkThreshold(owner: string, threshold: unknown, recorded = false): void {
  if (typeof threshold !== "number" || !Number.isFinite(threshold)) {
    // Text is quoted: `got 0.7` for "0.7" hid that the value was a string.
    const given = typeof threshold === "string" ? `the text ${JSON.stringify(threshold)}` : String(threshold);
    throw new TypeError(`${owner}: threshold must be a number${recorded ? "" : " from 0 to 1"}, got ${given}`);
  }
  if (!recorded && !(threshold >= 0 && threshold <= 1)) throw new RangeError(`${owner}: threshold must be a number from 0 to 1, got ${String(threshold)}`);
}
