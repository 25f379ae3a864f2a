// Automatic persisted queries (APQ) are off. Apollo keeps one APQ cache per process, keyed by the
// query's hash alone, whoever sent it: a tenant could ask for a hash and learn whether another
// tenant had sent that exact query text (found, or PERSISTED_QUERY_NOT_FOUND), and fill the
// cache to evict theirs. Nothing here ever promised APQ, so rather than key it by tenant, a
// request naming extensions.persistedQuery is refused as the client's mistake (400 VALIDATION)
// before the response cache or Apollo sees it: Apollo's own `persistedQueries: false` answer is
// a 200 with a code of its own, and a kept answer would have been sent to it regardless.
import type { NextFunction, Request, Response } from "express";
import { sendGraphQLError } from "./errors.js";

const PERSISTED_QUERY_REFUSED =
  "extensions.persistedQuery: persisted queries are not supported; send the operation's text in `query`, without extensions.persistedQuery";

/** GET's `extensions` parameter as Apollo reads it (JSON text), or undefined when it is not one. */
function getExtensions(value: unknown): unknown {
  if (typeof value !== "string") return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined; // Apollo answers a parameter that is not JSON itself
  }
}

/**
 * Whether the request carries extensions.persistedQuery (a POST body's, or GET's `extensions`),
 * by Apollo's test: any value it would have taken for one (a falsy one it ignores, and so do we).
 */
function namesPersistedQuery(req: Request): boolean {
  const extensions = req.method === "GET" ? getExtensions(req.query.extensions) : (req.body as { extensions?: unknown } | undefined)?.extensions;
  return typeof extensions === "object" && extensions !== null && Boolean((extensions as { persistedQuery?: unknown }).persistedQuery);
}

/** Express middleware in front of /graphql: 400 VALIDATION naming extensions.persistedQuery. */
export function refusePersistedQueries(req: Request, res: Response, next: NextFunction): void {
  if (!namesPersistedQuery(req)) return next();
  sendGraphQLError(res, "VALIDATION", PERSISTED_QUERY_REFUSED, "extensions.persistedQuery");
}
