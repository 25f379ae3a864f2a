// Wiring of ResponseCache into the HTTP path: an express middleware in front of Apollo that
// answers a kept query after authenticating the caller (the key is per tenant), and an Apollo
// plugin that keeps an answer when the request qualified (see responseCache.ts).
import type { NextFunction, Request, Response } from "express";
import type { ApolloServerPlugin } from "@apollo/server";
import type { GraphQLSchema } from "graphql";
import type { ApiPrincipal } from "../auth/apiKeys.js";
import { authenticate, type ApiContext, type ApiDeps } from "./context.js";
import { allTerminal, isRunOnlyQuery, JSON_CONTENT_TYPE, ResponseCache, responseCacheKey, type ResponseCacheTrace } from "./responseCache.js";

interface AuthenticatedRequest extends Request {
  /** Set by the middleware so Apollo's context does not verify the key a second time. */
  verdictPrincipal?: ApiPrincipal;
}

function keyOf(principal: ApiPrincipal, req: Request): string | null {
  return req.method === "POST" ? responseCacheKey(principal.tenant, req.body, req.headers.accept) : null;
}

/** Sends a kept answer, or passes on (an unauthenticated caller gets Apollo's 401 as before). */
export function serveCachedResponses(deps: ApiDeps, cache: ResponseCache) {
  return async (req: AuthenticatedRequest, res: Response, next: NextFunction): Promise<void> => {
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
    res.status(200).setHeader("content-type", JSON_CONTENT_TYPE);
    res.end(found);
  };
}

/** The principal and, when the request may be kept, its trace, for Apollo's context. */
export async function principalAndTrace(deps: ApiDeps, req: AuthenticatedRequest): Promise<{ principal: ApiPrincipal; trace?: ResponseCacheTrace }> {
  const principal = req.verdictPrincipal ?? (await authenticate(deps.apiKeys, req.headers.authorization));
  const key = keyOf(principal, req);
  return key === null ? { principal } : { principal, trace: { key, statuses: [] } };
}

/** Keeps the serialized answer (as Apollo writes it) when it qualifies. */
export function responseCachePlugin(schema: GraphQLSchema, cache: ResponseCache): ApolloServerPlugin<ApiContext> {
  return {
    async requestDidStart({ contextValue }) {
      const trace = contextValue.responseTrace;
      if (!trace) return;
      return {
        async willSendResponse({ response, document, operation }) {
          if (response.body.kind !== "single" || !document || !operation) return;
          const { errors, data, extensions } = response.body.singleResult;
          if (errors?.length || !data || (response.http.status ?? 200) !== 200) return;
          if (!allTerminal(trace) || !isRunOnlyQuery(schema, document, operation)) return;
          if ([...response.http.headers.keys()].length > 0) return; // only answers with no extra headers are replayable as is
          cache.set(trace.key, JSON.stringify({ errors, data, extensions }) + "\n");
        },
      };
    },
  };
}
