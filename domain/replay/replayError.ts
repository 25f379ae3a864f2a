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
