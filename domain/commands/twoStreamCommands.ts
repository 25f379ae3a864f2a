// StartRun and ImportReport touch two streams: the evaluation numbers the run (RunScheduled,
// after an import's scenarios, ScenariosMerged, in the same append; with an exact expected version, decided again on a lost race so numbers never repeat: after a
// short jittered pause, as many starts may race on one evaluation, contention.ts), then the run
// stream records RunStarted / ReportImported with "no stream". Both are decided, and encoded as
// the store will take them, from one read of each stream before either is written: a run the
// run stream refuses (a report it cannot read, an event over the size limit) writes nothing, so
// it never leaves a scheduled run that does not start. Should the process die between the two
// appends (or the second fail for any reason but a lost race), the number stays taken and the
// run never appears, since the read models make a run from its own stream's first event, not
// from RunScheduled (apps/projector, runNumbered): a gap in the numbering, never a duplicate,
// and never a PENDING run heading its evaluation. A retried import finds its number already
// taken and reuses it. A StartRun naming no release also reads the evaluation's agent stream
// (agentToPin), whose latest release the run pins; it appends nothing there.
//
// Metering (reference-platform #38, usage/runMeter.ts): a third stream, the tenant's usage for
// the month of the command's clock (read once per command, so one command meters one month),
// is read after the other two are decided and the meter decided (or refused by the plan) before
// anything is written; it is appended FIRST, with the exact version read, then the evaluation,
// then the run. So a run never exists unmetered, and a quota is never passed by concurrent
// starts: the one that loses the race on the usage stream decides its meter again from what was
// metered since (runMeter.ts, its own retries) and fits or is refused, having written nothing.
// The meter names its (kind, run_id), and one already metered is not metered again, so a retry
// (after a lost race on the evaluation, or a caller's retry of an import whose run never
// appeared) never meters twice. The window: should the process die after the meter and before
// RunStarted (or the evaluation refuse the retry, or its retries run out), the tenant is
// over-counted by that run, never under-counted. A caller's retry that crosses into the next
// month (UTC) reads another month's stream and meters the run there again.
//
// A caller's retry of a start: only a start sent with an idempotency key is one (run/keyedRunId.ts;
// without one every start is a new run, numbered and metered). Its run id is derived from (tenant,
// evaluation, key), so a retry after the run started is answered by the run stream (that run, or a
// CONFLICT for other arguments) with nothing written or metered; racing sends meter one run id
// once, the loser on the evaluation finds the run numbered and keeps that number, and the run
// stream's "no stream" append lets one RunStarted in, the other deciding again against it.
import type { EventStore } from "../ports/eventStore.js";
import { ownedByAnotherTenant, type TenantIndex } from "../ports/tenantIndex.js";
import { eventRegistry } from "../events/registry.js";
import { agentStream, evaluationStream, isValidId, runStream } from "../events/streams.js";
import { parseOrThrow } from "../events/zodIssues.js";
import { DomainError } from "../events/domainError.js";
import { ImportReport, ImportReportEnvelope, StartRun } from "./evaluation/evaluationCommands.js";
import { evaluationAggregate } from "./evaluation/evaluationAggregate.js";
import type { EvaluationState } from "./evaluation/evaluationState.js";
import { fold } from "./aggregate.js";
import { agentAggregate, type AgentState } from "./agent/agentAggregate.js";
import { appendBoth } from "./appendBoth.js";
import { CONTENDED_RETRIES, contendedPauses } from "./contention.js";
import { decideEvents, handleCommand, loadAggregate, type HandledCommand, type HandleOptions } from "./handleCommand.js";
import { importedRunId } from "./run/importedRunId.js";
import { keyedRunId } from "./run/keyedRunId.js";
import { runAggregate } from "./run/runAggregate.js";
import type { RunState } from "./run/runState.js";
import { assertExecutionEnabled, UNLIMITED_PLAN, type Plan } from "./usage/plan.js";
import { meterRun } from "./usage/runMeter.js";
import type { UsageState } from "./usage/usageAggregate.js";

export interface TwoStreamResult {
  evaluation: HandledCommand<EvaluationState>;
  run: HandledCommand<RunState>;
  /** The month's usage after the command; null when nothing was metered or read (a duplicate import). */
  usage: HandledCommand<UsageState> | null;
}

/** `plan`: the tenant's quotas (none: no limit, execution enabled). */
type Options = Omit<HandleOptions<never>, "decideContext"> & { plan?: Plan };

export async function startRun(store: EventStore, input: unknown, options: Options): Promise<TwoStreamResult> {
  const command = parseOrThrow(StartRun, { type: "StartRun", ...(input as object) }, "command is invalid");
  const runStreamId = runStream(command.run_id);
  if (command.idempotency_key !== null) {
    const keyed = keyedRunId(options.context.tenant, command.evaluation_id, command.idempotency_key);
    if (command.run_id !== keyed) throw DomainError.validation(`a start with an idempotency key runs as ${keyed} (keyedRunId of the tenant, evaluation and key), not ${command.run_id}`, "run_id");
    // The key's run already started: answered by the run stream alone (that run, or a conflict),
    // metering nothing and refusing nothing the plan says now, as the run was admitted.
    const existing = await loadAggregate(store, runAggregate, runStreamId, options.registry);
    if (existing.state.status !== "none") return startedBefore(store, command, runStreamId, options);
  }
  // Refused before any stream is read: the switch says no to every run (reference §3 rule 19).
  assertExecutionEnabled(options.plan ?? UNLIMITED_PLAN);
  return scheduleRun(store, command, runStreamId, options);
}

/** The run stream's answer to a keyed start or a retried import whose run exists, with the evaluation as it is. */
async function startedBefore(store: EventStore, command: StartRun | ImportReport, runStreamId: string, options: Options): Promise<TwoStreamResult> {
  const run = await handleCommand(store, runAggregate, runStreamId, command, options);
  const evaluationState = await loadAggregate(store, evaluationAggregate, evaluationStream(command.evaluation_id), options.registry);
  const evaluation: HandledCommand<EvaluationState> = {
    streamId: evaluationStream(command.evaluation_id),
    events: [],
    domainEvents: [],
    state: evaluationState.state,
    version: evaluationState.version,
    position: null,
    attempts: 0,
  };
  return { evaluation, run, usage: null };
}

/**
 * The meter, then RunScheduled on the evaluation, then the run stream's first event, all decided
 * before either of those is appended (the meter first). A race lost on the evaluation is decided
 * again, after a pause, from a new read of the evaluation, run and agent (the meter found already
 * metered); one lost on the run stream (the same run id,
 * concurrently) is the run aggregate's to answer.
 */
async function scheduleRun(store: EventStore, command: StartRun | ImportReport, runStreamId: string, options: Options): Promise<TwoStreamResult> {
  const registry = options.registry ?? eventRegistry;
  const evaluationStreamId = evaluationStream(command.evaluation_id);
  const retries = options.retries ?? CONTENDED_RETRIES;
  const pause = contendedPauses(runStreamId);
  // Read once: a command that is decided again near midnight still meters one month, once.
  const now = options.clock.now();
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1) await pause(attempt - 1);
    const evaluation = await loadAggregate(store, evaluationAggregate, evaluationStreamId, registry);
    const run = await loadAggregate(store, runAggregate, runStreamId, registry);
    const agent = await agentToPin(store, command, evaluation.state, options);
    const scheduling = decideEvents(evaluationAggregate, evaluation.state, command, { now, streamId: evaluationStreamId }, options);
    const scheduled = fold(evaluationAggregate, scheduling.domainEvents, evaluation.state);
    const starting = decideEvents(runAggregate, run.state, command, { now, streamId: runStreamId, evaluation: scheduled, agent }, options);
    const tenant = scheduled.tenant ?? options.context.tenant;
    // Appended here, before the evaluation: a race lost on the usage stream is decided again
    // there (the meter alone), not by this loop.
    const metered = await meterRun(store, command, { tenant, run_id: command.run_id, evaluation_id: command.evaluation_id, now, runEvents: starting.domainEvents }, options);
    const written = await appendBoth(
      store,
      { aggregate: evaluationAggregate, streamId: evaluationStreamId, loaded: evaluation, decision: scheduling },
      { aggregate: runAggregate, streamId: runStreamId, loaded: run, decision: starting },
      {
        command, attempt, retries,
        secondLost: (written) => handleCommand(store, runAggregate, runStreamId, command, { ...options, decideContext: { evaluation: written.state, agent } }),
      },
    );
    if (written) return { evaluation: written[0], run: written[1], usage: metered };
  }
}

/**
 * The agent whose latest release a start pins, read from the agent's own stream (a command reads
 * streams, never a read model): only for a StartRun that names no release, of an evaluation
 * that exists. Read with the evaluation, not appended to: a release recorded while the run starts
 * is pinned or not by which of the two was read first, as either order is a true history.
 */
async function agentToPin(store: EventStore, command: StartRun | ImportReport, evaluation: EvaluationState, options: Options): Promise<AgentState | undefined> {
  if (command.type !== "StartRun" || command.release !== null || !evaluation.exists || !evaluation.tenant || !evaluation.agent) return undefined;
  return (await loadAggregate(store, agentAggregate, agentStream(evaluation.tenant, evaluation.agent), options.registry)).state;
}

/**
 * Imports a version-1 envelope: `input.run_id` is the envelope's (the host's) run_id, any
 * storable text up to 255 characters (`nightly-2025.06.01`, `gh/1234/1`). The run is keyed by
 * (tenant, run_id): its stream id is importedRunId(tenant, run_id), so two tenants may send the
 * same run_id, each getting its own run, and neither learns that the other used it.
 * A run imported before tenant keying (stream `run-<run_id>`, no host_run_id, this tenant's)
 * keeps answering its retries, so an upgrade never turns a retry into a second run; such a
 * run_id was always a valid stream id, so only such a one is looked up there. With `tenants`, a
 * run_id that is another tenant's run is not looked up at all: reading that run (its report, as
 * large as it is) only to find it is not this tenant's made the import slower for run_ids other
 * tenants use, so timing told the caller which ones they were.
 */
export async function importReport(store: EventStore, input: unknown, options: Options & { tenants?: TenantIndex }): Promise<TwoStreamResult> {
  const envelope = parseOrThrow(ImportReportEnvelope, { type: "ImportReport", ...(input as object) }, "command is invalid");
  const hostRunId = envelope.run_id;
  const legacy = isValidId(hostRunId) && !(await ownedByAnotherTenant(options.tenants, "run", hostRunId, envelope.tenant))
    ? await loadAggregate(store, runAggregate, runStream(hostRunId), options.registry)
    : null;
  const isLegacy = legacy !== null && legacy.state.imported && legacy.state.hostRunId === null && legacy.state.tenant === envelope.tenant;
  const command: ImportReport = isLegacy
    ? { ...envelope, host_run_id: null }
    : { ...envelope, run_id: importedRunId(envelope.tenant, hostRunId), host_run_id: hostRunId };
  const runId = runStream(command.run_id);
  // An identical retry (or a conflicting one) is answered by the run stream alone.
  const existing = isLegacy && legacy ? legacy : await loadAggregate(store, runAggregate, runId, options.registry);
  if (existing.state.status !== "none") return startedBefore(store, command, runId, options);
  return scheduleRun(store, command, runId, options);
}
