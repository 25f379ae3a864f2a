// One worker process's roles, started together: the dispatcher, replay consumers, completion.
// The embedded mode calls this with PGlite + the memory bus; `main.ts` with PostgreSQL + Kafka.
import { randomUUID } from "node:crypto";
import { RepeatLimiter } from "@verdict/infra/logging";
import { DEFAULT_REPLAY_TIMEOUT_MS } from "@verdict/infra/settings";
import { priceRefusalLine, type AgentRuntime, type Clock, type EventStore, type IdGenerator, type JobBus, type JobConsumer, type PriceRefusal, type PriceTable } from "@verdict/domain";
import type { JudgeBackend } from "@verdict/infra/judges";
import type { CheckpointStore } from "./checkpoints/index.js";
import { consumeCompletionJobs, type ComparisonSettings } from "./completion.js";
import { Dispatcher } from "./dispatcher.js";
import type { WatchdogSettings } from "./watchdog.js";
import { consumeReplayJobs } from "./replayConsumer.js";
import { jobNames } from "./jobs.js";
import { RunContexts } from "./runContext.js";
import { consoleLog, type WorkerLog } from "./workerLog.js";
import { WorkerStopping } from "./workerStopping.js";

export type WorkerRole = "dispatcher" | "replay" | "complete";
export const ALL_ROLES: readonly WorkerRole[] = ["dispatcher", "replay", "complete"];
export { DEFAULT_REPLAY_TIMEOUT_MS };

export interface WorkerOptions {
  store: EventStore;
  bus: JobBus;
  /** The agent runtime replays run through; required for the replay role. */
  runtime: AgentRuntime | null;
  /** The judge completion (null: rules only). */
  judge: JudgeBackend | null;
  /**
   * The operator's price table (VERDICT_PRICES): a replay the agent returns with no cost is
   * recorded with its estimated cost, from its tokens or, a count missing, from the scenario
   * prompt's and the answer's characters (domain/pricing/priceReplay.ts). Omitted: none, and only
   * the chain's no_usage applies.
   */
  prices?: PriceTable | null;
  /** Required for the dispatcher role. */
  checkpoints?: CheckpointStore | null;
  roles?: readonly WorkerRole[];
  /** Agent replays at once in this process (default 4). */
  concurrency?: number;
  /** Replay jobs taken at once per agent replay allowed (default JOBS_PER_REPLAY_SLOT, replayConsumer.ts). */
  jobsPerReplaySlot?: number;
  replayTimeoutMs?: number;
  /** A judge call unanswered after this long is skipped; omitted: the core Judge's 120 s; null: no limit. */
  judgeTimeoutMs?: number | null;
  /** Deliveries of a job failing with a permanent error before its run is failed (default 3). */
  maxAttempts?: number;
  comparison?: ComparisonSettings;
  replayKey?: "run" | "pair";
  /** Prefix of topic and consumer-group names (keeps deployments on one broker apart). */
  topicPrefix?: string;
  /** Names this process in the `actor` of what it appends (default worker:<pid>). */
  name?: string;
  clock?: Clock;
  ids?: IdGenerator;
  log?: WorkerLog;
  /**
   * Awaited before each replay job. The embedded platform runs worker, projector and API on one
   * event loop: without a pause the replay jobs (promise chains that never wait on I/O) keep the
   * loop to themselves and the projector, the API and progress wait for the whole run.
   */
  pace?: () => Promise<void>;
  /** The dispatcher's watchdog for runs that stop making progress (watchdog.ts). */
  watchdog?: WatchdogSettings;
}

export interface RunningWorker {
  readonly roles: readonly WorkerRole[];
  readonly dispatcher: Dispatcher | null;
  /**
   * Stops taking jobs, lets in-flight ones finish, saves the dispatcher's checkpoint. With
   * `leaveWaiting` (a worker process on SIGTERM, whose shutdown has a deadline), jobs taken but
   * still waiting for an agent slot leave without replaying, unacknowledged; without it (`verdict
   * start`, whose second Ctrl-C gives the drain up) every job taken is replayed.
   */
  stop(options?: { leaveWaiting?: boolean }): Promise<void>;
}

export const systemClock: Clock = { now: () => new Date() };
export const uuidIds: IdGenerator = { next: () => randomUUID() };

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const roles = options.roles?.length ? [...new Set(options.roles)] : [...ALL_ROLES];
  if (roles.includes("replay") && !options.runtime) throw new Error("startWorker: the replay role needs an agent runtime (set VERDICT_AGENT)");
  if (roles.includes("dispatcher") && !options.checkpoints) throw new Error("startWorker: the dispatcher role needs a checkpoint store");
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? uuidIds;
  const log = options.log ?? consoleLog;
  const actor = `worker:${options.name ?? process.pid}`;
  const runs = new RunContexts(options.store, { backend: options.judge, timeoutMs: options.judgeTimeoutMs }, log);
  // A rate that prices every replay of its model past what an event may record says so once per
  // 30 s per table entry (with how often it repeated), not once per replay.
  const refusals = new RepeatLimiter();
  // Aborted first thing on stop: jobs waiting for an agent slot leave then (pairWork.ts).
  const stopping = new AbortController();
  const onPriceRefused = (refusal: PriceRefusal) => {
    const line = refusals.pass(priceRefusalLine(refusal), refusal.rate.key);
    if (line !== null) log.error(line);
  };
  const pairDeps = {
    store: options.store,
    runtime: options.runtime,
    prices: options.prices ?? null,
    onPriceRefused,
    replayTimeoutMs: options.replayTimeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS,
    clock,
    ids,
    actor,
    runs,
    log,
    maxAttempts: options.maxAttempts,
    pace: options.pace,
    stopping: stopping.signal,
  };
  const names = jobNames(options.topicPrefix ?? "");
  let dispatcher: Dispatcher | null = null;
  if (roles.includes("dispatcher")) {
    dispatcher = new Dispatcher({
      store: options.store,
      bus: options.bus,
      checkpoints: options.checkpoints as CheckpointStore,
      clock,
      ids,
      // Its standby loop retries every 2 s: "dispatcher could not start: connect ECONNREFUSED …"
      // was printed 34 times in a 68 s database outage. The same line is shown at most every
      // 30 s, with how many times it repeated (other lines as they come).
      log: new RepeatLimiter().wrap(log),
      actor: `${actor}:dispatcher`,
      replayKey: options.replayKey,
      names,
      // One dispatcher leads per deployment: the prefix names its checkpoint too.
      name: `${options.topicPrefix ?? ""}dispatcher`,
      watchdog: options.watchdog,
    });
    dispatcher.start();
    // Jobs only once it led (its restart re-drives recorded, a crash-looping run failed) or stood
    // by: a worker dying on a run's job died again before its dispatcher had counted the restart.
    await dispatcher.settled;
  }
  const consumers: JobConsumer[] = [];
  // The consumers stop taking jobs at once, not after the dispatcher's checkpoint is saved: a
  // shutdown has a deadline (VERDICT_SHUTDOWN_GRACE_MS), and every job started eats into it.
  const stop = async ({ leaveWaiting = false } = {}) => {
    if (leaveWaiting) stopping.abort(new WorkerStopping());
    await Promise.all([dispatcher?.stop(), ...consumers.map((c) => c.stop())]);
  };
  try {
    if (roles.includes("replay")) consumers.push(await consumeReplayJobs(options.bus, pairDeps, options.concurrency ?? 4, names, options.jobsPerReplaySlot));
    if (roles.includes("complete")) consumers.push(await consumeCompletionJobs(options.bus, { ...pairDeps, comparison: options.comparison }, names));
  } catch (error) {
    // A consumer that cannot start (a topic the broker will not create, the broker out of reach)
    // stops what already runs: the dispatcher left running kept `verdict start` from exiting.
    await stop().catch((stopError: unknown) => log.error(`while stopping after a failed start: ${(stopError as Error).message}`));
    throw error;
  }
  // The topics named as the broker knows them: two deployments sharing a prefix, or a dispatcher
  // and replay workers given different ones, otherwise show only as stalled runs.
  log.info(`started: ${roles.join(", ")} (topics ${names.replayTopic}, ${names.completeTopic})`);
  return {
    roles,
    dispatcher,
    stop,
  };
}
