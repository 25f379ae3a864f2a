// The projector as a process: `npm run projector [-- run|rebuild]` (bundled, plain node), or
// `tsx apps/projector/main.ts [run|rebuild]` from source; -h/--help prints the usage.
//   run      follow the log from the checkpoint, publishing progress (default); read models
//            another projection version made are rebuilt first (projection/projectionVersion.ts)
//   rebuild  truncate every read model and replay the whole log, print the checksum, exit
//            (a rebuild of more than 2 s reports its progress on stderr)
// Events: DATABASE_URL (PostgreSQL), else the embedded PGlite under VERDICT_HOME/events.
// Read models: VERDICT_READ_DATABASE_URL, else DATABASE_URL, else that same embedded PGlite (the
// embedded default keeps the log and the read models in one database, as `verdict start` does).
// VERDICT_HOME defaults to ./.verdict; an embedded home is locked as `verdict start` locks it, so
// the projector never opens PGlite databases another process is serving.
// VERDICT_PROJECTOR_SKIP_UNKNOWN=1 skips (and reports) event types this build does not know.
import type { PGlite } from "@electric-sql/pglite";
import { createPgliteEventStore, createPostgresEventStore } from "@verdict/infra";
import { HomeInUseError, homeCreatedLine, homeProblem, homeVariable, lockHome, openPgliteDataDir, verdictHome } from "@verdict/infra/db";
import { databaseAt, eventStoreCheck, healthPortFromEnv, readinessOf, startProbeServer, type ProbeServer } from "@verdict/infra/health";
import { checkDatabaseUrl, namingMissingDatabase } from "@verdict/infra/pg";
import { ExitError, exitFor, helpAsked, SETTING_EXIT_CODE } from "@verdict/infra/settings";
import type { EventStore } from "@verdict/domain";
import { join } from "node:path";
import { readModelChecksum } from "./db/checksum.js";
import { openReadModels, readDatabaseUrlFromEnv, readDatabaseVariable } from "./openReadModels.js";
import { createProjector } from "./projector.js";
import { rebuildSayingProgress } from "./rebuildProgress.js";
import { rejectionLine } from "./projection/rejections.js";
import { staleProjectionLine } from "./projection/projectionVersion.js";
import { createMemoryProgressBus } from "./progress/memoryProgressBus.js";
import { createPostgresProgressBus } from "./progress/postgresProgressBus.js";
import { progressPublishErrors } from "./progressPublishErrors.js";
import { projectorRetryLines } from "./retryLines.js";

async function openEventStore(embedded: PGlite | null, databaseUrl: string | undefined): Promise<EventStore> {
  if (!embedded) return namingMissingDatabase("DATABASE_URL", databaseUrl ?? "", () => createPostgresEventStore({ connectionString: databaseUrl }));
  return createPgliteEventStore({ db: embedded, soleWriter: true });
}

async function main(args: readonly string[]): Promise<void> {
  const command = args[0] ?? "run";
  if (command !== "run" && command !== "rebuild") throw new ExitError(`unknown command "${command}": use run or rebuild`, SETTING_EXIT_CODE);
  // A word more (a typo, a flag another app takes) was ignored, and a rebuild ran all the same.
  if (args.length > 1) throw new ExitError(`unknown argument ${JSON.stringify(args[1])}: the projector takes one command, run or rebuild, and is set by environment variables`, SETTING_EXIT_CODE);
  // Read models in a database of their own are made from the log in DATABASE_URL. Without it the
  // log would be the embedded one, and a rebuild truncated a production read database and filled
  // it from an empty log (then a running projector carried on over the emptied tables).
  // Blank is unset, as the CLI reads it: a blank one was taken for set, and ended as a DNS error.
  const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
  if (!databaseUrl && readDatabaseUrlFromEnv()) {
    throw new ExitError(
      "VERDICT_READ_DATABASE_URL is set but DATABASE_URL is not: set DATABASE_URL to the event log those read models are made from (or unset VERDICT_READ_DATABASE_URL for the embedded default); nothing was changed",
      SETTING_EXIT_CODE,
    );
  }
  // Before anything connects: pg's own error was a bare "Invalid URL", or a DNS error for a user name taken as the host.
  checkDatabaseUrl("DATABASE_URL", databaseUrl);
  checkDatabaseUrl("VERDICT_READ_DATABASE_URL", process.env.VERDICT_READ_DATABASE_URL);
  // A rebuild exits when done: only `run` opens the probe port.
  const healthPort = command === "run" ? healthPortFromEnv(process.env) : null;
  const home = verdictHome(process.env);
  const problem = databaseUrl ? null : homeProblem(home, homeVariable(process.env));
  if (problem) throw new ExitError(problem, SETTING_EXIT_CODE);
  // The read models are embedded only when the events are (the read URL defaults to DATABASE_URL).
  const release = databaseUrl
    ? async () => undefined
    : await lockHome(home, { onCreated: () => console.error(homeCreatedLine("projector", home, process.env)) }).catch((error: unknown) => {
        // Another process serves this home: stop it or choose another VERDICT_HOME (exit 2, as `verdict` says it).
        throw error instanceof HomeInUseError ? new ExitError(error.message, SETTING_EXIT_CODE) : error;
      });
  const embedded = databaseUrl ? null : await openPgliteDataDir(join(home, "events"));
  const store = await openEventStore(embedded, databaseUrl);
  const readUrl = readDatabaseUrlFromEnv();
  const read = await openReadModels(readUrl ? { url: readUrl, part: "projector", variable: readDatabaseVariable() } : { pglite: embedded ?? undefined, part: "projector" });
  // Unready until it follows the log (the checks of its start, a rebuild of read models another
  // projection version made), while either database fails a trivial query, and once it is stopping.
  let state: "starting" | "following" | "stopping" = "starting";
  const probes: ProbeServer | null = healthPort
    ? await startProbeServer(
        readinessOf(
          [
            eventStoreCheck(store, databaseUrl),
            { what: "read models", database: "their database", logged: databaseAt(readUrl ?? databaseUrl, "their database"), ask: async () => (await read.sql.sql().execute("SELECT 1"), null) },
          ],
          { log: (line) => console.error(`[projector] ${line}`), whoseLog: "the projector's log", extra: () => (state === "following" ? [] : [state === "starting" ? "starting: not following the log yet" : "stopping"]) },
        ),
        healthPort,
      )
    : null;
  if (probes && healthPort) console.log(`projector probes at http://${healthPort.host}:${probes.port}/healthz and /readyz (VERDICT_HEALTH_PORT)`);
  const bus = read.database.url && !read.database.embedded ? createPostgresProgressBus({ url: read.database.url }) : createMemoryProgressBus();
  const projector = createProjector({
    store,
    orm: read.orm,
    database: read.sql,
    bus,
    logSharesDatabase: embedded !== null && !readUrl,
    skipUnknown: process.env.VERDICT_PROJECTOR_SKIP_UNKNOWN === "1",
    onUnknown: (e) => console.warn(`skipped unknown event type "${e.type}" in stream ${e.streamId} at ${e.position.commit}/${e.position.prepare}`),
    onPublishError: progressPublishErrors(),
    onRetry: projectorRetryLines(),
    onReject: (rejected) => console.error(rejectionLine(rejected)),
    onStaleProjection: (state) => console.error(`projector: ${staleProjectionLine(state)}`),
    // Once it really follows (the read database is of this log): said before the checks, it preceded their refusal.
    onFollowing: once(() => {
      state = "following";
      console.log(`projector following the log; read models at ${read.database.embedded ? `${join(home, "events")} (embedded, beside the log)` : "the read database"}`);
    }),
  });
  const shutdown = async () => {
    state = "stopping";
    await projector.stop().catch((error: unknown) => console.error(error));
    await bus.close();
    await read.close();
    await store.close();
    await embedded?.close();
    await release();
    await probes?.close();
  };
  if (command === "rebuild") {
    const started = Date.now();
    const applied = await rebuildSayingProgress(projector, (line) => console.error(line));
    const checksum = await readModelChecksum(read.sql);
    console.log(JSON.stringify({ rebuilt: applied, ms: Date.now() - started, checksum }, null, 2));
    await shutdown();
    return;
  }
  projector.start();
  const stop = () => void shutdown().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await projector.running;
}

/** `say`, the first time only: the loop tells again after each retry. */
function once(say: () => void): () => void {
  let said = false;
  return () => {
    if (!said) say();
    said = true;
  };
}

const USAGE = `usage: npm run projector [-- run|rebuild] (or tsx apps/projector/main.ts [run|rebuild]):
  run      follow the event log, keeping the read models current (default)
  rebuild  truncate every read model, replay the whole log, print the checksum and exit
Settings (environment):
  DATABASE_URL                    the event log (unset: the embedded home's, VERDICT_HOME, default ./.verdict)
  VERDICT_READ_DATABASE_URL       the read models (default: DATABASE_URL, else the embedded home)
  VERDICT_PROJECTOR_SKIP_UNKNOWN  1: skip (and report) event types this build does not know
  VERDICT_HEALTH_PORT, VERDICT_HEALTH_HOST   a port for GET /healthz and /readyz (default: none)
  VERDICT_PG_*                    PostgreSQL pool and query timeouts
Every setting, its default and its exit codes: apps/projector/README.md.
`;


// A setting to change (ExitError, a SettingError from infra: VERDICT_PG_*) is exit 2; anything else, a lost database included, 1.
if (helpAsked(process.argv.slice(2))) process.stdout.write(USAGE);
else main(process.argv.slice(2)).catch((error: unknown) => exitFor(error));
