// Stream `run-<id>`: started with a frozen selection, then the verdict and the comparison, then
// exactly one end (RunCompleted or RunFailed). Terminal states are final.
import type { Aggregate, DecideContext } from "../aggregate.js";
import { pairName } from "../aggregate.js";
import { DomainError } from "../../events/domainError.js";
import type { EventInput } from "../../events/registry.js";
import { storableJsonOf } from "../../events/storableText.js";
import type { ImportReport, StartRun } from "../evaluation/evaluationCommands.js";
import type { EvaluationState } from "../evaluation/evaluationState.js";
import { freezeRun } from "../evaluation/selection.js";
import { KPI_MAX } from "../../judge/kpis.js";
import { mustBeKpis } from "../kpiRules.js";
import { checkImportedReport } from "./importedReport.js";
import { startRequestDigest } from "./keyedRunId.js";
import { latestRelease, type AgentState } from "../agent/agentAggregate.js";
import { RunCommand, type ClaimKpiAuthoring, type CompleteRun, type RecordKpiAuthoring, type RejectPair } from "./runCommands.js";
import { findPair, initialRunState, evolveRun, type RunState } from "./runState.js";

/**
 * Starting or importing a run reads the evaluation it belongs to (already numbered there); a
 * start without a release also reads the evaluation's agent, whose latest release it pins.
 */
export interface RunContext {
  evaluation?: EvaluationState;
  agent?: AgentState;
}

function mustRun(state: RunState, runId: string): void {
  if (state.status === "none") throw DomainError.notFound(`run ${runId} not found`, "run_id");
  if (state.status !== "running") throw DomainError.conflict(`run ${runId} is ${state.status}`, "run_id");
}

function scheduledNumber(context: RunContext, command: StartRun | ImportReport): { evaluation: EvaluationState; number: number } {
  const evaluation = context.evaluation;
  const scheduled = evaluation?.runs.find((r) => r.runId === command.run_id);
  if (!evaluation || !scheduled) {
    throw DomainError.conflict(`run ${command.run_id} was not scheduled on evaluation ${command.evaluation_id}`, "run_id");
  }
  return { evaluation, number: scheduled.number };
}

/**
 * A keyed start whose run already exists: the same key with the same arguments is that run
 * (nothing written, nothing metered); with other arguments, a conflict naming the key, as no
 * other run may be started under it and the first one is not what was asked.
 */
function decideKeyedRetry(state: RunState, command: StartRun, key: string): EventInput[] {
  const recorded = state.started?.idempotency;
  if (recorded?.key === key && recorded.request_digest === startRequestDigest(command)) return [];
  const run = state.started ? `run #${state.started.number} (${command.run_id})` : `run ${command.run_id}`;
  throw DomainError.conflict(
    `idempotency key ${JSON.stringify(key)} already started ${run} of evaluation ${command.evaluation_id} with other arguments (selection, external, release, tools or metadata): send the same arguments to get that run, or a new key to start another`,
    "idempotency_key",
  );
}

function decideStart(state: RunState, command: StartRun, context: RunContext): EventInput[] {
  if (state.status !== "none") {
    if (command.idempotency_key !== null) return decideKeyedRetry(state, command, command.idempotency_key);
    throw DomainError.conflict(`run ${command.run_id} already exists`, "run_id");
  }
  const { evaluation, number } = scheduledNumber(context, command);
  // A release named with the start is kept; none: the agent's latest recorded release, if any
  // (reference-platform §1 #39: a run pins the agent's latest version at its creation).
  const release = command.release ?? (context.agent ? latestRelease(context.agent) : null);
  return [{ type: "RunStarted", data: { ...freezeRun(evaluation, command, number), release } }];
}

function decideImport(state: RunState, command: ImportReport, context: RunContext): EventInput[] {
  // The report stored under this run, re-sent unchanged into the same evaluation: a no-op, before
  // any check. A report stored under older, looser rules (a threshold of 70 before the 0-1 rule)
  // must still answer its retries as a duplicate after an upgrade, not VALIDATION and then, once
  // "fixed", CONFLICT. (Another tenant's import never gets here: importReport keys the run by
  // tenant and the envelope's run_id.)
  if (state.imported && state.evaluationId === command.evaluation_id && state.digest === command.digest) return [];
  // Anything else, whatever the run_id: a report this build refuses is the same VALIDATION naming
  // its field under a run_id imported before, not a conflict that hides what to fix.
  checkImportedReport(command.report);
  if (state.status !== "none") {
    // Into another evaluation it is not that evaluation's run, so the caller is not told it
    // imported it; other content under the run_id is a conflict.
    const shown = command.host_run_id ?? command.run_id;
    if (state.imported && state.evaluationId !== command.evaluation_id) throw DomainError.conflict(`run ${shown} already exists`, "run_id");
    throw DomainError.conflict("run_id already exists with a different report", "run_id");
  }
  const { evaluation, number } = scheduledNumber(context, command);
  // Reference-platform §1 #30 files a report under its own agent: one of another agent's would
  // head this agent's history and put its scenarios in this agent's suite.
  if (command.agent_name !== evaluation.agent) {
    throw DomainError.conflict(
      `the report is for agent ${JSON.stringify(command.agent_name)} but evaluation ${command.evaluation_id} is for agent ${JSON.stringify(evaluation.agent)}`,
      "agent_name",
    );
  }
  const { type: _type, ...data } = command;
  return [{ type: "ReportImported", data: { ...data, number } }];
}

/** Which selected pairs the results miss, which they name outside the selection, which twice. */
export function pairProblems(state: RunState, results: CompleteRun["results"]) {
  const counts = new Map<string, number>();
  const unknown: string[] = [];
  for (const r of results) {
    const name = pairName(r.scenario_key, r.model_label);
    if (!findPair(state, r.scenario_key, r.model_label)) {
      if (!unknown.includes(name)) unknown.push(name);
      continue;
    }
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const names = state.pairs.map((p) => pairName(p.scenarioKey, p.modelLabel));
  return {
    missing: names.filter((n) => !counts.has(n)),
    unknown,
    duplicate: names.filter((n) => (counts.get(n) ?? 0) > 1),
  };
}

function describeProblems(problems: ReturnType<typeof pairProblems>): string {
  return (["missing", "unknown", "duplicate"] as const)
    .filter((k) => problems[k].length)
    .map((k) => `${k} ${problems[k].join(", ")}`)
    .join("; ");
}

/** The words an external run fails in when its host broke the contract (the pairs named). */
function externalRunFailed(problems: ReturnType<typeof pairProblems>): EventInput {
  const message = `The external run did not report every selected scenario and model exactly once: ${describeProblems(problems)}`;
  return { type: "RunFailed", data: { message, pairs: problems } };
}

/**
 * A refused result fails a running external run once: on a lost race the command is decided
 * again, finds the run ended and appends nothing. A run already ended stays as it is.
 */
function decideRejectPair(state: RunState, command: RejectPair): EventInput[] {
  if (state.status === "none") throw DomainError.notFound(`run ${command.run_id} not found`, "run_id");
  if (state.status !== "running") return [];
  if (!state.external) throw DomainError.conflict(`run ${command.run_id} is not external; a pair its workers refuse does not fail it`, "run_id");
  const name = pairName(command.scenario_key, command.model_label);
  const selected = findPair(state, command.scenario_key, command.model_label) !== undefined;
  if (selected !== (command.problem === "duplicate")) {
    throw DomainError.validation(`pair ${name} is ${selected ? "" : "not "}in run ${command.run_id}'s selection, so it is not ${command.problem}`, "problem");
  }
  return [externalRunFailed({ missing: [], unknown: command.problem === "unknown" ? [name] : [], duplicate: command.problem === "duplicate" ? [name] : [] })];
}

function decideComplete(state: RunState, command: CompleteRun): EventInput[] {
  mustRun(state, command.run_id);
  const problems = pairProblems(state, command.results);
  const broken = problems.missing.length + problems.unknown.length + problems.duplicate.length > 0;
  // A host that did not report every selected pair exactly once fails its run, naming them.
  if (broken && state.external) return [externalRunFailed(problems)];
  if (broken) {
    throw DomainError.conflict(`run ${command.run_id} cannot complete: ${describeProblems(problems)}`, "results");
  }
  const passed = command.results.filter((r) => r.pass).length;
  // The summary carries the verdict, so the judge's text: stored as VerdictRecorded stores it.
  return [{ type: "RunCompleted", data: { scored: command.results.length, passed, summary: storableJsonOf(command.summary) } }];
}

function mustBeJudgeDefined(state: RunState, runId: string): void {
  if (state.started?.judge.kind !== "judge_defined") {
    throw DomainError.conflict(`run ${runId} is judged ${state.started?.judge.kind ?? "rules"}; only a judge_defined run has its KPIs authored`, "run_id");
  }
}

/**
 * Claims the settling of a run's KPIs for one worker before it asks the judge (one define call a
 * run, whichever worker process its jobs reach). Nothing is recorded when they are settled, or
 * while another claim holds: the caller sees the holder in the state and waits. A claim past its
 * `expires_at` was left by a worker that crashed (it outlived the judge timeout plus a margin) and
 * is taken over.
 */
function decideKpiClaim(state: RunState, command: ClaimKpiAuthoring, now: Date): EventInput[] {
  mustRun(state, command.run_id);
  mustBeJudgeDefined(state, command.run_id);
  if (state.kpiAuthoring) return [];
  if (state.kpiClaim && now.getTime() < Date.parse(state.kpiClaim.expires_at)) return [];
  const expiresAt = new Date(now.getTime() + command.hold_ms).toISOString();
  return [{ type: "KpiAuthoringStarted", data: { claim_id: command.claim_id, expires_at: expiresAt } }];
}

/**
 * Settles a judge_defined run's KPIs once, before any pair is scored: a second settlement (a
 * worker that lost the race) records nothing, and its caller reads the first. Defined or reused
 * KPIs come with their provenance and no failure message; a failure with its message and none.
 */
function decideKpiAuthoring(state: RunState, command: RecordKpiAuthoring): EventInput[] {
  mustRun(state, command.run_id);
  mustBeJudgeDefined(state, command.run_id);
  if (state.kpiAuthoring) return [];
  // A worker whose claim was taken over (it outlived it) does not settle: its successor does.
  if (state.kpiClaim && command.claim_id !== state.kpiClaim.claim_id) {
    throw DomainError.conflict(`run ${command.run_id}'s KPI authoring is claimed by another worker`, "claim_id");
  }
  const failed = command.outcome === "failed";
  if (failed && (command.message === null || command.criteria.length > 0 || command.kpi_provenance !== null)) {
    throw DomainError.validation("a failed KPI authoring gives its message, and no criteria or provenance", "message");
  }
  if (!failed && (command.message !== null || command.criteria.length === 0 || command.kpi_provenance === null)) {
    throw DomainError.validation(`KPIs ${command.outcome} give their criteria and provenance, and no failure message`, "criteria");
  }
  if (!failed) mustBeSettledKpis(state, command);
  const { type: _t, run_id: _r, claim_id: _c, ...data } = command;
  // The judge's answer and reason are its text: stored as a verdict's are (U+FFFD for a NUL).
  return [{ type: "KpiAuthoringRecorded", data: storableJsonOf(data) }];
}

/**
 * A run's settled KPIs are the evaluation's that its frozen criteria lack (1 to KPI_MAX of them),
 * each naming the judge that defined it and when.
 */
function mustBeSettledKpis(state: RunState, command: RecordKpiAuthoring): void {
  mustBeKpis(command.criteria, state.started?.criteria ?? [], { min: 1, max: KPI_MAX });
  if (command.criteria.some((kpi) => !kpi.defined_by || !kpi.defined_at)) {
    throw DomainError.validation("criteria: a settled KPI names the judge that defined it and when (defined_by, defined_at)", "criteria");
  }
}

function decide(state: RunState, command: RunCommand, context: DecideContext & RunContext): EventInput[] {
  switch (command.type) {
    case "StartRun":
      return decideStart(state, command, context);
    case "ImportReport":
      return decideImport(state, command, context);
    case "RequestRunCompletion":
      if (state.status === "none") throw DomainError.notFound(`run ${command.run_id} not found`, "run_id");
      // Asked once; a repeat, or a request after the run ended, changes nothing.
      if (state.status !== "running" || state.completionRequested) return [];
      return [{ type: "RunCompletionRequested", data: { scored: command.scored } }];
    case "RecordVerdict": {
      mustRun(state, command.run_id);
      if (state.verdictRecorded) throw DomainError.conflict(`run ${command.run_id} already has a verdict`, "run_id");
      const winner = command.verdict?.winner;
      if (winner != null && !state.started?.models.some((m) => m.label === winner)) {
        throw DomainError.validation(`verdict winner "${winner}" is not a model of run ${command.run_id}`, "verdict.winner");
      }
      const { type: _t, run_id: _r, ...data } = command;
      // The rationale and the raw answer are the judge's text: a NUL or a lone surrogate in them
      // is recorded as U+FFFD (as a pair's judge exchanges are), never a reason to fail the run.
      return [{ type: "VerdictRecorded", data: storableJsonOf(data) }];
    }
    case "RecordComparison": {
      mustRun(state, command.run_id);
      if (state.comparisonRecorded) throw DomainError.conflict(`run ${command.run_id} already has a comparison`, "run_id");
      if ((state.started?.models.length ?? 0) < 2) throw DomainError.validation("a comparison needs at least two models", "comparison");
      const { type: _t, run_id: _r, ...data } = command;
      return [{ type: "ComparisonRecorded", data }];
    }
    case "CompleteRun":
      return decideComplete(state, command);
    case "FailRun":
      mustRun(state, command.run_id);
      return [{ type: "RunFailed", data: { message: command.message } }];
    case "RecordRedrive": {
      if (state.status === "none") throw DomainError.notFound(`run ${command.run_id} not found`, "run_id");
      // A run that ended needs no jobs: nothing is recorded, and the caller publishes nothing.
      if (state.status !== "running") return [];
      const { type: _t, run_id: _r, ...data } = command;
      return [{ type: "RunRedriven", data }];
    }
    case "RejectPair":
      return decideRejectPair(state, command);
    case "ClaimKpiAuthoring":
      return decideKpiClaim(state, command, context.now);
    case "RecordKpiAuthoring":
      return decideKpiAuthoring(state, command);
  }
}

export const runAggregate: Aggregate<RunState, RunCommand, RunContext> = {
  name: "run",
  commandSchema: RunCommand,
  initialState: initialRunState,
  evolve: evolveRun,
  decide,
  // Re-deciding on fresh state is always safe: a lost completion race ends in "run is complete".
  retryOnConflict: () => true,
};
