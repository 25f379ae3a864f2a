// What the HTTP routes, Apollo Server and the graphql-ws server of one API server share, made
// once per server (createApiServer.ts): the limits, the schema and its query rules, the caches of
// finished runs, the API keys behind their cache, the log, and a fresh context per request.
import { validate, type DocumentNode, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema, type ValidationRule } from "graphql";
import { RepeatLimiter } from "@verdict/infra/logging";
import { buildApiSchema } from "../schema/buildApiSchema.js";
import { cachedApiKeys, DEFAULT_KEY_TTL_MS } from "../auth/cachedApiKeys.js";
import { DEFAULT_LIMITS, type ApiContext, type ApiDeps, type ApiLimits } from "./context.js";
import { errorDetail, loggingFormatError } from "./errors.js";
import { costLimit, depthLimit, introspectionWithoutAliases, literalDepthLimit } from "./queryLimits.js";
import { MAX_JSON_DEPTH } from "./jsonDepth.js";
import { TerminalRunCache } from "./terminalRunCache.js";
import { ResponseCache } from "./responseCache.js";
import { AnswerBudget } from "./answerBudget.js";
import { AnswerPool } from "./answerPool.js";
import { answerPoolSize } from "./answerPoolSize.js";
import { responseCaching, type ResponseCaching } from "./cachedResponses.js";
import type { ApiServerOptions } from "./createApiServer.js";
import { readiness, type Readiness } from "./readiness.js";

type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

export interface ServingParts {
  limits: ApiLimits;
  /** The options' dependencies with these limits and the API keys behind their cache. */
  deps: ApiDeps;
  /** How often an open socket's key is asked again (socketKeyWatch.ts). */
  keyRecheckMs: number;
  log: (message: string, error?: unknown) => void;
  /** A database that hangs or is gone fails every request alike: that is logged once per 30 s. */
  databaseLines: RepeatLimiter;
  httpFormatError: FormatError;
  wsFormatError: FormatError;
  schema: GraphQLSchema;
  /** Whole answers about finished runs kept (HTTP only). */
  caching: ResponseCaching;
  /** Asks whether the read models were rebuilt since (at most once a second), dropping both caches when they were. */
  checkRebuilds: () => Promise<void>;
  /** Every operation's validation rules beyond graphql-js's own. */
  rules: ValidationRule[];
  /** Cost depends on `first` arguments, which may be variables: checked once they are known. */
  costProblem: (document: DocumentNode, variables: Record<string, unknown> | null | undefined) => GraphQLError | null;
  /** A fresh context (and per-request memo and answer budget) for one request or operation. */
  newContext: (principal: ApiContext["principal"]) => ApiContext;
  /** What /readyz says: the reasons this API cannot serve, none when it can (readiness.ts). */
  readiness: Readiness;
  /** Stops watching for rebuilds (on close). */
  stop: () => void;
}

export async function prepareServing(options: ApiServerOptions): Promise<ServingParts> {
  const limits: ApiLimits = { ...DEFAULT_LIMITS, ...options.limits };
  // An open socket's key is asked again as often as the key cache trusts a key (every second
  // when it trusts none), so a key revoked elsewhere closes its sockets within about twice that.
  const keyRecheckMs = options.keyCacheMs !== undefined && options.keyCacheMs > 0 ? options.keyCacheMs : DEFAULT_KEY_TTL_MS;
  const apiKeys = options.keyCacheMs === 0 ? options.apiKeys : cachedApiKeys(options.apiKeys, { ttlMs: options.keyCacheMs });
  const deps: ApiDeps = { ...options, limits, apiKeys };
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(error === undefined ? message : `${message}: ${errorDetail(error)}`));
  const databaseLines = new RepeatLimiter();
  const poolSize = answerPoolSize(limits);
  const answerPool = options.answerPool ?? new AnswerPool(poolSize.maxBytes, poolSize.tenantMaxBytes, limits.heavyLoadWaitMs);
  const schema = await buildApiSchema();
  const runCache = options.runCache ?? new TerminalRunCache();
  const responseCache = options.responseCache ?? new ResponseCache();
  // What is kept about finished runs holds read-model rows, which only a rebuild changes: every
  // HTTP request and graphql-ws operation first asks whether one happened (rebuilds.check(): the
  // generation read at most once a second), and both caches are dropped when it did.
  const rebuilds = deps.readModels.rebuilds;
  const stopWatchingRebuilds = rebuilds.onRebuilt(() => {
    runCache.clear();
    responseCache.clear();
  });
  return {
    limits,
    deps,
    keyRecheckMs,
    log,
    databaseLines,
    httpFormatError: loggingFormatError(log, "GraphQL", databaseLines),
    wsFormatError: loggingFormatError(log, "graphql-ws", databaseLines),
    schema,
    caching: responseCaching(deps, schema, responseCache),
    checkRebuilds: () => rebuilds.check(),
    rules: [depthLimit(limits.maxDepth), introspectionWithoutAliases, literalDepthLimit(MAX_JSON_DEPTH)],
    costProblem: (document, variables) => validate(schema, document, [costLimit(limits.maxCost, () => variables ?? {})])[0] ?? null,
    newContext: (principal) => ({
      principal, deps, runCache, cache: new Map(), answerPool,
      answerBudget: new AnswerBudget(limits.maxAnswerBytes, { pool: answerPool, tenant: principal.tenant }),
    }),
    readiness: readiness(deps, options.databaseUrls ?? {}, log),
    stop: stopWatchingRebuilds,
  };
}
