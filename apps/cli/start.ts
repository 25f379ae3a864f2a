// `verdict start` (npm start): the whole platform in one process — event store, read models and
// projector, worker (dispatcher, replay, completion), API — on the embedded default or on
// PostgreSQL + Kafka, then the example evaluation run through the API. Serves until Ctrl-C, or
// stops after the run with --exit.
import "reflect-metadata";
import { createServer } from "node:net";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { apiLimitsFromEnv, apiPortFromEnv, corsOriginsFromEnv, createApiServer, type ApiServer } from "@verdict/api";
import { ScriptedAgent } from "@verdict/infra/agents";
import { topicPrefixFromEnv } from "@verdict/infra/jobbus";
import { ScriptedJudge } from "@verdict/infra/judges";
import { parseWholeNumber, planFromEnv } from "@verdict/infra/settings";
import { createProjector } from "@verdict/projector";
import { pricesLine, startWorker, type WorkerLog } from "@verdict/worker";
import { list, parseFlags } from "./args.js";
import { loadPricesFlag } from "./pricesFile.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import { CliError, EXIT, type ExitCode } from "./errors.js";
import { EXAMPLE_DIR, EXAMPLE_MODELS, printRunSummary, runExample, type EarlierRun, type RunRef } from "./exampleRun.js";
import { gqlClient, GraphQLRequestError } from "./gqlClient.js";
import type { Io } from "./io.js";
import { catchUpReadModels } from "./readModelCatchUp.js";
import { runsGoingNow } from "./leftUnfinished.js";
import { reachingKafka } from "./kafkaConnect.js";
import { EMBEDDED_JOBS_PER_REPLAY_SLOT, EMBEDDED_PROJECTOR_GATHER_MS, paceByProjection } from "./projectionPacing.js";
import { claimHome, describeMode, openEventStore, openJobBus, platformMode, reportsDirOf, Resources } from "./platform.js";
import { openApiKeys, openCheckpoints, openReadSide } from "./services.js";
import { startProjectorLines } from "./projectorLines.js";
import { withSessionKey } from "./sessionApiKey.js";
import { RunReports } from "./runReports.js";
import { stopSignals } from "./stopSignals.js";
import { reportRunsAtStop, type RunInFlight } from "./stoppedRuns.js";
import { countJobsInFlight, drainUnlessHurried } from "./workerDrain.js";
import { defaultTakenLine, type PortSetBy, servingWherePortFree, takenChoiceRefusal } from "./portTaken.js";

export const DEMO_TENANT = "demo";

/** True when nothing listens on 127.0.0.1:port. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** The port asked for, and by what: --port, else PORT, else the default 4000 (`by` null). */
interface PortChoice {
  port: number;
  by: PortSetBy;
}

const PORT_RULE = { min: 0, max: 65535, noun: "port number" };

/**
 * The port asked for, checked before anything is opened: decimal digits only ("0x1f90" was read as
 * 8080, "" as 0). PORT is read as `npm run api` reads it (apiPortFromEnv): a PORT that is set but
 * empty is refused, not taken for unset (4000), so the two name the same ports good and bad.
 */
function portOf(env: NodeJS.ProcessEnv, flag: string | undefined): PortChoice {
  return startSetting(() => {
    if (flag !== undefined) return { port: parseWholeNumber("--port", flag, PORT_RULE), by: "--port" };
    return { port: apiPortFromEnv(env), by: env.PORT === undefined ? null : "PORT" };
  });
}

/** The API limits, the plan (VERDICT_QUOTA_*, VERDICT_EXECUTION_DISABLED) and the CORS origins the environment sets, checked before anything is opened. */
function apiSettingsOf(env: NodeJS.ProcessEnv): { limits: ReturnType<typeof apiLimitsFromEnv>; plan: ReturnType<typeof planFromEnv>; corsOrigins: ReturnType<typeof corsOriginsFromEnv> } {
  return startSetting(() => ({ limits: apiLimitsFromEnv(env), plan: planFromEnv(env), corsOrigins: corsOriginsFromEnv(env) }));
}

/** A setting `read` reads from the environment; a bad one is a usage error (exit 2) saying `verdict start:` and its message. */
function startSetting<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new CliError(`verdict start: ${(error as Error).message}`);
  }
}

/**
 * A port the user chose that is taken is refused before any work: it was silently replaced by
 * another, so the URL they had set up (a proxy, a bookmark) pointed at something else.
 */
async function refuseTakenChoice({ port, by }: PortChoice): Promise<void> {
  if (by === null || port === 0 || (await portFree(port))) return;
  throw takenChoiceRefusal(by, port);
}

/**
 * The port, or 0 (any free one) when the default is taken by the time the API starts (and when
 * it is taken after this probe, at the API's listen: portTaken.ts).
 */
async function choosePort({ port, by }: PortChoice, io: Io): Promise<number> {
  if (port === 0 || by !== null || (await portFree(port))) return port;
  io.out(defaultTakenLine(port));
  return 0;
}

function workerLog(io: Io): WorkerLog {
  // Started/stopped chatter stays quiet; what went wrong is said.
  return { info: () => undefined, error: (message) => io.err(`[worker] ${message}`) };
}

class Stopped extends Error {}

/** The API's words when its plan refused a start (PLAN_LIMIT_REACHED, EXECUTION_DISABLED), else null. */
function planRefusal(error: unknown): string | null {
  return error instanceof GraphQLRequestError && (error.code === "PLAN_LIMIT_REACHED" || error.code === "EXECUTION_DISABLED") ? error.message : null;
}

/** The work, unless a stop signal comes first. */
async function unlessStopped<T>(stopped: Promise<string>, work: Promise<T>): Promise<T> {
  return Promise.race([work, stopped.then((signal) => Promise.reject(new Stopped(signal)))]);
}

/** How to reach the running API: its URL, the session key, and (after a run) a subscription and a query to paste. */
function printServing(io: Io, api: ApiServer, key: string, runId: string | null): void {
  io.out(`GraphQL:       ${api.graphqlUrl}  (subscriptions over graphql-ws at ${api.wsUrl})`);
  io.out(`API key:       ${key}  (tenant "${DEMO_TENANT}", write; valid until this server stops, never stored; \`verdict keys create\` makes a lasting one)`);
  io.out(`Header:        Authorization: Bearer ${key}`);
  io.out(`Probes:        ${api.url}/healthz (liveness) and ${api.url}/readyz (readiness), no key needed`);
  if (runId === null) return;
  io.out(`Subscription:  subscription { runProgress(runId: "${runId}") { completed total passed failed errored status } }`);
  io.out(`               (graphql-ws connection params: { "Authorization": "Bearer ${key}" })`);
  io.out(`Try:           curl -s -H 'Authorization: Bearer ${key}' -H 'content-type: application/json' \\`);
  io.out(`                 -d '{"query":"{ run(id: \\"${runId}\\") { number status verdict { winner } } }"}' ${api.graphqlUrl}`);
}

/** What a start whose example the plan refused does without --exit: serves until a stop signal. */
async function serveUntilStopped(io: Io, api: ApiServer, key: string, runId: string | null, stopped: Promise<string>): Promise<ExitCode> {
  printServing(io, api, key, runId);
  io.out("\nServing; press Ctrl-C to stop.");
  io.out(`${await stopped}: stopping`);
  return EXIT.ok;
}

/** Where an earlier start's unfinished run stands now: its reports, or how to get them later. */
function earlierRunLine(run: EarlierRun): string {
  if (run.htmlPath) return `Run #${run.number} (left unfinished earlier) report: ${run.htmlPath} and ${run.markdownPath}`;
  return `Run #${run.number} (left unfinished earlier) is ${run.status}: \`verdict report ${run.id}\` gives its report once it is done`;
}

/** A start stopped once its run had ended exits as it would have finished: by the run's outcome (--exit's code). */
async function finishedCode(client: Parameters<typeof printRunSummary>[0], io: Io, run: RunRef): Promise<ExitCode> {
  return run.status === "COMPLETED" && (await printRunSummary(client, io, run.id)) ? EXIT.ok : EXIT.failed;
}

export async function startCommand(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const flags = parseFlags("start", argv, FLAG_SPECS.start);
  const models = flags.values.models ? list("start", "models", flags.values.models) : EXAMPLE_MODELS;
  // "--models ," named none: the run went ahead across the example's models, announced as "across ".
  if (models.length === 0) throw new CliError("verdict start: --models must name at least one model, comma separated (e.g. gpt-5-mini,claude-sonnet-4-5)");
  const port = portOf(env, flags.values.port);
  const { limits, plan, corsOrigins } = apiSettingsOf(env);
  // The worker's price table, read and checked as a worker process reads it, before anything is opened.
  const pricesPath = env.VERDICT_PRICES?.trim() || null;
  const prices = pricesPath ? loadPricesFlag(pricesPath, "verdict start: VERDICT_PRICES:") : null;
  // Checked as the worker checks it: Kafka refused a bad one only once the databases were open.
  const topicPrefix = startSetting(() => topicPrefixFromEnv(env));
  await refuseTakenChoice(port);
  const mode = platformMode(env);
  const resources = new Resources();
  const signals = stopSignals();
  // Set once the API is up: what a stop before the example ended says and exits with.
  let stopMidExample: ((signal: string) => Promise<ExitCode>) | null = null;
  try {
    await claimHome(mode, resources, { who: "verdict start", io, env }, { ownSignals: true });
    io.out(`verdict: starting (${describeMode(mode)})`);
    if (prices && pricesPath) io.out(pricesLine(pricesPath, prices.size, true));
    const store = await openEventStore(mode, resources);
    const { read, progress } = await openReadSide(mode, resources);
    const projector = createProjector({
      store, orm: read.orm, database: read.sql, bus: progress, gatherMs: EMBEDDED_PROJECTOR_GATHER_MS,
      // Embedded, the log is in the read models' own PGlite: a rebuild (read models of another
      // projection version are rebuilt on catch-up) goes batch by batch, as `projector rebuild` does there.
      logSharesDatabase: read.database.embedded,
      ...startProjectorLines(io),
    });
    await unlessStopped(signals.stopped, catchUpReadModels(projector, io));
    // Caught up, before the worker starts: a run an earlier start left that this start's worker finishes is still named.
    const goingAtStart = await runsGoingNow(read.sql.sql());
    projector.start();
    resources.add(projector, (p) => p.stop());
    const jobs = countJobsInFlight(openJobBus(mode, resources));
    const checkpoints = await openCheckpoints(mode, resources);
    const pacing = paceByProjection(store, projector);
    const worker = await reachingKafka(mode.kafkaBrokers, async () => startWorker({
      store: pacing.store, bus: jobs.bus, checkpoints, pace: pacing.pace,
      runtime: await ScriptedAgent.load(join(EXAMPLE_DIR, "agent.yaml")),
      judge: await ScriptedJudge.load(join(EXAMPLE_DIR, "judge.yaml")),
      prices,
      log: workerLog(io),
      concurrency: 4,
      // Measured on the embedded default only (PGlite, in-memory bus); other modes keep the worker's default.
      jobsPerReplaySlot: mode.embedded ? EMBEDDED_JOBS_PER_REPLAY_SLOT : undefined,
      // Keeps this deployment's topics and consumer groups apart on a shared broker.
      topicPrefix,
    }));
    // Stopped early by a stop mid-run (stoppedRuns.ts), then again, as a no-op, on closing; a
    // second signal gives up waiting for its jobs in flight (workerDrain.ts).
    let workerStopped: Promise<void> | null = null;
    const stopWorker = () => (workerStopped ??= drainUnlessHurried(worker.stop(), signals.hurried, jobs.inFlight, io));
    resources.add(worker, stopWorker);
    const { apiKeys, key } = await withSessionKey(await openApiKeys(mode, resources), DEMO_TENANT);
    const api: ApiServer = resources.add(
      await servingWherePortFree(port.by, io, createApiServer, {
        store, readModels: read.readModels, progress, apiKeys,
        clock: { now: () => new Date() }, ids: { next: () => randomUUID() },
        port: await choosePort(port, io),
        limits, plan, corsOrigins, databaseUrls: { events: mode.databaseUrl, readModels: mode.readUrl },
        waitForProjection: (position) => projector.waitFor(position, 30_000),
        // The cause of an internal error, stack included: the client only got `internal error`.
        log: (message, error) => io.err(`[api] ${message}${error === undefined ? "" : `: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`}`),
      }),
      (a) => a.close(),
    );
    io.out(`API listening at ${api.graphqlUrl}`);
    const client = resources.add(gqlClient(api, key), (c) => c.close());
    const reportsDir = reportsDirOf(mode);
    const reports = new RunReports(client, reportsDir);
    const runsInFlight: RunInFlight[] = [];
    let ended: RunRef | null = null;
    stopMidExample = async (signal) => {
      io.out(ended ? `${signal}: stopping; run #${ended.number} had finished` : `${signal}: stopping before the run finished`);
      await reportRunsAtStop(runsInFlight, { store, reports, stopWorker }, io);
      return ended ? finishedCode(client, io, ended) : EXIT.failed;
    };
    const onRunInFlight = (evaluation: RunInFlight["evaluation"], run: RunInFlight["run"]) => void runsInFlight.push({ evaluation, run });
    const onRunEnded = (run: RunRef) => void (ended = run);
    let refusal: string | null = null;
    const outcome = await unlessStopped(signals.stopped, runExample(client, io, { models, reportsDir, goingAtStart, onRunInFlight, onRunEnded, reports })).catch((error: unknown) => {
      if ((refusal = planRefusal(error)) === null) throw error;
      return null;
    });
    if (outcome === null) {
      // The plan refused the example's run (VERDICT_EXECUTION_DISABLED, a quota reached): said,
      // and the platform still serves what the plan allows (reads, imports, evaluations).
      io.err(`verdict start: the example run was refused: ${refusal}`);
      const code = flags.booleans.exit ? EXIT.failed : await serveUntilStopped(io, api, key, null, signals.stopped);
      // The runs an earlier start left, which this start's worker may have finished meanwhile:
      // their reports written now, or said to be the next start's, as at a stop mid-run.
      await reportRunsAtStop(runsInFlight, { store, reports, stopWorker }, io);
      return code;
    }
    const succeeded = await printRunSummary(client, io, outcome.runId);
    io.out("");
    // With --exit the server stops now: its URL and key would be of no use, so only the report is shown.
    if (!flags.booleans.exit) printServing(io, api, key, outcome.runId);
    if (outcome.htmlPath) {
      io.out(`Report:        ${outcome.htmlPath}`);
      io.out(`Markdown:      ${outcome.markdownPath}`);
    }
    for (const run of outcome.earlier) io.out(earlierRunLine(run));
    const code: ExitCode = outcome.status === "COMPLETED" && succeeded ? EXIT.ok : EXIT.failed;
    if (flags.booleans.exit) return code;
    io.out("\nServing; press Ctrl-C to stop.");
    io.out(`${await signals.stopped}: stopping`);
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof Stopped)) throw error;
    if (stopMidExample) return await stopMidExample(error.message);
    io.out(`${error.message}: stopping before the run finished`);
    return EXIT.failed;
  } finally {
    await resources.close();
    signals.dispose();
    // Jobs given up at a second signal may still hold the event loop (an agent or judge call, up
    // to 120 s); with the databases closed they have nothing left to write, so end them now.
    if (signals.isHurried()) process.exit(EXIT.failed);
  }
}
