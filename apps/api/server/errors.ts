// Errors with codes (DESIGN.md conventions): a DomainError's code (or any error carrying one of
// the domain codes) becomes `extensions.code` in GraphQL and an HTTP status on REST. Anything
// else is an internal error whose message is not shown (it may hold connection strings). A
// database that cannot be reached (a connection lost or not opened) or that did not answer by
// the query deadline (VERDICT_PG_QUERY_TIMEOUT_MS) is UNAVAILABLE (503), told without the
// database's address; the server's log names it, the same failure once per 30 s while it lasts
// (a statement the server cancelled at the deadline: once per 30 s for each field or route).
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { RepeatLimiter } from "@verdict/infra/logging";
import { errorCauseText, isConnectionLoss, queryTimeoutOf } from "@verdict/infra/pg";
import { ZodError } from "zod";
import { EXECUTION_DISABLED_MESSAGE, isPlanLimitError, PLAN_LIMIT_MESSAGE } from "@verdict/domain";

export type ApiErrorCode =
  | "VALIDATION" | "NOT_FOUND" | "CONFLICT" | "FORBIDDEN" | "UNAUTHENTICATED" | "UNAVAILABLE" | "PAYLOAD_TOO_LARGE"
  | "PLAN_LIMIT_REACHED" | "REPORT_LIMIT_REACHED" | "EXECUTION_DISABLED";

const DOMAIN_CODES: Record<string, ApiErrorCode> = {
  validation: "VALIDATION",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  forbidden: "FORBIDDEN",
  unavailable: "UNAVAILABLE",
  unauthenticated: "UNAUTHENTICATED",
  plan_limit_reached: "PLAN_LIMIT_REACHED",
  report_limit_reached: "REPORT_LIMIT_REACHED",
  execution_disabled: "EXECUTION_DISABLED",
};

export const HTTP_STATUS: Record<ApiErrorCode, number> = {
  VALIDATION: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  FORBIDDEN: 403,
  UNAUTHENTICATED: 401,
  UNAVAILABLE: 503,
  PAYLOAD_TOO_LARGE: 413,
  // A plan's refusals (reference-platform #38, §3 rules 18-20): executions past the month's
  // quota 402 (an upgrade helps), imported reports past theirs 429, execution switched off 403.
  PLAN_LIMIT_REACHED: 402,
  REPORT_LIMIT_REACHED: 429,
  EXECUTION_DISABLED: 403,
};

/** An error the API raises itself (authentication, access, bad query parameters). */
export class ApiError extends Error {
  constructor(
    readonly apiCode: ApiErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * A GraphQL-shaped error answered before Apollo sees the request (the body limit, bad JSON, too
 * deep a document, a persisted query): the status its code maps to, `errors[0]` as Apollo words one.
 */
export function sendGraphQLError(res: { status(code: number): { json(body: unknown): unknown } }, code: ApiErrorCode, message: string, field?: string): void {
  res.status(HTTP_STATUS[code]).json({ errors: [{ message, extensions: field === undefined ? { code } : { code, field } }] });
}

/** An id is named in a message up to ID_SHOWN characters: a 1.5 MB "id" came back whole. */
const ID_SHOWN = 200;

/**
 * Control and format characters (a NUL, a terminal's escape sequence, a right-to-left override)
 * and unpaired surrogates: a 404 echoed a path's `%00` back as `run \u0000 not found`.
 */
const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;

/**
 * An id (or key, or label) a caller sent, as a message names it: its first ID_SHOWN characters,
 * each character a log or terminal could misread replaced by U+FFFD, and its length when cut.
 */
export function shownId(id: string): string {
  const cut = id.length > ID_SHOWN;
  const shown = (cut ? id.slice(0, ID_SHOWN) : id).replace(UNSHOWABLE, "\uFFFD");
  return cut ? `${shown}… (${id.length} characters)` : shown;
}

export function notFound(what: string, id: string, field = "id"): ApiError {
  return new ApiError("NOT_FOUND", `${what} ${shownId(id)} not found`, field);
}

interface ClassifiedError {
  code: ApiErrorCode;
  message: string;
  field?: string;
  /** Told beside the code (GraphQL extensions, a REST body): a plan refusal's host fields. */
  details?: Record<string, unknown>;
}

/**
 * What a plan refusal tells the caller beside its code, the reference's host fields:
 * `{ error: "Plan limit reached", upgrade_required: true, kind, limit, used, requested }`, or
 * `{ error: "Agent execution is disabled on this dashboard" }`.
 */
function planDetails(error: Error, code: ApiErrorCode): Record<string, unknown> | undefined {
  if (isPlanLimitError(error)) return { error: PLAN_LIMIT_MESSAGE, upgrade_required: true, ...error.details };
  if (code === "EXECUTION_DISABLED") return { error: EXECUTION_DISABLED_MESSAGE };
  return undefined;
}

/** A write may have been recorded before the answer was lost. */
const READ_IT_BACK = "try again later (a change this asked for may have been recorded: read it back before sending it again)";

/**
 * What a client is told when the database did not answer by the query deadline (`queryTimeoutMs`),
 * cancelled the query at the deadline (`byServer`: the database is reachable, the query ran too
 * long, so trying again later is not promised to help), or cannot be reached (null): never where
 * the database is.
 */
function databaseUnavailableMessage(queryTimeoutMs: number | null, byServer: boolean): string {
  if (queryTimeoutMs === null) return `the database cannot be reached; ${READ_IT_BACK}`;
  if (byServer) return `the query ran past the database's deadline of ${queryTimeoutMs} ms and was cancelled`;
  return `the database did not answer within ${queryTimeoutMs} ms; ${READ_IT_BACK}`;
}

interface DatabaseUnavailable {
  /** What the log says: the deadline's words (which name the database), or the error's own. */
  said: string;
  /** Failures alike (same code, same words) are logged once per 30 s; a different one still is. */
  key: string;
  queryTimeoutMs: number | null;
  /** The server cancelled the statement (57014): logged for each field or route it happens at. */
  byServer: boolean;
}

/** A database out of reach or past the query deadline, or null for neither. */
function databaseUnavailable(error: unknown): DatabaseUnavailable | null {
  const timeout = queryTimeoutOf(error);
  if (timeout) return { said: timeout.queryTimeout, key: timeout.queryTimeout, queryTimeoutMs: timeout.queryTimeoutMs, byServer: timeout.byServer };
  if (!isConnectionLoss(error)) return null;
  // knex puts the failed SQL, with its parameters, in front: only the error's own words are shown.
  const said = errorCauseText(error);
  const code = (error as { code?: unknown }).code;
  return { said, key: `${typeof code === "string" ? code : ""} ${said}`, queryTimeoutMs: null, byServer: false };
}

/** The code, message and field an error is shown with, or null for an internal error. */
export function classify(error: unknown): ClassifiedError | null {
  if (error instanceof ApiError) return { code: error.apiCode, message: error.message, field: error.field };
  const unavailable = databaseUnavailable(error);
  if (unavailable) return { code: "UNAVAILABLE", message: databaseUnavailableMessage(unavailable.queryTimeoutMs, unavailable.byServer) };
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    const field = issue?.path.join(".") || undefined;
    return { code: "VALIDATION", message: field ? `${field}: ${issue.message}` : (issue?.message ?? "invalid input"), field };
  }
  if (error instanceof Error) {
    const { code, field } = error as Error & { code?: unknown; field?: unknown };
    if (typeof code === "string" && DOMAIN_CODES[code]) {
      const details = planDetails(error, DOMAIN_CODES[code]);
      return { code: DOMAIN_CODES[code], message: error.message, field: typeof field === "string" ? field : undefined, ...(details ? { details } : {}) };
    }
  }
  return null;
}

/** The error a resolver threw, under GraphQL's wrapping (located errors wrap their cause). */
function unwrap(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  return current;
}

function isUncodedClientError(original: unknown, code: unknown): boolean {
  if (!(original instanceof GraphQLError) || (code !== undefined && code !== "INTERNAL_SERVER_ERROR")) return false;
  const status = (original.extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

/**
 * Apollo's formatError: domain codes in `extensions.code`, internal errors without detail.
 * `onInternal` is given the cause of an internal error (what the client is not shown), once.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown, onInternal?: (cause: unknown) => void): GraphQLFormattedError {
  const original = unwrap(error);
  const known = classify(original);
  if (known) {
    return {
      message: known.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: known.code, ...(known.field ? { field: known.field } : {}), ...known.details },
    };
  }
  const code = formatted.extensions?.code;
  if (isUncodedClientError(original, code)) {
    // Apollo's client errors that carry a 400 but no code would read as INTERNAL_SERVER_ERROR.
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: "VALIDATION" } };
  }
  // GraphQL's own errors (syntax, validation, bad variables) keep their message and code.
  if (original instanceof GraphQLError || (typeof code === "string" && code !== "INTERNAL_SERVER_ERROR")) return formatted;
  onInternal?.(original);
  return { message: "internal error", locations: formatted.locations, path: formatted.path, extensions: { code: "INTERNAL_SERVER_ERROR" } };
}

/** Where the server's log messages go: a message, and the error it is about. */
type ErrorLog = (message: string, error?: unknown) => void;

/**
 * Logs a database that did not answer by the query deadline (in the deadline's own words, which
 * name the database) or could not be reached, with `what` failed: once, then the same at most
 * every 30 s with how often it repeated (every request fails alike while the database is gone).
 * False when `error` is neither.
 */
export function loggedDatabaseUnavailable(limiter: RepeatLimiter, log: ErrorLog, what: string, error: unknown): boolean {
  const unavailable = databaseUnavailable(unwrap(error));
  if (!unavailable) return false;
  const line = `${what} (answered UNAVAILABLE): ${unavailable.said}`;
  // A statement the server cancelled is one query's doing, not the database's: each field or route is told.
  const passed = limiter.pass(line, unavailable.byServer ? line : unavailable.key);
  if (passed !== null) log(passed);
  return true;
}

/**
 * formatError for one transport ("GraphQL" over HTTP, "graphql-ws"), logging the cause of every
 * internal error as the client gets `internal error` (README: the cause goes to the server's
 * log), and a database unavailable as loggedDatabaseUnavailable does. Only the error is logged, with the
 * field it was raised at: never the request, whose headers and connection params hold the
 * caller's API key.
 */
export function loggingFormatError(log: ErrorLog, transport: string, databaseLines = new RepeatLimiter()): (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError {
  return (formatted, error) => {
    const at = formatted.path?.length ? ` at ${formatted.path.join(".")}` : "";
    loggedDatabaseUnavailable(databaseLines, log, `${transport} operation failed${at}`, error);
    return formatError(formatted, error, (cause) => {
      log(`${transport} operation failed${at} (answered "internal error")`, cause);
    });
  };
}

/** An error as the log shows it: its stack (which starts with its name and message), or its text. */
export function errorDetail(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
