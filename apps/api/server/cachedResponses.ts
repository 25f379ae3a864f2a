// Wiring of ResponseCache into the HTTP path: an express middleware in front of Apollo that
// answers a kept query after authenticating the caller (the key is per tenant), an Apollo plugin
// that marks an answer worth keeping when the request qualified (see responseCache.ts), and
// Apollo's stringifyResult, which keeps the marked answer's JSON as it writes it (once). A kept
// answer goes out gzipped (compressed once when kept) to clients that accept it: a 3,000-result
// answer is ~250 KB of JSON and ~9 KB gzipped, cheaper to write for the server and, even on
// localhost, no dearer for the client to inflate than to read in full from the socket.
import type { NextFunction, Request, Response } from "express";
import type { ApolloServerPlugin } from "@apollo/server";
import type { GraphQLSchema } from "graphql";
import type { ApiPrincipal } from "../auth/apiKeys.js";
import { authenticate, type ApiContext, type ApiDeps } from "./context.js";
import { acceptsGzip } from "./acceptsGzip.js";
import { allTerminal, isRunOnlyQuery, JSON_CONTENT_TYPE, ResponseCache, responseCacheKey, type KeptAnswer, type ResponseCacheTrace } from "./responseCache.js";

interface AuthenticatedRequest extends Request {
  /** Set by the middleware so Apollo's context does not verify the key a second time. */
  verdictPrincipal?: ApiPrincipal;
}

export interface ResponseCaching {
  /** Before Apollo: sends a kept answer, or passes on (an unauthenticated caller gets Apollo's 401 as before). */
  serve(req: Request, res: Response, next: NextFunction): Promise<void>;
  /** For Apollo's context: the principal and, when the request may be kept, its trace. */
  principalAndTrace(req: Request): Promise<{ principal: ApiPrincipal; trace?: ResponseCacheTrace }>;
  plugin: ApolloServerPlugin<ApiContext>;
  /** Apollo's stringifyResult: JSON as Apollo writes it, kept when the plugin marked the answer. */
  stringifyResult(value: { data?: unknown }): string;
}

/** A kept answer, gzipped when it was worth compressing and the client accepts gzip. */
function sendKept(res: Response, answer: KeptAnswer, gzipOk: boolean): void {
  if (answer.gzip === null) {
    res.writeHead(200, { "content-type": JSON_CONTENT_TYPE, "content-length": answer.body.length });
    res.end(answer.body);
    return;
  }
  // Vary: the same URL and body answer differently by Accept-Encoding, so a shared cache must key on it.
  // Added to what is there (CORS's Origin), not written over it.
  const gzip = gzipOk ? answer.gzip : null;
  res.vary("accept-encoding");
  res.writeHead(200, gzip
    ? { "content-type": JSON_CONTENT_TYPE, "content-encoding": "gzip", "content-length": gzip.length }
    : { "content-type": JSON_CONTENT_TYPE, "content-length": answer.body.length });
  res.end(gzip ?? answer.body);
}

function keyOf(principal: ApiPrincipal, req: Request): string | null {
  return req.method === "POST" ? responseCacheKey(principal.tenant, req.body, req.headers.accept) : null;
}

export function responseCaching(deps: ApiDeps, schema: GraphQLSchema, cache: ResponseCache): ResponseCaching {
  // An answer's `data` object -> its key and the cache's generation when its request began, from
  // willSendResponse to stringifyResult (same object).
  const marked = new WeakMap<object, { key: string; generation: number }>();
  return {
    async serve(req: AuthenticatedRequest, res, next) {
      if (req.method !== "POST" || cache.size === 0) return next();
      let principal: ApiPrincipal;
      try {
        principal = await authenticate(deps.apiKeys, req.headers.authorization);
      } catch {
        return next();
      }
      req.verdictPrincipal = principal;
      const key = keyOf(principal, req);
      const found = key === null ? undefined : cache.get(key);
      if (found === undefined) return next();
      sendKept(res, found, acceptsGzip(req.headers["accept-encoding"]));
    },

    async principalAndTrace(req: AuthenticatedRequest) {
      const principal = req.verdictPrincipal ?? (await authenticate(deps.apiKeys, req.headers.authorization));
      const key = cache.fits(1) ? keyOf(principal, req) : null;
      return key === null ? { principal } : { principal, trace: { key, statuses: [], generation: cache.generation } };
    },

    plugin: {
      async requestDidStart({ contextValue }) {
        const trace = contextValue.responseTrace;
        if (!trace) return;
        return {
          async willSendResponse({ response, document, operation }) {
            if (response.body.kind !== "single" || !document || !operation) return;
            const { errors, data } = response.body.singleResult;
            if (errors?.length || !data || (response.http.status ?? 200) !== 200) return;
            if (!allTerminal(trace) || !isRunOnlyQuery(schema, document, operation)) return;
            if ([...response.http.headers.keys()].length > 0) return; // only answers with no extra headers are replayable as is
            marked.set(data, { key: trace.key, generation: trace.generation });
          },
        };
      },
    },

    stringifyResult(value) {
      const text = JSON.stringify(value) + "\n"; // what Apollo's default (prettyJSONStringify) writes
      const kept = value.data && typeof value.data === "object" ? marked.get(value.data) : undefined;
      if (kept !== undefined) cache.set(kept.key, text, kept.generation);
      return text;
    },
  };
}
