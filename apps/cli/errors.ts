// Exit codes of the `verdict` command and the error that carries one. A usage or input error
// (bad flag, unreadable file, invalid YAML) is 2; a run that failed or missed its gate is 1; an
// input at odds with what is stored (a run_id imported before with another report, read models
// of another event log or ahead of this one) is 3; a database or API that cannot be used (unreachable, login refused,
// an API that does not answer, or not in GraphQL) is 4, so a script can tell "try again later"
// from "the agent failed"; an API that refuses VERDICT_API_KEY (unknown, revoked, read-only) is 5.
import { ReadModelsAheadOfLogError, ReadModelsOfAnotherLogError } from "@verdict/projector";

export const EXIT = { ok: 0, failed: 1, usage: 2, conflict: 3, unavailable: 4, keyRefused: 5 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.usage,
  ) {
    super(message);
  }
}

/**
 * The embedded home is held by another verdict process: about the home, not about any input, so
 * a command that names its input in every refusal (evals import: `FILE: …`) passes it on as it is.
 */
export class HomeInUseRefusal extends CliError {}

/** Something asked for by name that this store does not hold (exit 2, as any bad input). */
export class NotFoundError extends CliError {}

/** A CLI, domain or API "not found": the one kind of refusal an empty or mistyped home explains. */
export function isNotFound(error: unknown): boolean {
  if (error instanceof NotFoundError) return true;
  return (error as { code?: unknown } | null)?.code === "not_found" || (error as { apiCode?: unknown } | null)?.apiCode === "NOT_FOUND";
}

/** Errors the domain and infra raise for bad input carry `code: "validation" | "not_found"`. */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof ReadModelsOfAnotherLogError || error instanceof ReadModelsAheadOfLogError) return EXIT.conflict;
  const code = (error as { code?: unknown } | null)?.code;
  const apiCode = (error as { apiCode?: unknown } | null)?.apiCode;
  if (apiCode === "NOT_FOUND" || apiCode === "VALIDATION") return EXIT.usage;
  if (code === "validation" || code === "not_found" || code === "ENOENT" || code === "EISDIR") return EXIT.usage;
  if (code === "conflict" || apiCode === "CONFLICT") return EXIT.conflict;
  return EXIT.failed;
}
