// One HTTP server: Apollo Server 5 at /graphql (express 5), graphql-ws subscriptions on the same
// server and path, and the REST report routes. Every request is authenticated by API key.
import "reflect-metadata";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { ApolloServer } from "@apollo/server";
import { expressMiddleware } from "@as-integrations/express5";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import { WebSocketServer } from "ws";
import { useServer } from "graphql-ws/use/ws";
import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema } from "graphql";
import { buildApiSchema } from "../schema/buildApiSchema.js";
import { reportRouter } from "../rest/reportRoutes.js";
import { usageRouter } from "../rest/usageRoute.js";
import { authenticate, DEFAULT_LIMITS, type ApiContext, type ApiDeps, type ApiLimits } from "./context.js";
import { planStatusPlugin } from "./planRefusal.js";
import { ApiError, classify, errorDetail, formatError, loggedDatabaseUnavailable, loggingFormatError, HTTP_STATUS, sendGraphQLError } from "./errors.js";
import { RepeatLimiter } from "@verdict/infra/logging";
import { costLimit, depthLimit, introspectionWithoutAliases, literalDepthLimit } from "./queryLimits.js";
import { inputProblem } from "./inputText.js";
import { refusePersistedQueries } from "./persistedQueries.js";
import { depthMessage, MAX_JSON_DEPTH, tooDeep } from "./jsonDepth.js";
import { refuseBodyNotUtf8 } from "./utf8Body.js";
import { TerminalRunCache } from "./terminalRunCache.js";
import { ResponseCache } from "./responseCache.js";
import { refusingTooLarge } from "./tooLargeJson.js";
import { AnswerBudget } from "./answerBudget.js";
import { answerAsStream, tooLargeAsPayloadError } from "./wsTooLarge.js";
import { responseCaching } from "./cachedResponses.js";
import { cachedApiKeys, DEFAULT_KEY_TTL_MS } from "../auth/cachedApiKeys.js";
import { closeSocketWhenKeyRefused } from "./socketKeyWatch.js";
import { KeyOperations } from "./keyOperations.js";
import { peerWentAway } from "./peerGone.js";
import { logOversizedMessagesQuietly } from "./oversizedMessages.js";

export interface ApiServerOptions extends ApiDeps {
  /** Port on 127.0.0.1 (0 picks a free one; default 4000). */
  port?: number;
  host?: string;
  /** Whole answers about finished runs (default: a fresh 64 MB one; tests pass their own to look inside). */
  responseCache?: ResponseCache;
  /** What is kept about finished runs (default: a fresh one; tests pass their own to look inside). */
  runCache?: TerminalRunCache;
  /**
   * How long a verified API key is trusted without asking `apiKeys` again (default 1000 ms; 0
   * asks on every request). A key revoked by another process is refused after at most this long.
   */
  keyCacheMs?: number;
}

export interface ApiServer {
  /** Base URL, e.g. http://127.0.0.1:4000 (GraphQL at `${url}/graphql`). */
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  schema: GraphQLSchema;
  /** The node HTTP server it listens with (a host may watch it; tests emit its runtime errors). */
  httpServer: Server;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}


/** "2mb", "64kb", "512b" or a bare number of bytes, as express's body limit reads them (1 kb = 1024 b). */
export function byteLimit(limit: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (!match) throw new Error(`limits.bodyLimit must be a size such as "2mb" (got ${JSON.stringify(limit)})`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? "b").toLowerCase() as "b"];
  return Math.floor(Number(match[1]) * unit);
}

/** The Authorization a graphql-ws client sent in connection_init's payload. */
function bearerOf(params: Record<string, unknown> | undefined): unknown {
  return params?.Authorization ?? params?.authorization;
}

export async function createApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const limits: ApiLimits = { ...DEFAULT_LIMITS, ...options.limits };
  // An open socket's key is asked again as often as the key cache trusts a key (every second
  // when it trusts none), so a key revoked elsewhere closes its sockets within about twice that.
  const keyRecheckMs = options.keyCacheMs !== undefined && options.keyCacheMs > 0 ? options.keyCacheMs : DEFAULT_KEY_TTL_MS;
  const apiKeys = options.keyCacheMs === 0 ? options.apiKeys : cachedApiKeys(options.apiKeys, { ttlMs: options.keyCacheMs });
  const deps: ApiDeps = { ...options, limits, apiKeys };
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(error === undefined ? message : `${message}: ${errorDetail(error)}`));
  // A database that hangs or is gone fails every request alike: that is logged once per 30 s.
  const databaseLines = new RepeatLimiter();
  const httpFormatError = loggingFormatError(log, "GraphQL", databaseLines);
  const wsFormatError = loggingFormatError(log, "graphql-ws", databaseLines);
  const schema = await buildApiSchema();
  const runCache = options.runCache ?? new TerminalRunCache();
  const responseCache = options.responseCache ?? new ResponseCache();
  const caching = responseCaching(deps, schema, responseCache);
  // What is kept about finished runs holds read-model rows, which only a rebuild changes: every
  // HTTP request and graphql-ws operation first asks whether one happened (rebuilds.check(): the
  // generation read at most once a second), and both caches are dropped when it did.
  const rebuilds = deps.readModels.rebuilds;
  const stopWatchingRebuilds = rebuilds.onRebuilt(() => {
    runCache.clear();
    responseCache.clear();
  });
  const newContext = (d: ApiDeps, principal: ApiContext["principal"]): ApiContext => ({
    principal, deps: d, runCache, cache: new Map(), answerBudget: new AnswerBudget(limits.maxAnswerBytes),
  });
  const app = express();
  const httpServer = createServer(app);
  // A socket message is held to the HTTP body limit (ws would otherwise take 100 MiB); one over it
  // closes the socket with 1009 (message too big). Upgrades are handed over here rather than ws
  // being given the HTTP server: ws re-emitted the server's errors, and graphql-ws logged a
  // port already in use (EADDRINUSE) as an "Internal error emitted on the WebSocket server" stack
  // before listen's own rejection said it.
  const wsServer = new WebSocketServer({ noServer: true, path: "/graphql", maxPayload: byteLimit(limits.bodyLimit) });
  httpServer.on("upgrade", (req, socket, head) => wsServer.handleUpgrade(req, socket, head, (ws) => wsServer.emit("connection", ws, req)));
  const rules = [depthLimit(limits.maxDepth), introspectionWithoutAliases, literalDepthLimit(MAX_JSON_DEPTH)];
  const keyOperations = new KeyOperations();
  // Cost depends on `first` arguments, which may be variables: checked once they are known.
  const costProblem = (document: DocumentNode, variables: Record<string, unknown> | null | undefined) =>
    validate(schema, document, [costLimit(limits.maxCost, () => variables ?? {})])[0] ?? null;

  const wsCleanup = useServer<Record<string, unknown>, { api?: ApiContext }>(
    {
      schema,
      onConnect: async (ctx) => {
        try {
          const verify = () => authenticate(deps.apiKeys, bearerOf(ctx.connectionParams));
          ctx.extra.api = newContext(deps, await verify());
          keyOperations.track(ctx.extra.api.principal.keyId, ctx, ctx.extra.socket);
          closeSocketWhenKeyRefused(ctx.extra.socket, verify, keyRecheckMs);
          return true;
        } catch (error) {
          // The close names the code an HTTP answer carries in extensions.code: 4403 for a key
          // refused, 4500 when keys cannot be checked (the store's error logged, never sent).
          if (error instanceof ApiError) ctx.extra.socket.close(4403, `UNAUTHENTICATED: ${error.message}`.slice(0, 120));
          else {
            log("graphql-ws: checking the API key failed", error);
            ctx.extra.socket.close(4500, "INTERNAL_SERVER_ERROR: internal error");
          }
          return false;
        }
      },
      // A fresh context (and per-request memo) per operation: the socket's would keep every run
      // history read over it for as long as it stays open, answering later operations from it.
      context: (ctx) => newContext(deps, (ctx.extra.api as ApiContext).principal),
      validate: (s, document) => validate(s, document, [...specifiedRules, ...rules]),
      onSubscribe: async (ctx, _id, payload) => {
        // This operation is already among the socket's subscriptions.
        if (Object.keys(ctx.subscriptions).length > limits.maxSocketOperations) {
          return [new GraphQLError(`at most ${limits.maxSocketOperations} operations may be going at once on one socket; complete one first`, { extensions: { code: "VALIDATION" } })];
        }
        if (keyOperations.count((ctx.extra.api as ApiContext).principal.keyId) > limits.maxKeyOperations) {
          return [new GraphQLError(`at most ${limits.maxKeyOperations} operations may be going at once for one API key, over all its sockets (maxKeyOperations); complete one first`, { extensions: { code: "VALIDATION" } })];
        }
        // The key again for every operation (answered from the key cache), so one revoked while
        // the socket stays open stops working as it does over HTTP.
        await rebuilds.check();
        try {
          ctx.extra.api = newContext(deps, await authenticate(deps.apiKeys, bearerOf(ctx.connectionParams)));
        } catch (error) {
          if (error instanceof ApiError) return [new GraphQLError(error.message, { extensions: { code: "UNAUTHENTICATED" } })];
          const unavailable = classify(error);
          if (unavailable && loggedDatabaseUnavailable(databaseLines, log, "graphql-ws: checking the API key failed", error)) {
            return [new GraphQLError(unavailable.message, { extensions: { code: unavailable.code } })];
          }
          log("graphql-ws: checking the API key failed", error);
          return [new GraphQLError("internal error", { extensions: { code: "INTERNAL_SERVER_ERROR" } })];
        }
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: limits.maxTokens });
        } catch (error) {
          // As an error message for this operation: thrown, graphql-ws would close the whole socket (4500).
          if (error instanceof GraphQLError) return [error];
          // A literal nested thousands deep (still under maxTokens) overflows the parser's stack.
          if (error instanceof RangeError) return [new GraphQLError("Syntax Error: the document is nested too deeply to parse", { extensions: { code: "GRAPHQL_PARSE_FAILED" } })];
          throw error;
        }
        const deep = tooDeep(payload.variables, MAX_JSON_DEPTH, "variables");
        if (deep !== null) return [new GraphQLError(depthMessage(deep), { extensions: { code: "VALIDATION", field: deep } })];
        const problem = inputProblem(document, payload.variables) ?? costProblem(document, payload.variables);
        return problem ? [problem] : undefined;
      },
      // Errors go out as over HTTP: a code (and field) in extensions, an internal error's message
      // withheld (it may be a database's, naming hosts or users) and its cause logged. `error`
      // messages and `next` results. A client that went away is not our error: nothing is logged.
      onError: (ctx, _id, _payload, errors) =>
        errors.map(tooLargeAsPayloadError).map((e) => (peerWentAway(ctx.extra.socket, e) ? formatError(e.toJSON(), e) : wsFormatError(e.toJSON(), e))),
      // An answer too large to write is that operation's error, not the socket's (wsTooLarge.ts).
      onOperation: (_ctx, _id, _payload, _args, result) => answerAsStream(result),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors?.length ? { ...result, errors: result.errors.map((e) => wsFormatError(e.toJSON(), e)) } : undefined,
    },
    wsServer,
  );
  logOversizedMessagesQuietly(wsServer, log, limits.bodyLimit);

  const apollo = new ApolloServer<ApiContext>({
    schema,
    validationRules: rules,
    parseOptions: { maxTokens: limits.maxTokens },
    formatError: httpFormatError,
    includeStacktraceInErrorResponses: false,
    // Fixed rather than derived from NODE_ENV, so GraphQL answers the same whatever it is (the
    // process entry sets NODE_ENV=production for graphql-js's sake; graphql-ws then words an
    // unexpected server error's close reason "Internal server error" instead of its message).
    introspection: true,
    // Its cache is one for every tenant; requests that name a persisted query are refused before
    // they get here (persistedQueries.ts), and this keeps any that did from reaching a cache.
    persistedQueries: false,
    // An answer over V8's string limit is PAYLOAD_TOO_LARGE, not an internal error (tooLargeJson.ts).
    stringifyResult: refusingTooLarge(caching.stringifyResult),
    // The process that hosts the server owns shutdown order (API first, databases last).
    stopOnTerminationSignals: false,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginLandingPageLocalDefault(),
      // No cache hints are used; its willResolveField hook wrapped every resolved field (~12% of a
      // 3,000-result query with the schema instrumentation it turns on).
      ApolloServerPluginCacheControlDisabled(),
      caching.plugin,
      planStatusPlugin<ApiContext>(),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await wsCleanup.dispose();
            },
          };
        },
      },
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ request, document, operation }) {
              // Apollo Server executes a subscription sent over HTTP as a query, and its resolver,
              // given no event, throws (`internal error` to the client): refuse it here instead.
              if (operation?.operation === "subscription") {
                throw new GraphQLError(
                  "subscriptions are served over graphql-ws (a WebSocket) on this same path, /graphql; send queries and mutations over HTTP",
                  { extensions: { code: "VALIDATION", http: { status: 400 } } },
                );
              }
              const input = inputProblem(document, request.variables);
              if (input) throw input;
              const problem = costProblem(document, request.variables);
              if (problem) throw new GraphQLError(problem.message, { extensions: { code: "VALIDATION", http: { status: 400 } } });
            },
          };
        },
      },
      {
        async unexpectedErrorProcessingRequest({ error }) {
          log("GraphQL request failed", error);
        },
      },
    ],
  });
  await apollo.start();

  app.use("/graphql", express.json({ limit: limits.bodyLimit, verify: refuseBodyNotUtf8 }), (req: Request, res: Response, next: NextFunction) => {
    const path = tooDeep(req.body);
    if (path === null) return next();
    sendGraphQLError(res, "VALIDATION", depthMessage(path), path);
  }, refusePersistedQueries, (_req: Request, _res: Response, next: NextFunction) => {
    rebuilds.check().then(() => next(), next);
  }, caching.serve, expressMiddleware(apollo, {
    context: async ({ req }) => {
      try {
        const { principal, trace } = await caching.principalAndTrace(req);
        return { ...newContext(deps, principal), responseTrace: trace };
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
      await rebuilds.check();
      (req as unknown as { api?: ApiContext }).api = newContext(deps, await authenticate(deps.apiKeys, req.headers.authorization));
      next();
    } catch (error) {
      next(error);
    }
  }, reportRouter(), usageRouter(), (req: Request, res: Response) => {
    res.status(404).json({ error: `no route ${req.method} ${req.baseUrl}${req.path}; reports are under /api/evaluations/:id/runs/:runId/report[.md|.json], the plan's meters at /api/usage`, code: "NOT_FOUND" });
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
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
  });

  const address = await listen(httpServer, options.port ?? 4000, options.host ?? "127.0.0.1");
  // Listening, the server has no 'error' listener of its own (ws, in noServer mode, adds none), so
  // a runtime error such as a failed accept (EMFILE) would be an uncaught exception ending the
  // process: it is logged and the server keeps serving. Not before listen: a taken port
  // (EADDRINUSE) is listen's rejection, which the process entry says in one line.
  httpServer.on("error", (error) => log("HTTP server error", error));
  const url = `http://${address.address}:${address.port}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    graphqlUrl: `${url}/graphql`,
    wsUrl: `ws://${address.address}:${address.port}/graphql`,
    schema,
    httpServer,
    close() {
      closing ??= (async () => {
        await apollo.stop(); // drains HTTP and disposes the ws server
        await new Promise<void>((resolve) => wsServer.close(() => resolve()));
        stopWatchingRebuilds();
      })();
      return closing;
    },
  };
}

