// The API as a process: `npm run api` (bundled, plain node), or `tsx apps/api/main.ts` from source.
// Events: DATABASE_URL (PostgreSQL, required). Read models and API keys: VERDICT_READ_DATABASE_URL,
// else DATABASE_URL: the API reads what a separate projector process writes, so it runs on
// PostgreSQL only; the embedded all-in-one mode is `npm start`.
// No arguments (one is refused, exit 2; -h/--help prints the usage). PORT (default 4000), HOST (default 127.0.0.1: the API listens on this machine only; 0.0.0.0
// for every interface, as a container or another host needs; blank or unresolvable: exit 2). Progress: PostgreSQL LISTEN/NOTIFY from the projector. Mutations wait (up
// to 5 s) for the projector's checkpoint to pass what they appended, so their answers read back.
// NODE_ENV defaults to production (see main). VERDICT_API_MAX_KEY_OPERATIONS (default 100): graphql-ws
// operations one API key may have going at once; VERDICT_API_MAX_ANSWER_BYTES (default 64 MiB):
// bytes one request's heavy fields may answer together (server/limitsFromEnv.ts).
// VERDICT_QUOTA_EXECUTIONS, VERDICT_QUOTA_REPORTS (per tenant per calendar month, UTC; unset: no
// limit) and VERDICT_EXECUTION_DISABLED (true|false, default false): the plan (infra/settings planSettings.ts).
// VERDICT_API_CORS_ORIGINS (unset: no CORS): origins a browser page may call the API from (server/cors.ts).
import "reflect-metadata";
import { ExitError, exitFor, helpAsked, SETTING_EXIT_CODE } from "@verdict/infra/settings";
import { ensureDecoratorTsconfig } from "./decoratorTsconfig.js";

async function main(): Promise<void> {
  // Before graphql is loaded: outside production, graphql-js checks every type test for a second
  // copy of itself (~14% of a 3,000-result `run` query). The server pins what else NODE_ENV would
  // change (Apollo's introspection and landing page, no stack traces). An explicit value is kept.
  process.env.NODE_ENV ??= "production";
  const { createPostgresEventStore } = await import("@verdict/infra");
  const { openReadModels, readDatabaseUrlFromEnv, readDatabaseVariable, createPostgresProgressBus } = await import("@verdict/projector");
  const { createApiServer } = await import("./server/createApiServer.js");
  const { apiHostFromEnv, apiLimitsFromEnv, apiPortFromEnv, checkApiHost, hostListenError, portTakenLine, refuseApiArguments } = await import("./server/limitsFromEnv.js");
  const { planFromEnv } = await import("@verdict/infra/settings");
  const { corsOriginsFromEnv } = await import("./server/cors.js");
  const { checkDatabaseUrl, namingMissingDatabase } = await import("@verdict/infra/pg");
  const { createPostgresApiKeyStore } = await import("./auth/postgresApiKeyStore.js");
  const { pollProjection } = await import("./server/projectionWait.js");
  const { randomUUID } = await import("node:crypto");

  refuseApiArguments(process.argv.slice(2));
  const eventsUrl = process.env.DATABASE_URL;
  const readUrl = readDatabaseUrlFromEnv();
  if (!eventsUrl || !readUrl) {
    throw new ExitError("set DATABASE_URL (events, and read models unless VERDICT_READ_DATABASE_URL is set); for everything in one process use `npm start`", SETTING_EXIT_CODE);
  }
  // Read before anything is opened: a bad value is a SettingError naming its variable, which
  // stops the API with exit 2 (a setting the user must change, as a taken port and `verdict start --port x` exit).
  // pg's own error for a bad URL was a bare "Invalid URL", or a DNS error for a user name taken as the host.
  checkDatabaseUrl("DATABASE_URL", eventsUrl);
  checkDatabaseUrl("VERDICT_READ_DATABASE_URL", process.env.VERDICT_READ_DATABASE_URL);
  const port = apiPortFromEnv(process.env);
  const host = apiHostFromEnv(process.env);
  const limits = apiLimitsFromEnv(process.env);
  const plan = planFromEnv(process.env);
  const corsOrigins = corsOriginsFromEnv(process.env);
  await checkApiHost(host);
  const store = await namingMissingDatabase("DATABASE_URL", eventsUrl, () => createPostgresEventStore({ connectionString: eventsUrl }));
  const read = await openReadModels({ url: readUrl, part: "api", variable: readDatabaseVariable() }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const progress = createPostgresProgressBus({ url: readUrl });
  const apiKeys = await createPostgresApiKeyStore({ url: readUrl });
  const projection = pollProjection({ url: readUrl });
  const closeStores = () => Promise.allSettled([progress.close(), apiKeys.close(), projection.close(), read.close(), store.close()]);
  const server = await createApiServer({
    store, readModels: read.readModels, progress, apiKeys,
    clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, port, host,
    limits, plan, corsOrigins, databaseUrls: { events: eventsUrl, readModels: readUrl },
    waitForProjection: (position) => projection.wait(position),
  }).catch(async (error: unknown) => {
    await closeStores();
    // A taken port is the user's to change: one line and exit 2, as `verdict start` says it.
    if ((error as { code?: unknown }).code === "EADDRINUSE") throw new ExitError(portTakenLine(process.env, port, host), SETTING_EXIT_CODE);
    throw hostListenError(error, host) ?? error;
  });
  console.log(`GraphQL at ${server.graphqlUrl} (subscriptions at ${server.wsUrl}); probes at ${server.url}/healthz and /readyz`);
  const shutdown = async () => {
    await server.close();
    await closeStores();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown());
  process.once("SIGTERM", () => void shutdown());
}

const USAGE = `usage: npm run api (or tsx apps/api/main.ts): the GraphQL API on PostgreSQL; takes no arguments.
Settings (environment):
  DATABASE_URL               the event log (required)
  VERDICT_READ_DATABASE_URL  read models and API keys (default: DATABASE_URL)
  PORT, HOST                 where it listens (default 4000, 127.0.0.1; 0.0.0.0 for every interface)
  VERDICT_API_*              limits and CORS (VERDICT_API_MAX_KEY_OPERATIONS, VERDICT_API_MAX_ANSWER_BYTES,
                             VERDICT_API_HEAVY_LOAD_WAIT_MS, VERDICT_API_CORS_ORIGINS, ...)
  VERDICT_QUOTA_EXECUTIONS, VERDICT_QUOTA_REPORTS, VERDICT_EXECUTION_DISABLED   the plan
  VERDICT_PG_*               PostgreSQL pool and query timeouts
Every setting, its default and its exit codes: apps/api/README.md ("Running it").
`;


if (helpAsked(process.argv.slice(2))) {
  process.stdout.write(USAGE);
} else if (ensureDecoratorTsconfig()) {
  // A setting to change (ExitError, a SettingError from the settings read above or from infra) is exit 2; anything else 1.
  main().catch((error: unknown) => exitFor(error));
}
