// Errors with codes (DESIGN.md conventions): a DomainError's code (or any error carrying one of
// the domain codes) becomes `extensions.code` in GraphQL and an HTTP status on REST. Anything
// else is an internal error whose message is not shown (it may hold connection strings).
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { ZodError } from "zod";

export type ApiErrorCode = "VALIDATION" | "NOT_FOUND" | "CONFLICT" | "FORBIDDEN" | "UNAUTHENTICATED" | "UNAVAILABLE" | "PAYLOAD_TOO_LARGE";

const DOMAIN_CODES: Record<string, ApiErrorCode> = {
  validation: "VALIDATION",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  forbidden: "FORBIDDEN",
  unavailable: "UNAVAILABLE",
  unauthenticated: "UNAUTHENTICATED",
};

export const HTTP_STATUS: Record<ApiErrorCode, number> = {
  VALIDATION: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  FORBIDDEN: 403,
  UNAUTHENTICATED: 401,
  UNAVAILABLE: 503,
  PAYLOAD_TOO_LARGE: 413,
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
}

/** The code, message and field an error is shown with, or null for an internal error. */
export function classify(error: unknown): ClassifiedError | null {
  if (error instanceof ApiError) return { code: error.apiCode, message: error.message, field: error.field };
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    const field = issue?.path.join(".") || undefined;
    return { code: "VALIDATION", message: field ? `${field}: ${issue.message}` : (issue?.message ?? "invalid input"), field };
  }
  if (error instanceof Error) {
    const { code, field } = error as Error & { code?: unknown; field?: unknown };
    if (typeof code === "string" && DOMAIN_CODES[code]) {
      return { code: DOMAIN_CODES[code], message: error.message, field: typeof field === "string" ? field : undefined };
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
      extensions: { code: known.code, ...(known.field ? { field: known.field } : {}) },
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
 * formatError for one transport ("GraphQL" over HTTP, "graphql-ws"), logging the cause of every
 * internal error as the client gets `internal error` (README: the cause goes to the server's
 * log). Only the error is logged, with the field it was raised at: never the request, whose
 * headers and connection params hold the caller's API key.
 */
export function loggingFormatError(log: ErrorLog, transport: string): (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError {
  return (formatted, error) =>
    formatError(formatted, error, (cause) => {
      const at = formatted.path?.length ? ` at ${formatted.path.join(".")}` : "";
      log(`${transport} operation failed${at} (answered "internal error")`, cause);
    });
}

/** An error as the log shows it: its stack (which starts with its name and message), or its text. */
export function errorDetail(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
