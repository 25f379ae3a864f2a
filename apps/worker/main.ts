// `npm run worker [-- --dispatcher --replay --complete]` (bundled, plain node) or
// `tsx apps/worker/main.ts [...]` from source: a worker process on
// PostgreSQL (DATABASE_URL) and Kafka (KAFKA_BROKERS). Scale by starting more of them: replay
// and completion consumers share their consumer groups; one dispatcher leads at a time (the
// others stand by). SIGTERM/SIGINT stop it gracefully: no new job starts, running ones finish
// (within VERDICT_SHUTDOWN_GRACE_MS, then it exits with them unacknowledged), offsets commit, the
// dispatcher's checkpoint is saved.
import { getPriority, setPriority } from "node:os";
import { createPostgresEventStore } from "@verdict/infra/eventstore";
import { eventStoreCheck, healthPortFromEnv, readinessOf, startProbeServer, type ProbeServer } from "@verdict/infra/health";
import { kafkaUnreachableCause, kafkaUnreachableLine } from "@verdict/infra/jobbus";
import { Outages } from "@verdict/infra/logging";
import { namingMissingDatabase, whereOf } from "@verdict/infra/pg";
import { exitFor, helpAsked } from "@verdict/infra/settings";
import { isDatabaseUnreachable } from "./databaseUnreachable.js";
import { PostgresCheckpointStore } from "./checkpoints/index.js";
import { agentFromSpec, judgeFromSetting, pricesFromSetting, readWorkerConfig } from "./config.js";
import { KafkaBatchJobBus } from "./kafkaBatchBus.js";
import { startWorker } from "./startWorker.js";
import { consoleLog, pricesLine, startupLine } from "./workerLog.js";

/** Lowers this process's CPU priority by `nice` (see WorkerConfig.nice); where that is not allowed, says so and goes on. */
function lowerPriority(nice: number): void {
  if (nice === 0) return;
  try {
    setPriority(Math.min(19, getPriority() + nice));
  } catch (error) {
    consoleLog.error(`VERDICT_WORKER_NICE=${nice} not applied: ${(error as Error).message}`);
  }
}

/**
 * Ends the process `graceMs` after a stop began, whatever still runs: an orchestrator kills it
 * after its own grace period anyway (Kubernetes: 30 s), mid-drain. Jobs not finished are not
 * acknowledged, so they are delivered again, as after a kill; the line says how many.
 */
function exitAtDeadline(graceMs: number, jobsRunning: () => number): void {
  setTimeout(() => {
    consoleLog.error(`shutdown: VERDICT_SHUTDOWN_GRACE_MS (${graceMs} ms) passed with ${jobsRunning()} job(s) still running: left to be delivered again`);
    process.exit(0);
  }, graceMs).unref();
}

async function main(): Promise<void> {
  const config = readWorkerConfig(process.env, process.argv.slice(2));
  const healthPort = healthPortFromEnv(process.env);
  lowerPriority(config.nice);
  const runtime = config.agent ? await agentFromSpec(config.agent) : null;
  const judge = await judgeFromSetting(config.judge);
  // Read once, before anything starts: pricing a replay is then a Map lookup. Read and checked
  // without the replay role too: an operator who set it expects it to work, and a bad file says so here.
  const prices = config.prices ? pricesFromSetting(config.prices) : null;
  const store = await namingMissingDatabase("DATABASE_URL", config.databaseUrl, () => createPostgresEventStore({ connectionString: config.databaseUrl, settings: config.pg }));
  const checkpoints = config.roles.includes("dispatcher") ? await PostgresCheckpointStore.create({ connectionString: config.databaseUrl, settings: config.pg }) : null;
  // Consumes a batch at a time with several jobs of a partition in flight (see kafkaBatchBus.ts).
  // The broker or the database unreachable is one line (again every 30 s), and one when it is back;
  // a query with no answer by its deadline (VERDICT_PG_QUERY_TIMEOUT_MS: black-holed) too. A statement
  // the server cancelled at the deadline is a job failing, not the database out of reach.
  const database = `PostgreSQL ${whereOf(config.databaseUrl)}`;
  const outages = new Outages(consoleLog);
  // Unready until the worker has joined the job bus, while a dependency it saw go away (the
  // broker, the database failing jobs) has not answered again, and once it is stopping.
  let state: "starting" | "working" | "stopping" = "starting";
  const probes: ProbeServer | null = healthPort
    ? await startProbeServer(
        readinessOf([eventStoreCheck(store, config.databaseUrl)], {
          log: consoleLog.error,
          whoseLog: "the worker's log",
          extra: () => [...(state === "working" ? [] : [state === "starting" ? "starting: joining the job bus" : "stopping: running jobs finish, then it exits"]), ...outages.unreachable.map((name) => `${name} unreachable`)],
        }),
        healthPort,
      )
    : null;
  if (probes && healthPort) consoleLog.info(`probes at http://${healthPort.host}:${probes.port}/healthz and /readyz (VERDICT_HEALTH_PORT)`);
  const bus = new KafkaBatchJobBus({
    brokers: config.kafkaBrokers,
    partitions: config.partitions,
    clientId: `verdict-worker-${process.pid}`,
    log: consoleLog,
    outages,
    unreachable: (error) => (isDatabaseUnreachable(error) ? database : null),
  });
  const worker = await startWorker({
    store,
    bus,
    runtime,
    judge,
    prices,
    checkpoints,
    roles: config.roles,
    concurrency: config.concurrency,
    replayTimeoutMs: config.replayTimeoutMs,
    judgeTimeoutMs: config.judgeTimeoutMs,
    replayKey: config.replayKey,
    topicPrefix: config.topicPrefix,
    watchdog: { stallMs: config.watchdogStallMs },
  }).catch((error: unknown) => {
    // kafkajs's last retry said `Connection error: connect ECONNREFUSED …` alone: the line names KAFKA_BROKERS (exit 1 still).
    const cause = kafkaUnreachableCause(error);
    throw cause ? new Error(kafkaUnreachableLine(config.kafkaBrokers, cause), { cause: error }) : error;
  });
  state = "working";
  consoleLog.info(startupLine(runtime, judge, process.pid));
  if (prices && config.prices) consoleLog.info(pricesLine(config.prices, prices.size, config.roles.includes("replay")));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    state = "stopping";
    consoleLog.info(`${signal}: stopping (running jobs have ${config.shutdownGraceMs} ms to finish, VERDICT_SHUTDOWN_GRACE_MS)`);
    exitAtDeadline(config.shutdownGraceMs, () => bus.jobsRunning);
    await worker.stop({ leaveWaiting: true });
    await bus.close();
    await checkpoints?.close();
    await store.close();
    await probes?.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

const USAGE = `usage: npm run worker [-- --dispatcher --replay --complete] (or tsx apps/worker/main.ts ...):
a worker on PostgreSQL and Kafka; its roles as flags, all three by default.
Settings (environment):
  DATABASE_URL, KAFKA_BROKERS         the event log and the job bus (required)
  VERDICT_AGENT                       the agent replayed (required for --replay)
  VERDICT_JUDGE, VERDICT_PRICES       the judge and the prices file (optional)
  VERDICT_REPLAY_TIMEOUT_MS, VERDICT_JUDGE_TIMEOUT_MS, VERDICT_WATCHDOG_STALL_MS   time limits
  VERDICT_WORKER_CONCURRENCY, VERDICT_WORKER_NICE, VERDICT_REPLAY_KEY, VERDICT_KAFKA_PARTITIONS
  VERDICT_SHUTDOWN_GRACE_MS           how long SIGTERM lets running jobs finish (default 20000)
  VERDICT_HEALTH_PORT, VERDICT_HEALTH_HOST   a port for GET /healthz and /readyz (default: none)
  VERDICT_PG_*                        PostgreSQL pool and query timeouts
Every setting, its default and its exit codes: apps/worker/README.md.
`;


// A setting to change (WorkerConfigError, a SettingError from infra) is exit 2; anything else 1.
if (helpAsked(process.argv.slice(2))) process.stdout.write(USAGE);
else main().catch((error: unknown) => exitFor(error, consoleLog.error));
