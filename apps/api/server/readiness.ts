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
import { databaseAt, eventStoreCheck, readinessOf, type Readiness } from "@verdict/infra/health";
import type { ApiDeps } from "./context.js";

export { READINESS_DEADLINE_MS, type Readiness } from "@verdict/infra/health";

/** Where the API's databases are, as the reasons name them: PostgreSQL URLs (shown as host:port/database), or null (embedded, or not said). */
export interface DatabaseUrls {
  events?: string | null;
  readModels?: string | null;
}

export function readiness(deps: Pick<ApiDeps, "store" | "readModels">, urls: DatabaseUrls, log: (message: string) => void): Readiness {
  return readinessOf(
    [
      eventStoreCheck(deps.store, urls.events),
      { what: "read models", database: "their database", logged: databaseAt(urls.readModels, "their database"), ask: () => projectionProblem(deps.readModels, deps.store) },
    ],
    { log, whoseLog: "the API's log" },
  );
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
