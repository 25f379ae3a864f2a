// Judge-defined KPIs (reference-platform §1 #19), settled before any pair of a run is scored: a
// judge_defined run whose evaluation had no KPIs when it started asks its judge to define them
// (Judge.define), records them on the evaluation (KpisDefined: later runs freeze them and the
// judge is not asked again) and on the run (KpiAuthoringRecorded: the run scores with them, its
// report is rebuilt with them, and the define call is its audit trail and a judge call no result
// owns). When they cannot be authored the run is NOT failed, as the reference fails it (§3 rule
// 23, decided in the README): it scores on the criteria it froze, the failure is recorded with
// the reference's message, and the next run tries again.
import {
  evaluationAggregate,
  evaluationStream,
  handleCommand,
  kpiCriterion,
  kpiDescription,
  loadAggregate,
  runAggregate,
  resultStream,
  runStream,
  DomainError,
  eventRegistry,
  RECENT_RUNS_MAX,
  KPI_NO_JUDGE_MESSAGE,
  KPI_UNUSABLE_MESSAGE,
  DEFAULT_JUDGE_TIMEOUT_MS,
  type Clock,
  type EventData,
  type EventStore,
  type EvaluationState,
  type IdGenerator,
  type RecentRun,
} from "@verdict/domain";
import { exchangeData } from "./exchanges.js";
import { runEventContext } from "./pairWork.js";
import type { RunContext, RunContexts } from "./runContext.js";
import type { WorkerLog } from "./workerLog.js";

/** Ours, for a run that scored pairs before its KPIs were settled (started before workers settled them). */
const KPI_MID_RUN_MESSAGE = "KPIs were not authored for this run: pairs were already scored without them; the next run defines them";
/** Pair streams read at once when looking for a scored pair. */
const SCORED_CHECK_BATCH = 50;

export interface KpiDeps {
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  actor: string;
  runs: RunContexts;
  log: WorkerLog;
  /** How often a worker waiting on another's KPI claim re-reads the run (tests shorten it). */
  kpiClaimPollMs?: number;
}

type Authoring = Omit<EventData<"KpiAuthoringRecorded">, "judge_exchange"> & { judge_exchange: ReturnType<typeof exchangeData> | null };

/** Whether the run must settle its KPIs before a pair is scored. */
function needsKpis(run: RunContext): boolean {
  const started = run.started;
  if (started.judge.kind !== "judge_defined" || run.state.status !== "running" || run.state.kpiAuthoring) return false;
  // A pinned judge this worker cannot reach fails the run anyway (processPair).
  if (run.judgeRefusal) return false;
  // Started after its evaluation's KPIs were defined: it froze them with its criteria.
  return !started.criteria.some((criterion) => criterion.defined_by !== undefined);
}

/**
 * How long past the judge's timeout a claim holds: the define call has returned (or timed out) by
 * then, and this leaves the writes that follow it time to land. A claim older than the judge
 * timeout plus this margin was left by a worker that crashed, and another worker takes it over.
 */
const KPI_CLAIM_MARGIN_MS = 30_000;
/** How often a worker waiting on another's claim re-reads the run. */
const KPI_CLAIM_POLL_MS = 250;

/**
 * The run with its KPIs settled: at once when it needs none; otherwise after this worker claimed
 * the settling on the run stream and settled them, or waited for the worker that holds the claim
 * (one define call a run, whichever worker processes its jobs reach; RunContexts.settleOnce
 * shares one wait within a process).
 */
export async function withKpisSettled(deps: KpiDeps, run: RunContext): Promise<RunContext> {
  if (!needsKpis(run)) return run;
  return deps.runs.settleOnce(run.runId, async () => {
    const current = await deps.runs.get(run.runId);
    if (!current || !needsKpis(current)) return current ?? run;
    return claimOrWait(deps, current);
  });
}

/**
 * Claims the settling and settles, or waits for the holder to record it. The wait is bounded by
 * the claim's lifetime: past it the claim is taken over here; past it in real time (a clock that
 * disagrees) the job fails and is redelivered.
 */
async function claimOrWait(deps: KpiDeps, run: RunContext): Promise<RunContext> {
  // The process's claim on the run: a job of the run redelivered here after a failed settlement
  // settles under it again rather than waiting for it to expire.
  const claimId = deps.runs.kpiClaimId(run.runId, () => deps.ids.next());
  const holdMs = claimHoldMs(run);
  const giveUpAt = performance.now() + holdMs + KPI_CLAIM_MARGIN_MS;
  for (let current = run; ; ) {
    const claimed = await handleCommand(deps.store, runAggregate, runStream(run.runId), { type: "ClaimKpiAuthoring", run_id: run.runId, claim_id: claimId, hold_ms: holdMs }, commandOptions(deps, run));
    if (claimed.state.kpiClaim?.claim_id === claimId && !claimed.state.kpiAuthoring) await settle(deps, current, claimId);
    const reloaded = (await deps.runs.get(run.runId)) ?? current;
    if (!needsKpis(reloaded)) return reloaded;
    if (performance.now() > giveUpAt) throw new Error(`run ${run.runId}: another worker has held its KPI authoring for ${holdMs} ms; the job is retried`);
    await new Promise((resolve) => setTimeout(resolve, deps.kpiClaimPollMs ?? KPI_CLAIM_POLL_MS));
    current = reloaded;
  }
}

/** The claim lasts the judge's timeout plus the margin (a judge without one: the core's default). */
function claimHoldMs(run: RunContext): number {
  return (run.judge?.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS) + KPI_CLAIM_MARGIN_MS;
}

async function settle(deps: KpiDeps, run: RunContext, claimId: string): Promise<void> {
  const evaluationId = run.started.evaluation_id;
  const { state: evaluation } = await loadAggregate(deps.store, evaluationAggregate, evaluationStream(evaluationId));
  let authoring: Authoring;
  if (evaluation.kpiDefinition?.runId === run.runId) {
    // This run's judge defined them, and its worker died before recording so on the run: the
    // define call travelled with the KPIs, and is recorded (and metered) here.
    authoring = kpisOf(run, evaluation, evaluation.kpiDefinition.exchange, "defined");
  } else if (await anyPairScored(deps.store, run)) {
    // A run in flight when workers began settling KPIs: KPIs now would mix its results.
    authoring = failed(KPI_MID_RUN_MESSAGE, null, null);
  } else if (evaluation.kpiProvenance) {
    authoring = kpisOf(run, evaluation, null);
  } else if (!run.judge) {
    authoring = failed(KPI_NO_JUDGE_MESSAGE, null, null);
  } else {
    authoring = await authored(deps, run, evaluation, claimId);
  }
  const command = { type: "RecordKpiAuthoring", run_id: run.runId, claim_id: claimId, ...authoring };
  await handleCommand(deps.store, runAggregate, runStream(run.runId), command, commandOptions(deps, run)).catch((error: unknown) => ended(deps, run, error));
  // The judge's reason is not logged: a provider's error text may echo what it was sent. The run's
  // event holds it, as a pair's exchanges hold theirs.
  const what = authoring.outcome === "failed" ? `no KPIs (${authoring.message}); scoring on its own criteria` : `${authoring.criteria.length} KPIs ${authoring.outcome}`;
  deps.log.info(`run ${run.runId}: ${what}`);
}

/** Asks the judge, and records what it defined on the evaluation (unless another run did first). */
async function authored(deps: KpiDeps, run: RunContext, evaluation: EvaluationState, claimId: string): Promise<Authoring> {
  const judge = run.judge!;
  const existingKeys = run.started.criteria.map((criterion) => criterion.key);
  const recentRuns = await recentRunsOf(deps.store, evaluation, run.started.number);
  const { value, exchange } = await judge.define({ instructions: instructionsOf(run), description: descriptionOf(run, evaluation), existingKeys, recentRuns });
  const recorded = exchange ? exchangeData(exchange) : null;
  if (!value) return failed(KPI_UNUSABLE_MESSAGE, exchange?.unusable_reason ?? null, recorded);
  await mustHoldClaim(deps, run, claimId);
  // The clears seen before asking: a clear while the judge answered makes this call record nothing.
  const command = { type: "DefineKpis", evaluation_id: run.started.evaluation_id, run_id: run.runId, judge: judge.label, criteria: value.map(kpiCriterion), judge_exchange: recorded, clears_seen: evaluation.kpiClears };
  try {
    const handled = await handleCommand(deps.store, evaluationAggregate, evaluationStream(run.started.evaluation_id), command, commandOptions(deps, run));
    return kpisOf(run, handled.state, recorded, handled.state.kpiDefinition?.runId === run.runId ? "defined" : "reused");
  } catch (error) {
    if (!noLongerFit(error)) throw error;
    return failed(KPI_UNUSABLE_MESSAGE, error.message, recorded);
  }
}

/**
 * The evaluation changed meanwhile so that the KPIs no longer fit: a sync gave a criterion one of
 * their keys (validation), or another judge kind (conflict on evaluation_id). Unusable now, said
 * with the evaluation's own reason. Anything else (a write race lost after the retries, a store
 * error) is no fault of the answer: it fails the job, which is redelivered, and no pair is scored
 * without the KPIs meanwhile.
 */
function noLongerFit(error: unknown): error is DomainError {
  return error instanceof DomainError && (error.code === "validation" || (error.code === "conflict" && error.field === "evaluation_id"));
}

/**
 * Whether any pair of the run was scored: its result stream holds ResultScored, always after the
 * pair's ReplayRecorded (version 1 or later). Read once a run, by the worker that holds the claim.
 */
async function anyPairScored(store: EventStore, run: RunContext): Promise<boolean> {
  const pairs = run.state.pairs;
  for (let from = 0; from < pairs.length; from += SCORED_CHECK_BATCH) {
    const versions = await Promise.all(pairs.slice(from, from + SCORED_CHECK_BATCH).map((pair) => store.streamVersion(resultStream(run.runId, pair.n))));
    if (versions.some((version) => version !== null && version >= 1n)) return true;
  }
  return false;
}

/**
 * The evaluation names the run that defined its KPIs only while that run holds its claim: a
 * worker whose claim was taken over (it outlived the judge timeout plus the margin) stops here,
 * so its successor's outcome, not this one, is the run's.
 */
async function mustHoldClaim(deps: KpiDeps, run: RunContext, claimId: string): Promise<void> {
  const current = await deps.runs.get(run.runId);
  if (current?.state.kpiAuthoring || current?.state.kpiClaim?.claim_id !== claimId) {
    throw new Error(`run ${run.runId}: its KPI authoring was taken over by another worker`);
  }
}

/** The evaluation's KPIs that the run does not already have, as the run's settlement. */
function kpisOf(run: RunContext, evaluation: EvaluationState, exchange: Authoring["judge_exchange"], outcome: "defined" | "reused" = "reused"): Authoring {
  const frozen = new Set(run.started.criteria.map((criterion) => criterion.key));
  const criteria = evaluation.kpis.filter((kpi) => !frozen.has(kpi.key));
  if (criteria.length === 0) return failed(KPI_UNUSABLE_MESSAGE, "every KPI the evaluation holds has a key the run's criteria already have", exchange);
  return { outcome, criteria, kpi_provenance: evaluation.kpiProvenance, message: null, reason: null, judge_exchange: exchange };
}

function failed(message: string, reason: string | null, exchange: Authoring["judge_exchange"]): Authoring {
  return { outcome: "failed", criteria: [], kpi_provenance: null, message, reason, judge_exchange: exchange };
}

function commandOptions(deps: KpiDeps, run: RunContext) {
  return { clock: deps.clock, ids: deps.ids, context: runEventContext(run, deps.actor) };
}

/**
 * A run that ended meanwhile (failed by the watchdog) needs nothing settled; any other refusal (a
 * lost write, a claim taken over) fails the job, which is redelivered and finds the run settled.
 */
async function ended(deps: KpiDeps, run: RunContext, error: unknown): Promise<void> {
  if (!(error instanceof DomainError) || error.code !== "conflict") throw error;
  const current = await deps.runs.get(run.runId);
  if (current?.state.status === "running") throw error;
}

/** What the platform holds of the agent's instructions: a run's `metadata.instructions`, when a host gave it. */
function instructionsOf(run: RunContext): string | null {
  const given = run.started.metadata.instructions;
  return typeof given === "string" ? given : null;
}

/**
 * What the evaluation is for, as the platform holds it (no description field exists): the agent,
 * the evaluation's name, the tools the agent had and the first few tasks of the run.
 */
function descriptionOf(run: RunContext, evaluation: EvaluationState): string {
  const started = run.started;
  return kpiDescription({
    agent: started.agent ?? evaluation.agent ?? "the agent",
    evaluation: evaluation.name ?? started.evaluation_id,
    tools: started.tools.map((tool) => tool.name),
    prompts: started.scenarios.map((scenario) => scenario.prompt),
  });
}

/**
 * At most RECENT_RUNS_MAX completed runs of the evaluation numbered before this one, newest first: their
 * pass counts and faults as their RunCompleted recorded them (one backwards read a run).
 */
async function recentRunsOf(store: EventStore, evaluation: EvaluationState, number: number): Promise<RecentRun[]> {
  const earlier = evaluation.runs.filter((run) => run.number < number && run.origin !== "imported").sort((a, b) => b.number - a.number);
  const recent: RecentRun[] = [];
  for (const scheduled of earlier) {
    if (recent.length >= RECENT_RUNS_MAX) break;
    const [last] = await store.readStream(runStream(scheduled.runId), { direction: "backwards", limit: 1 });
    if (last?.type !== "RunCompleted") continue;
    const completed = eventRegistry.parseRecorded(last);
    if (completed.type !== "RunCompleted") continue;
    recent.push({ number: scheduled.number, scored: completed.data.scored, passed: completed.data.passed, faults: faultsOf(completed.data.summary) });
  }
  return recent;
}

/** Faults summed over the models of a completed run's summary (summary_by_model[*].faults). */
function faultsOf(summary: Record<string, unknown>): Record<string, number> {
  const byModel = summary.summary_by_model;
  const faults: Record<string, number> = {};
  if (byModel === null || typeof byModel !== "object") return faults;
  for (const model of Object.values(byModel as Record<string, { faults?: unknown }>)) {
    const counts = model?.faults;
    if (counts === null || typeof counts !== "object") continue;
    for (const [fault, n] of Object.entries(counts as Record<string, unknown>)) {
      if (typeof n === "number" && Number.isFinite(n) && n > 0) faults[fault] = (faults[fault] ?? 0) + n;
    }
  }
  return faults;
}
