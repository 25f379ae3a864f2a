// Public surface of @verdict/worker: start the worker's roles in a process (the embedded mode
// calls startWorker), the job messages, the checkpoint stores, and the pieces that rebuild a
// run's Report from its events.
export { startWorker, ALL_ROLES, DEFAULT_REPLAY_TIMEOUT_MS, systemClock, uuidIds, type WorkerOptions, type WorkerRole, type RunningWorker } from "./startWorker.js";
export { Dispatcher, type DispatcherOptions } from "./dispatcher.js";
export type { TrackedRun } from "./trackedRun.js";
export { handleReplayJob, consumeReplayJobs, type ReplayJobOutcome } from "./replayConsumer.js";
export { handleCompletionJob, consumeCompletionJobs, type CompletionOutcome, type ComparisonSettings } from "./completion.js";
export { processPair, type PairDeps, type PairOutcome } from "./pairWork.js";
export { RunContexts, type RunContext } from "./runContext.js";
export { reportFromRun, runResults, resultFromEvents, releaseOf, type RunRecord } from "./runReport.js";
export { collectPairs, collectPairSummaries, type RunPairs } from "./collectPairs.js";
export { forEachPairEvent, readPairEvents, type PairEventsQuery } from "./pairEvents.js";
export { exchangeData, promptDigest } from "./exchanges.js";
export { replayThroughRuntime, runtimeScenario } from "./agentReplay.js";
export { REPLAY_TOPIC, COMPLETE_TOPIC, REPLAY_GROUP, COMPLETE_GROUP, ReplayJob, CompletionJob, InvalidJobError, jobNames, type JobNames } from "./jobs.js";
export { MemoryCheckpointStore, PostgresCheckpointStore, type Checkpoint, type CheckpointStore } from "./checkpoints/index.js";
export { readWorkerConfig, agentFromSpec, WorkerConfigError, type WorkerConfig } from "./config.js";
export { consoleLog, pricesLine, silentLog, type WorkerLog } from "./workerLog.js";
