// A result the run's contract refuses (reference-platform §3 rule 2): one for a pair outside the
// run's selection ("unknown"), or a second, different one for a pair already recorded
// ("duplicate"). An external run fails for it (recordExternalReplay.ts); a worker never sends one.
import { DomainError, type DomainErrorCode } from "../../events/domainError.js";

export type PairProblem = "unknown" | "duplicate";

export class PairRefused extends DomainError {
  constructor(
    code: DomainErrorCode,
    message: string,
    field: string,
    readonly problem: PairProblem,
    readonly scenarioKey: string,
    readonly modelLabel: string,
  ) {
    super(code, message, field);
    this.name = "PairRefused";
  }
}

export function isPairRefused(error: unknown): error is PairRefused {
  return error instanceof PairRefused;
}
