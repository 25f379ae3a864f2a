// Completion (consumer group `verdict-complete`): the run's Report from its events, the judge's
// verdict when models are compared (else the pass-rate ranking), the seeded Comparison, then
// VerdictRecorded, ComparisonRecorded and RunCompleted appended to the run stream in one append
// at the version the run was read at. Two completion jobs may race: the loser's append conflicts,
// it reads the run again, finds it complete and does nothing. External runs complete by
// CompleteRun's rules: a missing pair fails the run, naming it.
import {
  Comparison,
  clippedJudgeText,
  WrongExpectedVersionError,
  parseOrThrow,
  runAggregate,
  runStream,
  toEventsToAppend,
  type DeliveredJob,
  type EventInput,
  type JobBus,
  type JobConsumer,
  type JudgeExchange,
  type Result,
  type RunState,
} from "@verdict/domain";
import { collectPairSummaries } from "./collectPairs.js";
import { exchangeData } from "./exchanges.js";
import { CompletionJob, COMPLETE_TOPIC, jobFields, jobNames, parseJob, type JobNames } from "./jobs.js";
import { processPair, runEventContext, type PairDeps } from "./pairWork.js";
import { failRunOnPoison } from "./poisonJobs.js";
import type { RunContext, RunContexts } from "./runContext.js";
import { reportFromRun, runResults, type RunRecord } from "./runReport.js";
import type { WorkerLog } from "./workerLog.js";
import { withKpisSettled } from "./kpiAuthoring.js";

export interface ComparisonSettings {
  seed?: number;
  resamples?: number;
}

export interface CompletionDeps extends PairDeps {
  runs: RunContexts;
  log: WorkerLog;
  /** Comparison settings; both are recorded with the comparison. */
  comparison?: ComparisonSettings;
}

export type CompletionOutcome = "completed" | "failed" | "already-ended" | "unknown-run" | "invalid" | "not-ready";

const ATTEMPTS = 5;

/**
 * Pairs not scored yet are finished here (a lost job cannot hold a run open); null when an
 * engine run still has unscored pairs this process cannot replay (no runtime): the dispatcher
 * asks again once the last pair is scored. The pairs are read as the verdict, the comparison and
 * the summary read them (collectPairSummaries): no answers, no tool output, so the memory a run's
 * completion takes grows with its pairs and not with what its agent wrote.
 */
async function finishPairs(deps: CompletionDeps, run: RunContext): Promise<RunRecord | null> {
  let pairs = await collectPairSummaries(deps.store, run);
  const unscored = run.state.pairs.filter((p) => !pairs.scored.has(p.n)).map((p) => p.n);
  if (unscored.length > 0) {
    if (!run.started.external && !deps.runtime) return null;
    for (const n of unscored) await processPair(deps, run, n, { replay: !run.started.external });
    pairs = await collectPairSummaries(deps.store, run);
  }
  return { started: run.started, kpiAuthoring: run.state.kpiAuthoring, ...pairs };
}

function comparisonOf(results: readonly Result[], record: RunRecord, settings: ComparisonSettings = {}) {
  const json = new Comparison({ results, models: record.started.models.map((m) => m.label), seed: settings.seed ?? 0, resamples: settings.resamples }).toJSON();
  return { comparison: json as unknown as Record<string, unknown>, seed: json.seed, resamples: json.resamples, confidence: json.confidence };
}

/**
 * The commands that end the run, in order, from the run's pairs (as collectPairs or
 * collectPairSummaries read them: both give the same commands).
 */
export async function completionCommands(deps: CompletionDeps, run: RunContext, record: RunRecord): Promise<Record<string, unknown>[]> {
  const results = runResults(record);
  const scored = results.map((r) => ({ scenario_key: r.scenario.key, model_label: r.label, pass: r.passed }));
  // A pair without a score (an external host that never sent it) fails the run, naming it.
  if (scored.length !== run.state.pairs.length) return [{ type: "CompleteRun", run_id: run.runId, results: scored }];
  const report = reportFromRun(record, { judge: run.judge, results });
  if (report.comparing) await report.judgeVerdict();
  const verdict = {
    verdict: clippedJudgeText(report.verdict),
    // A run that asked for a judge this deployment does not have was scored on rules alone.
    judge_label: run.judge ? run.judge.label : null,
    ranking: JSON.parse(JSON.stringify(report.summaryByModel)) as Record<string, unknown>,
    judge_exchange: report.verdictExchange ? exchangeData(report.verdictExchange as JudgeExchange) : null,
  };
  const comparison = report.comparing ? comparisonOf(results, record, deps.comparison) : null;
  // The summary is the report as a rebuild from the recorded events will read it.
  const final = reportFromRun({ ...record, verdict, comparison }, { results });
  const { results: _results, ...summary } = final.toJSON() as unknown as Record<string, unknown>;
  return [
    { type: "RecordVerdict", run_id: run.runId, ...verdict },
    ...(comparison ? [{ type: "RecordComparison", run_id: run.runId, ...comparison }] : []),
    { type: "CompleteRun", run_id: run.runId, results: scored, summary },
  ];
}

function decideAll(deps: CompletionDeps, run: RunContext, commands: Record<string, unknown>[]): EventInput[] {
  let state: RunState = run.state;
  const events: EventInput[] = [];
  const context = { now: deps.clock.now(), streamId: runStream(run.runId) };
  for (const input of commands) {
    for (const event of runAggregate.decide(state, parseOrThrow(runAggregate.commandSchema, input, `${String(input.type)} for run ${run.runId} is invalid`), context)) {
      events.push(event);
      state = runAggregate.evolve(state, { type: event.type, data: event.data } as never);
    }
  }
  return events;
}

export async function handleCompletionJob(deps: CompletionDeps, value: unknown): Promise<CompletionOutcome> {
  let job: CompletionJob;
  try {
    job = parseJob(CompletionJob, COMPLETE_TOPIC, value);
  } catch (error) {
    deps.log.error(`dropped: ${(error as Error).message}`);
    return "invalid";
  }
  for (let attempt = 1; ; attempt++) {
    const loaded = await deps.runs.get(job.run_id);
    if (!loaded) {
      deps.log.error(`dropped: ${COMPLETE_TOPIC} job for run ${job.run_id}, which does not exist`);
      return "unknown-run";
    }
    if (loaded.started.tenant !== job.tenant) {
      deps.log.error(`dropped: ${COMPLETE_TOPIC} job for run ${job.run_id} names tenant ${job.tenant}, not the run's`);
      return "invalid";
    }
    if (loaded.state.status !== "running") {
      deps.runs.forget(loaded.runId);
      return "already-ended";
    }
    // Settled already unless no pair job ever ran (its pairs are finished here).
    const run = await withKpisSettled(deps, loaded);
    const record = await finishPairs(deps, run);
    if (!record) {
      deps.log.info(`run ${run.runId}: completion asked before every pair was scored; waiting for the last one`);
      return "not-ready";
    }
    const events = decideAll(deps, run, await completionCommands(deps, run, record));
    const toAppend = toEventsToAppend(events, runEventContext(run, deps.actor), { clock: deps.clock, ids: deps.ids });
    try {
      await deps.store.append(runStream(run.runId), toAppend, { expectedVersion: run.version });
    } catch (error) {
      // Someone else wrote to the run first (another completion, a failure): read it again.
      if (error instanceof WrongExpectedVersionError && attempt < ATTEMPTS) continue;
      throw error;
    }
    deps.runs.forget(run.runId);
    const failed = events.some((e) => e.type === "RunFailed");
    deps.log.info(`run ${run.runId} ${failed ? "failed" : "completed"} (${record.scored.size} of ${run.state.pairs.length} pairs scored${runErrorsNote(record)})`);
    return failed ? "failed" : "completed";
  }
}

/**
 * `, 4 of them run errors`: a run whose agent was unreachable completes (a run_error is a result,
 * never a failed run) and its log line says so, rather than reading like a run that went well.
 */
function runErrorsNote(record: RunRecord): string {
  let errored = 0;
  for (const scored of record.scored.values()) if (scored.status === "errored") errored += 1;
  return errored === 0 ? "" : `, ${errored} of them ${errored === 1 ? "a run error" : "run errors"}`;
}

export function consumeCompletionJobs(bus: JobBus, deps: CompletionDeps & { maxAttempts?: number }, names: JobNames = jobNames()): Promise<JobConsumer> {
  const handler = async (job: DeliveredJob) => {
    const value = jobFields(job.value);
    const poison = { runId: String(value.run_id), tenant: String(value.tenant), attempt: job.attempt, what: "completion" };
    await failRunOnPoison(deps, poison, () => handleCompletionJob(deps, job.value));
  };
  return bus.consume(names.completeTopic, handler, { group: names.completeGroup, concurrency: 1 });
}
