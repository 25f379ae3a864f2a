// What GET /readyz asks (healthRoutes.ts): whether this API can serve. Its event store answers
// one stream's version (an indexed row, or nothing read at all on the memory store), and its read
// database the projector's checkpoint row, whose projection version must be this build's (rows a
// projector of another version made are rebuilt by this build's projector; until then the API
// would answer from them). Each within READINESS_DEADLINE_MS. No checkpoint row while the log
// holds events means no projector ever ran: every write was taken and no read showed it. A
// projector that only lags is no reason: every API replica unready because one projector is slow
// would be a total outage, where reads a little behind are not.
//
// The probe answers anyone who can reach the port, without a key: a reason names which of the
// API's databases failed ("its database", "their database"), never where it is, as a tenant's
// error (errors.ts) names none. The API's log line names it by host:port/database (whereOf: never
// a user or password), with the driver's own error, as every database error is logged.
import { DEFAULT_PROJECTOR_NAME, PROJECTION_VERSION, projectedBy } from "@verdict/projector";
import { RepeatLimiter } from "@verdict/infra/logging";
import { queryTimeoutOf, whereOf } from "@verdict/infra/pg";
import type { ApiDeps } from "./context.js";

/** How long /readyz waits for each database: a probe's own timeout is often 1-5 s, and a trivial query on a healthy database takes milliseconds. */
export const READINESS_DEADLINE_MS = 2_000;

/** A stream no event is written to: asking its version reads one indexed row that is never there. */
const PROBE_STREAM = "readiness-probe";

/** Where the API's databases are, as the reasons name them: PostgreSQL URLs (shown as host:port/database), or null (embedded, or not said). */
export interface DatabaseUrls {
  events?: string | null;
  readModels?: string | null;
}

interface Check {
  /** What the operator is told it is ("event store", "read models"). */
  what: string;
  /** How the answer names its database ("its database"): nothing of where it is. */
  database: string;
  /** How the log names it: "database at host:port/db", or the answer's words when no URL was given. */
  logged: string;
  /** Resolves to a problem in words, or null when ready; rejects when the database failed. */
  ask: () => Promise<string | null>;
}

/** Each check's reason, or none when every check passed; never rejects. */
export type Readiness = () => Promise<string[]>;

export function readiness(deps: Pick<ApiDeps, "store" | "readModels">, urls: DatabaseUrls, log: (message: string) => void): Readiness {
  const checks: Check[] = [
    { what: "event store", database: "its database", logged: databaseAt(urls.events, "its database"), ask: singleFlight(async () => (await deps.store.streamVersion(PROBE_STREAM), null)) },
    { what: "read models", database: "their database", logged: databaseAt(urls.readModels, "their database"), ask: singleFlight(() => projectionProblem(deps.readModels, deps.store)) },
  ];
  // A probe asks every few seconds: the same failure is logged once per 30 s while it lasts.
  const lines = new RepeatLimiter();
  const logged = (line: string) => {
    const passed = lines.pass(line);
    if (passed !== null) log(passed);
  };
  return async () => (await Promise.all(checks.map((check) => reasonOf(check, logged)))).filter((reason) => reason !== null);
}

function databaseAt(url: string | null | undefined, unnamed: string): string {
  return url ? `database at ${whereOf(url)}` : unnamed;
}

async function projectionProblem(readModels: ApiDeps["readModels"], store: ApiDeps["store"]): Promise<string | null> {
  const state = await readModels.projectionState(DEFAULT_PROJECTOR_NAME);
  if (!state.stale) return (await unprojectedLog(readModels, store)) ? "no projector has run against them yet: start the projector" : null;
  // A newer projector than this API (an upgrade half done): it is the API that is behind.
  const fix = state.stored !== null && state.stored > PROJECTION_VERSION ? "upgrade this API to the projector's build" : "start this build's projector, which rebuilds them";
  return `they were projected ${projectedBy(state)}; this build reads version ${PROJECTION_VERSION}: ${fix}`;
}

/**
 * Events in the log and no projector checkpoint. An empty log with none is a new deployment (and
 * its API must be ready to take the first write). The log's end is the event store's to tell: its
 * failure is the event store check's reason, not this one's.
 */
async function unprojectedLog(readModels: ApiDeps["readModels"], store: ApiDeps["store"]): Promise<boolean> {
  if (await readModels.projectorHasRun(DEFAULT_PROJECTOR_NAME)) return false;
  return (await store.lastPosition().catch(() => null)) !== null;
}

async function reasonOf(check: Check, log: (line: string) => void): Promise<string | null> {
  try {
    const answer = await settledWithin(check.ask(), READINESS_DEADLINE_MS);
    if (answer === LATE) return `${check.what}: ${check.database} did not answer within ${READINESS_DEADLINE_MS} ms`;
    return answer === null ? null : `${check.what}: ${answer}`;
  } catch (error) {
    // One line, no stack (the error is not passed on): a probe asks every few seconds, and a
    // dozen lines of driver frames per failure buried what the line is for, naming the database.
    log(`/readyz: ${check.what}, ${check.logged}, failed a trivial query: ${errorLine(error)}`);
    // The query deadline (VERDICT_PG_QUERY_TIMEOUT_MS, when set below ours) passed first.
    const deadline = queryTimeoutOf(error);
    if (deadline && !deadline.byServer) return `${check.what}: ${check.database} did not answer within ${deadline.queryTimeoutMs} ms (VERDICT_PG_QUERY_TIMEOUT_MS)`;
    // Only a code (ECONNREFUSED, 3D000) is shown: the driver's words may hold the failed SQL.
    const code = (error as { code?: unknown } | null)?.code;
    const shown = typeof code === "string" && /^[A-Z0-9_]{1,20}$/.test(code) ? ` (${code})` : "";
    return `${check.what}: ${check.database} failed a trivial query${shown}; the API's log has the error`;
  }
}

/** The driver's message and code on one line ("connect ECONNREFUSED 127.0.0.1:5432 (ECONNREFUSED)"); an AggregateError has only its code. */
function errorLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error).replace(/\s*\n\s*/g, " ");
  const code = (error as { code?: unknown }).code;
  const message = (error.message || error.name).replace(/\s*\n\s*/g, " ");
  return typeof code === "string" && code !== "" ? `${message} (${code})` : message;
}

const LATE = Symbol("late");

/** `work`'s value, or LATE once `ms` passed first (the work goes on: singleFlight keeps the next probe from starting another). */
function settledWithin<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * At most one query in flight per database: probes every few seconds against a database that
 * hangs would otherwise queue one query each on the pool the tenants' requests use.
 */
function singleFlight<T>(ask: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () =>
    (inFlight ??= Promise.resolve()
      .then(ask)
      .finally(() => {
        inFlight = null;
      }));
}
