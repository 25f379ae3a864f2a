// The one error type deciders and event validation throw. `code` is what the API maps to
// GraphQL error extensions and HTTP statuses (DESIGN.md conventions), `field` names the input
// path that broke a rule so a caller can point at it.

export type DomainErrorCode =
  | "validation" | "not_found" | "conflict" | "forbidden" | "unavailable"
  // A plan's refusals (domain/commands/usage/plan.ts): the API answers them 402, 429 and 403.
  | "plan_limit_reached" | "report_limit_reached" | "execution_disabled";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }

  static validation(message: string, field?: string): DomainError {
    return new DomainError("validation", message, field);
  }

  static notFound(message: string, field?: string): DomainError {
    return new DomainError("not_found", message, field);
  }

  static conflict(message: string, field?: string): DomainError {
    return new DomainError("conflict", message, field);
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
