// A replay handed over by a host that does not have the shape of a Replay. The message names
// the field and the rule broken, as every edge error does (DESIGN.md conventions).
export class ReplayError extends Error {
  readonly code = "validation" as const;
  readonly field: string;

  constructor(field: string, rule: string) {
    super(`replay.${field}: ${rule}`);
    this.name = "ReplayError";
    this.field = field;
  }
}

/** A given value as an error message names it: the start of a string, a number itself, else its type. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return `the number ${value}`;
  return typeof value === "string" ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}
