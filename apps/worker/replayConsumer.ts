// Replay consumers (consumer group `verdict-replay`): one job per scenario x model. The handler
// resolves only after the pair's events are appended, so the bus acknowledges (Kafka: commits
// the offset) only then; a worker killed mid-job sees the job again, and a redelivered job whose
// pair is recorded does nothing.
import type { DeliveredJob, JobBus, JobConsumer } from "@verdict/domain";
import { clipped, jobFields, jobNames, parseJob, ReplayJob, REPLAY_TOPIC, type JobNames } from "./jobs.js";
import { processPair, type PairDeps, type PairOutcome } from "./pairWork.js";
import { Limiter } from "@verdict/infra/limiter";
import { failRunOnPoison } from "./poisonJobs.js";
import type { RunContexts } from "./runContext.js";
import { withKpisSettled } from "./kpiAuthoring.js";
import type { WorkerLog } from "./workerLog.js";

interface ReplayHandlerDeps extends PairDeps {
  runs: RunContexts;
  log: WorkerLog;
  /** How old a check of the run's state a replay job may go on (default 100 ms; 0: always check). */
  runStateMaxAgeMs?: number;
  /** Awaited before each replay job (see WorkerOptions.pace). */
  pace?: () => Promise<void>;
}

const RUN_STATE_MAX_AGE_MS = 100;

export type ReplayJobOutcome = PairOutcome | "unknown-run" | "invalid";

export async function handleReplayJob(deps: ReplayHandlerDeps, value: unknown): Promise<ReplayJobOutcome> {
  let job: ReplayJob;
  try {
    job = parseJob(ReplayJob, REPLAY_TOPIC, value);
  } catch (error) {
    deps.log.error(`dropped: ${(error as Error).message}`);
    return "invalid";
  }
  const loaded = await deps.runs.get(job.run_id, { maxAgeMs: deps.runStateMaxAgeMs ?? RUN_STATE_MAX_AGE_MS });
  if (!loaded) {
    // The dispatcher only publishes after RunStarted is in the log, so this is a foreign job.
    deps.log.error(`dropped: ${REPLAY_TOPIC} job for run ${job.run_id}, which does not exist`);
    return "unknown-run";
  }
  if (loaded.started.tenant !== job.tenant) {
    // Not the dispatcher's (it copies the run's tenant): a job must not act for, or fail a run as, another tenant.
    deps.log.error(`dropped: ${REPLAY_TOPIC} job for run ${job.run_id} names tenant ${job.tenant}, not the run's`);
    return "invalid";
  }
  const pair = loaded.state.pairs[job.n];
  if (!pair || pair.scenarioKey !== job.scenario_key || pair.modelLabel !== job.model_label) {
    deps.log.error(`dropped: ${REPLAY_TOPIC} job names pair ${job.n} (${clipped(job.scenario_key)} × ${clipped(job.model_label)}), not in run ${job.run_id}'s selection`);
    return "invalid";
  }
  // A judge_defined run's KPIs are settled before its first pair is scored (kpiAuthoring.ts).
  const run = await withKpisSettled(deps, loaded);
  // External runs are replayed by their host; only what the host recorded is scored.
  return processPair(deps, run, job.n, { replay: !run.started.external });
}

/**
 * Jobs taken at once per agent replay allowed at once: while a job waits on the store, others
 * replay, and the SQL stores send the waiting jobs' version checks and appends as one statement.
 * On the worker's Kafka bus it is the window of a partition's batch (kafkaBatchBus.ts); on the
 * plain KafkaJobBus (`verdict start` with KAFKA_BROKERS) it caps the partitions read at once, one
 * job each. The embedded platform takes more (startWorker's jobsPerReplaySlot,
 * EMBEDDED_JOBS_PER_REPLAY_SLOT).
 */
const JOBS_PER_REPLAY_SLOT = 8;

export function consumeReplayJobs(bus: JobBus, deps: ReplayHandlerDeps & { maxAttempts?: number }, concurrency: number, names: JobNames = jobNames(), jobsPerSlot = JOBS_PER_REPLAY_SLOT): Promise<JobConsumer> {
  if (!Number.isInteger(jobsPerSlot) || jobsPerSlot < 1) throw new Error(`jobsPerReplaySlot must be a whole number >= 1 (got ${jobsPerSlot})`);
  const runs = deps.runs;
  const maxAgeMs = deps.runStateMaxAgeMs ?? RUN_STATE_MAX_AGE_MS;
  const stillRunning = async (runId: string) => (await runs.get(runId, { maxAgeMs }))?.state.status === "running";
  deps = { ...deps, agentSlots: new Limiter(concurrency), pairsInFlight: new Map(), stillRunning };
  const handler = async (job: DeliveredJob) => {
    const value = jobFields(job.value);
    const what = `replay job for pair ${clipped(value.n)} (${clipped(value.scenario_key)} × ${clipped(value.model_label)})`;
    if (deps.pace) await deps.pace();
    await failRunOnPoison(deps, { runId: String(value.run_id), tenant: String(value.tenant), attempt: job.attempt, what }, () => handleReplayJob(deps, job.value));
  };
  return bus.consume(names.replayTopic, handler, { group: names.replayGroup, concurrency: concurrency * jobsPerSlot });
}
