// The API's HTTP routes on its express app: the probes /healthz and /readyz (no key), GraphQL at
// /graphql (the body checked, persisted queries refused, a cached answer or Apollo), the REST
// reports and usage under /api, both authenticated by API key, any other path a 404 naming them,
// and every error answered in the shape of the route that was asked.
import type { ApolloServer } from "@apollo/server";
import { expressMiddleware } from "@as-integrations/express5";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { GraphQLError } from "graphql";
import { healthRouter } from "../rest/healthRoutes.js";
import { reportRouter } from "../rest/reportRoutes.js";
import { usageRouter } from "../rest/usageRoute.js";
import { authenticate, type ApiContext } from "./context.js";
import { ApiError, classify, HTTP_STATUS, loggedDatabaseUnavailable, sendGraphQLError } from "./errors.js";
import { refusePersistedQueries } from "./persistedQueries.js";
import { depthMessage, tooDeep } from "./jsonDepth.js";
import { refuseBodyNotUtf8 } from "./utf8Body.js";
import type { ServingParts } from "./servingParts.js";

/** What an unknown path is told: every route there is, and how a run_id holding "/" is written in a path. */
const ROUTES_TOLD = "GraphQL is at /graphql, reports are under /api/evaluations/:id/runs/:runId/report[.md|.json] and /api/evaluation_reports/:run_id (a run_id holding \"/\" URL-encoded: gh%2F1234%2F1), the plan's meters at /api/usage, liveness at /healthz and readiness at /readyz (no API key)";

export function mountHttpRoutes(app: Express, parts: ServingParts, apollo: ApolloServer<ApiContext>): void {
  const { limits, deps, log, databaseLines, caching, newContext } = parts;
  app.use(healthRouter(parts.readiness));
  app.use("/graphql", express.json({ limit: limits.bodyLimit, verify: refuseBodyNotUtf8 }), (req: Request, res: Response, next: NextFunction) => {
    const path = tooDeep(req.body);
    if (path === null) return next();
    sendGraphQLError(res, "VALIDATION", depthMessage(path), path);
  }, refusePersistedQueries, (_req: Request, _res: Response, next: NextFunction) => {
    parts.checkRebuilds().then(() => next(), next);
  }, caching.serve, expressMiddleware(apollo, {
    context: async ({ req }) => {
      try {
        const { principal, trace } = await caching.principalAndTrace(req);
        const context = { ...newContext(principal), responseTrace: trace };
        // What its heavy fields took from the process's pool is held until the answer is written
        // (or the client went away). A client gone while its key was checked closed the response
        // already: 'close' will not fire again, so the budget is released now and takes nothing.
        if (!req.res || req.res.closed) context.answerBudget.release();
        else req.res.once("close", () => context.answerBudget.release());
        return context;
      } catch (error) {
        // Only a refused key is a 401; a key store whose database cannot be reached or did not
        // answer by the query deadline is a 503; anything else failed on our side and is not the caller's key.
        const unavailable = classify(error);
        if (unavailable && loggedDatabaseUnavailable(databaseLines, log, "GraphQL request failed checking the API key", error)) {
          throw new GraphQLError(unavailable.message, { extensions: { code: unavailable.code, http: { status: HTTP_STATUS[unavailable.code] } } });
        }
        if (!(error instanceof ApiError) || error.apiCode !== "UNAUTHENTICATED") throw error;
        throw new GraphQLError(error.message, { extensions: { code: "UNAUTHENTICATED", http: { status: 401 } } });
      }
    },
  }));
  app.use("/api", async (req: Request, _res: Response, next: NextFunction) => {
    try {
      await parts.checkRebuilds();
      (req as unknown as { api?: ApiContext }).api = newContext(await authenticate(deps.apiKeys, req.headers.authorization));
      next();
    } catch (error) {
      next(error);
    }
  }, reportRouter(), usageRouter(), notFound);
  // Any other path (a probe set to /health): the same list, without a key, where express answered an HTML "Cannot GET".
  app.use(notFound);
  app.use(answerHttpError(parts));
}

function notFound(req: Request, res: Response): void {
  res.status(404).json({ error: `no route ${req.method} ${req.baseUrl}${req.path}; ${ROUTES_TOLD}`, code: "NOT_FOUND" });
}

/** Express's error handler: a request's error answered in the shape of the route that was asked, an internal one logged and withheld. */
function answerHttpError({ limits, log, databaseLines }: ServingParts) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const typed = error as { type?: string; status?: number; expose?: boolean; message?: string };
    if (typed.type === "entity.too.large") {
      sendGraphQLError(res, "PAYLOAD_TOO_LARGE", `request body is over the ${limits.bodyLimit} limit`);
      return;
    }
    if (typed.type === "entity.parse.failed") {
      sendGraphQLError(res, "VALIDATION", "request body is not valid JSON");
      return;
    }
    // Express's and body-parser's own client errors (a path that does not decode, an unsupported
    // charset): their status and message, in the shape of the route that was asked.
    if (typed.expose !== false && typeof typed.status === "number" && typed.status >= 400 && typed.status < 500 && typeof typed.message === "string") {
      if (req.originalUrl.startsWith("/graphql")) {
        res.status(typed.status).json({ errors: [{ message: typed.message, extensions: { code: "VALIDATION" } }] });
      } else {
        res.status(typed.status).json({ error: typed.message, code: "VALIDATION" });
      }
      return;
    }
    const known = classify(error);
    if (known) {
      loggedDatabaseUnavailable(databaseLines, log, `request ${req.method} ${req.path} failed`, error);
      // In the shape of the route that was asked: a GraphQL client reads `errors`.
      if (req.originalUrl.startsWith("/graphql")) sendGraphQLError(res, known.code, known.message, known.field);
      else res.status(HTTP_STATUS[known.code]).json({ error: known.message, code: known.code, ...(known.field ? { field: known.field } : {}), ...known.details });
      return;
    }
    log(`request ${req.method} ${req.path} failed`, error);
    res.status(500).json({ error: "internal error", code: "INTERNAL" });
  };
}
