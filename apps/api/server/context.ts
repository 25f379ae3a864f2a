// What every resolver and route gets: the caller (tenant + role) and the platform's ports.
import type { Clock, EventStore, IdGenerator, LogPosition, Plan } from "@verdict/domain";
import type { ProgressBus, ReadModels } from "@verdict/projector";
import type { ApiKeyStore, ApiPrincipal } from "../auth/apiKeys.js";
import type { AnswerBudget } from "./answerBudget.js";
import { DEFAULT_LOAD_WAIT_MS, type AnswerPool } from "./answerPool.js";
import { ApiError } from "./errors.js";
import type { ResponseCacheTrace } from "./responseCache.js";
import type { TerminalRunCache } from "./terminalRunCache.js";

/**
 * The read-model queries the API uses (the projector's ReadModels, or a fake with the same shape).
 * runTenant / evaluationTenant make it the TenantIndex that decides tenancy before a stream is read;
 * evaluationsNamed / evaluationsOfCatalog the EvaluationDirectory that finds evaluations older than
 * name reservations and catalog following (adoptEvaluationName.ts, legacyMaterialization.ts);
 * rebuilds tells the server's caches of finished runs that a rebuild may have changed their rows;
 * projectionState and projectorHasRun answer /readyz (readiness.ts).
 */
export type ApiReadModels = Pick<
  ReadModels,
  | "listCatalogs" | "getCatalog" | "listEvaluations" | "getEvaluation" | "listScenarios" | "listRuns" | "getRun" | "latestRun"
  | "previousRun" | "listResults" | "runUsageFigures" | "fixItems" | "modelSummaries" | "comparison" | "verdict" | "progress" | "averageScore"
  | "runTenant" | "evaluationTenant" | "evaluationsNamed" | "evaluationsOfCatalog" | "rebuilds"
  | "listAgents" | "getAgent" | "agentReleasePages" | "usageMeters" | "projectionState" | "projectorHasRun"
>;

export interface ApiLimits {
  /** Deepest selection a query may nest (default 12). */
  maxDepth: number;
  /** Largest estimated cost of one operation (default 5000). */
  maxCost: number;
  /** Largest request body express accepts (default "2mb"). */
  bodyLimit: string;
  /**
   * Most tokens one GraphQL document may have (default 10,000; a large real query has a few
   * hundred). Longer ones are not parsed: graphql-js's own validation recurses through fragments
   * spread within fragments and overflowed the stack on a chain of 5,000 (an internal error).
   */
  maxTokens: number;
  /**
   * Most operations one graphql-ws socket may have going at once (default 100). Each live
   * runEvents subscription reads the log on every commit; unbounded, one socket could open
   * thousands and turn every commit into as many reads.
   */
  maxSocketOperations: number;
  /**
   * Most operations one API key may have going at once over graphql-ws, all its sockets together
   * (default 100; VERDICT_API_MAX_KEY_OPERATIONS). Opening more sockets got round
   * maxSocketOperations, and one key's subscriptions stalled every other caller.
   */
  maxKeyOperations: number;
  /**
   * Bytes the heavy fields of one request (runAudit, compareRuns, a report's renderings and
   * pieces, whole lists) may answer together, as answerWeight.ts estimates them
   * (VERDICT_API_MAX_ANSWER_BYTES; default DEFAULT_MAX_ANSWER_BYTES). A field past it answers
   * PAYLOAD_TOO_LARGE at its path; the query's price counts fields, this counts their bytes.
   */
  maxAnswerBytes: number;
  /**
   * Bytes of heavy answers all requests of the process may hold at once (answerPool.ts;
   * VERDICT_API_MAX_HELD_ANSWER_BYTES; default 4 x maxAnswerBytes, never below it). A field past
   * it answers UNAVAILABLE at its path (retry): many requests at once each within their budget
   * had still added up past the process's memory. The REST reports are held from it too.
   */
  maxHeldAnswerBytes?: number;
  /**
   * Bytes of the pool one tenant's requests may hold at once
   * (VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT; default half the pool, never below
   * maxAnswerBytes nor above the pool): one tenant's large answers had made another's retry.
   */
  maxHeldAnswerBytesPerTenant?: number;
  /**
   * Milliseconds a heavy field or REST report waits for one of its tenant's (and the process's)
   * load slots (answerPool.ts; VERDICT_API_HEAVY_LOAD_WAIT_MS; default 30 s) before it answers
   * UNAVAILABLE (retry): a tenant's slow heavy loads had queued its next ones without end.
   */
  heavyLoadWaitMs: number;
}

/**
 * 64 MiB. A 10,000-pair run of the scripted agent (apps/api/scripts/answerBudgetBench.ts)
 * answers its whole audit in 20.3 MB, its report's html in 8.6 MB, markdown 2.7 MB, json 4.0 MB
 * and its whole results 3.2 MB: any one of them fits three times over, so runs with longer
 * answers still answer whole, while aliases stop at about three audits (7 had answered 178 MB and
 * taken the API to 1.6 GB). A run of ~60 KB of answer a pair (~600 MB) does not answer whole at
 * any budget (V8's 512 MB string limit): page it, or export its report over REST.
 */
const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export const DEFAULT_LIMITS: ApiLimits = {
  maxDepth: 12, maxCost: 5000, bodyLimit: "2mb", maxTokens: 10_000, maxSocketOperations: 100, maxKeyOperations: 100, maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES,
  heavyLoadWaitMs: DEFAULT_LOAD_WAIT_MS,
};

export interface ApiDeps {
  store: EventStore;
  readModels: ApiReadModels;
  progress: ProgressBus;
  apiKeys: ApiKeyStore;
  clock: Clock;
  ids: IdGenerator;
  limits?: Partial<ApiLimits>;
  /**
   * The quotas and execution switch of every tenant (VERDICT_QUOTA_*, VERDICT_EXECUTION_DISABLED:
   * infra/settings planFromEnv); none: no limit, execution enabled.
   */
  plan?: Plan;
  /** Read-your-writes: resolves once the read models include this log position (the projector's waitFor). */
  waitForProjection?: (position: LogPosition) => Promise<void>;
  /** Where to report internal errors (never given secrets); default console.error. */
  log?: (message: string, error?: unknown) => void;
}

export interface ApiContext {
  principal: ApiPrincipal;
  deps: ApiDeps;
  /** Shared by every request of one server: what was read about finished runs. */
  runCache: TerminalRunCache;
  /** Per-request memo (rebuilt reports, run streams). */
  cache: Map<string, Promise<unknown>>;
  /** Per-request: what the heavy fields have answered so far, and whose turn it is (heavyFields.ts). */
  answerBudget: AnswerBudget;
  /** Shared by every request of one server: the heavy answers held at once (answerPool.ts); the REST reports take from it directly. */
  answerPool: AnswerPool;
  /** HTTP requests whose answer may be kept: the `run` resolver notes each run's status here. */
  responseTrace?: ResponseCacheTrace;
}

export function requireWrite(context: ApiContext): void {
  if (context.principal.role !== "write") throw new ApiError("FORBIDDEN", "this API key may only read; mutations need a write key");
}

export function memo<T>(context: ApiContext, key: string, make: () => Promise<T>): Promise<T> {
  let found = context.cache.get(key) as Promise<T> | undefined;
  if (!found) {
    found = make();
    context.cache.set(key, found);
  }
  return found;
}

// The scheme is case-insensitive (RFC 9110 §11.1): `bearer <key>` from a client or a proxy that
// lower-cases it is the same credential, and was answered "send an API key".
const BEARER = /^bearer[ \t]+/i;

/** `Bearer <key>` -> the principal, or UNAUTHENTICATED. */
export async function authenticate(apiKeys: ApiKeyStore, header: unknown): Promise<ApiPrincipal> {
  const scheme = typeof header === "string" ? BEARER.exec(header) : null;
  if (scheme === null) {
    throw new ApiError("UNAUTHENTICATED", "send an API key as Authorization: Bearer <key>");
  }
  const principal = await apiKeys.verify((header as string).slice(scheme[0].length).trim());
  if (!principal) throw new ApiError("UNAUTHENTICATED", "the API key is unknown or revoked");
  return principal;
}

/** The authenticated context the /api middleware put on an express request. */
export function requestContext(req: unknown): ApiContext {
  const api = (req as { api?: ApiContext }).api;
  if (!api) throw new ApiError("UNAUTHENTICATED", "send an API key as Authorization: Bearer <key>");
  return api;
}
