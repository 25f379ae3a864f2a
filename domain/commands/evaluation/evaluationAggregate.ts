// Stream `evaluation-<id>`: creation, the scenario suite (replace / merge), archiving, and the
// numbering of runs. Deciders are pure; the time comes from the handler's clock.
import type { Aggregate } from "../aggregate.js";
import { DomainError } from "../../events/domainError.js";
import type { EventInput } from "../../events/registry.js";
import { storableJsonOf } from "../../events/storableText.js";
import type { CriterionData } from "../../events/shared.js";
import {
  EvaluationCommand,
  type CreateEvaluation,
  type DefineKpis,
  type ImportReport,
  type MergeScenarios,
  type ReplaceScenarios,
  SCENARIO_LIMIT,
  type StartRun,
  type SyncCatalogSet,
} from "./evaluationCommands.js";
import { evolveEvaluation, initialEvaluationState, type EvaluationState } from "./evaluationState.js";
import { planMerge, planReplace, replaceChangesAnything, stableJson, type ReplacePlan } from "./scenarioChanges.js";
import { freezeRun } from "./selection.js";
import { reportScenarios } from "./reportScenarios.js";
import { criteriaProblem, EVALUATION_CRITERION_TYPES } from "../../scoring/criterionConfig.js";
import { KPI_MAX, KPI_MIN } from "../../judge/kpis.js";
import { mustBeKpis } from "../kpiRules.js";
import { decideClearKpis } from "./kpiClearing.js";

export const CRITERION_TYPES = EVALUATION_CRITERION_TYPES;

/** Criteria an evaluation gets when created without any (reference-platform feature 21). */
export const DEFAULT_CRITERIA: CriterionData[] = [
  { key: "response_present", type: "response_present", config: {} },
  { key: "response_length", type: "min_length", config: { chars: 40 } },
  { key: "latency", type: "max_latency_ms", config: { ms: 5000 } },
  { key: "token_budget", type: "token_budget", config: { output_tokens: 1000 } },
];

function mustExist(state: EvaluationState, evaluationId: string): void {
  if (!state.exists) throw DomainError.notFound(`evaluation ${evaluationId} not found`, "evaluation_id");
}

// Decides the evaluation stream only: createEvaluation (commands/createEvaluation.ts), the one
// way to create, reserves the name for the agent on its own stream before appending these.
function decideCreate(state: EvaluationState, command: CreateEvaluation): EventInput[] {
  if (state.exists) throw DomainError.conflict(`evaluation ${command.evaluation_id} already exists`, "evaluation_id");
  const problem = criteriaProblem(command.criteria);
  if (problem) throw DomainError.validation(`${problem.field}: ${problem.rule}`, problem.field);
  const { type: _type, scenarios, ...definition } = command;
  const criteria = command.criteria.length ? command.criteria : DEFAULT_CRITERIA;
  const events: EventInput[] = [{ type: "EvaluationCreated", data: { ...definition, criteria } }];
  if (scenarios.length) {
    const plan = planReplace([], scenarios, "destroy", Number.MAX_SAFE_INTEGER);
    events.push({ type: "ScenariosReplaced", data: { on_removed: "destroy", ...plan } });
  }
  return events;
}

function decideReplace(state: EvaluationState, command: ReplaceScenarios): EventInput[] {
  mustExist(state, command.evaluation_id);
  const plan = planReplace(state.scenarios, command.scenarios, command.on_removed, command.limit);
  // Re-materializing an unchanged catalog set changes nothing, so it records nothing.
  if (!replaceChangesAnything(plan)) return [];
  return [{ type: "ScenariosReplaced", data: { on_removed: command.on_removed, ...plan } }];
}

/**
 * Catalog re-materialization (reference-platform §3 rule 10): the set is the whole suite, and a
 * scenario it no longer names is disabled, never destroyed, so past results keep their rows.
 * Surviving keys keep their record and enabled flag (planReplace), but for a key the set had
 * dropped and names again, which is enabled again. A sync that changes nothing
 * (the same digest, suite, judge and criteria) records nothing.
 */
function decideSync(state: EvaluationState, command: SyncCatalogSet): EventInput[] {
  if (state.tenant !== command.tenant) mustExist(initialEvaluationState(), command.evaluation_id);
  // Two imports' syncs racing: the one that read the older import must not put its suite back
  // over the newer one's. A newer import is recorded even when it changes nothing here (an import
  // that put back what the evaluation held), so an older sync landing after it is still refused.
  const ordered = command.catalog_import !== null && state.catalogImport !== null;
  if (ordered && command.catalog_import! < state.catalogImport!) return [];
  const given = command.criteria ?? state.criteria;
  const problem = criteriaProblem(given);
  if (problem) throw DomainError.validation(`${problem.field}: ${problem.rule}`, problem.field);
  const criteria = given.length ? given : DEFAULT_CRITERIA;
  // A scenario the set dropped (so a sync disabled it) and names again runs again, unless the
  // set says otherwise; one disabled by hand stays disabled, as replaceScenarios keeps it.
  const named = new Set(command.scenarios.map((s) => s.key));
  const back = new Set(state.catalogDropped.filter((key) => named.has(key)));
  const inputs = command.scenarios.map((s) => (back.has(s.key) && s.enabled === undefined ? { ...s, enabled: true } : s));
  const plan: ReplacePlan = inputs.length
    ? planReplace(state.scenarios, inputs, "disable", command.limit)
    : { scenarios: [], added: [], updated: [], unchanged: [], removed: [], disabled: state.scenarios.filter((s) => s.enabled).map((s) => s.key) };
  const events: EventInput[] = [];
  if (replaceChangesAnything(plan)) events.push({ type: "ScenariosReplaced", data: { on_removed: "disable", ...plan } });
  const dropped = [...new Set([...state.catalogDropped.filter((key) => !named.has(key)), ...plan.disabled])];
  const definition = { catalog: command.catalog, judge: command.judge ?? state.judge, criteria, dropped };
  const newer = ordered && command.catalog_import! > state.catalogImport!;
  const held = { catalog: state.catalog, judge: state.judge, criteria: state.criteria, dropped: state.catalogDropped };
  if (newer || stableJson(definition) !== stableJson(held)) {
    events.push({ type: "CatalogSetSynced", data: { ...definition, catalog_import: command.catalog_import } });
  }
  return events;
}

function decideMerge(state: EvaluationState, command: MergeScenarios): EventInput[] {
  mustExist(state, command.evaluation_id);
  const changes = planMerge(state.scenarios, command.scenarios, command.limit);
  // Only added and updated records change state; unchanged keys are listed for the caller.
  const touched = new Set([...changes.added, ...changes.updated]);
  return [{ type: "ScenariosMerged", data: { limit: command.limit, ...changes, scenarios: changes.scenarios.filter((s) => touched.has(s.key)) } }];
}

function unarchive(state: EvaluationState, reason: "run_started" | "report_imported"): EventInput[] {
  return state.archived ? [{ type: "EvaluationUnarchived", data: { reason } }] : [];
}

function decideStartRun(state: EvaluationState, command: StartRun): EventInput[] {
  mustExist(state, command.evaluation_id);
  if (state.runs.some((r) => r.runId === command.run_id)) {
    // A keyed start decided again (its own retry won the race, or the run stream's append was
    // lost after this one): it keeps the number it took, and the run stream says whether the
    // arguments are the same.
    if (command.idempotency_key !== null) return [];
    throw DomainError.conflict(`run ${command.run_id} already exists`, "run_id");
  }
  const number = state.runs.length + 1;
  freezeRun(state, command, number); // refuses an empty selection or a model under two labels before numbering
  return [
    ...unarchive(state, "run_started"),
    { type: "RunScheduled", data: { run_id: command.run_id, number, origin: command.external ? "external" : "engine" } },
  ];
}

/**
 * An imported report numbers its run and upserts its scenarios (reportScenarios.ts) in the one
 * append, before RunScheduled: the run stream is written only after this, so a run imported here
 * always finds its scenarios, and a retry (which finds the run scheduled) upserts nothing again.
 * A report of another agent is refused by the run stream (runAggregate decideImport), after the
 * report's own checks, before either stream is written.
 */
function decideImportReport(state: EvaluationState, command: ImportReport): EventInput[] {
  mustExist(state, command.evaluation_id);
  const scheduled = state.runs.find((r) => r.runId === command.run_id);
  if (scheduled) {
    if (scheduled.origin !== "imported") throw DomainError.conflict("run_id already exists with a different report", "run_id");
    return []; // a retried import keeps the number it took the first time, and its scenarios
  }
  return [
    ...upsertReportScenarios(state, command),
    ...unarchive(state, "report_imported"),
    { type: "RunScheduled", data: { run_id: command.run_id, number: state.runs.length + 1, origin: "imported" } },
  ];
}

/** ScenariosMerged as a merge of the report's scenarios records it; nothing when none is added or changed. */
function upsertReportScenarios(state: EvaluationState, command: ImportReport): EventInput[] {
  const merge: MergeScenarios = { type: "MergeScenarios", evaluation_id: command.evaluation_id, scenarios: reportScenarios(command.report, state.scenarios), limit: SCENARIO_LIMIT };
  const [merged] = decideMerge(state, merge);
  const data = merged.data as { added: string[]; updated: string[] };
  return data.added.length + data.updated.length > 0 ? [merged] : [];
}

/**
 * A judge_defined evaluation's KPIs, once: when they are already defined (another run's judge
 * answered first) nothing is recorded and the caller reuses the recorded ones. Each becomes an
 * llm_judge criterion naming the judge and the time; one may not take a criterion's key. A call
 * asked before the KPIs were last cleared (clears_seen) defines none.
 */
function decideDefineKpis(state: EvaluationState, command: DefineKpis, now: Date): EventInput[] {
  mustExist(state, command.evaluation_id);
  if (state.judge.kind !== "judge_defined") {
    throw DomainError.conflict(`evaluation ${command.evaluation_id} is judged ${state.judge.kind}; only a judge_defined evaluation has its KPIs defined`, "evaluation_id");
  }
  if (state.kpiProvenance) return [];
  if (command.clears_seen !== undefined && command.clears_seen < state.kpiClears) {
    throw DomainError.conflict("the evaluation's KPIs were cleared while its judge was defining them; this run scores on its own criteria, and the next run asks the judge again", "evaluation_id");
  }
  mustBeKpis(command.criteria, state.criteria, { min: KPI_MIN, max: KPI_MAX });
  const definedAt = now.toISOString();
  const criteria = command.criteria.map((c) => ({ key: c.key, type: c.type, config: c.config, defined_by: command.judge, defined_at: definedAt }));
  const data = { run_id: command.run_id, criteria, kpi_provenance: { judge: command.judge, defined_at: definedAt }, judge_exchange: command.judge_exchange };
  // The judge's answer is its text: stored as a run's KpiAuthoringRecorded stores it.
  return [{ type: "KpisDefined", data: storableJsonOf(data) }];
}

export const evaluationAggregate: Aggregate<EvaluationState, EvaluationCommand> = {
  name: "evaluation",
  commandSchema: EvaluationCommand,
  initialState: initialEvaluationState,
  evolve: evolveEvaluation,

  decide(state, command, { now }) {
    switch (command.type) {
      case "CreateEvaluation":
        return decideCreate(state, command);
      case "ReplaceScenarios":
        return decideReplace(state, command);
      case "SyncCatalogSet":
        return decideSync(state, command);
      case "MergeScenarios":
        return decideMerge(state, command);
      case "ArchiveEvaluation":
        mustExist(state, command.evaluation_id);
        if (command.archived === state.archived) return [];
        return command.archived
          ? [{ type: "EvaluationArchived", data: { archived_at: now.toISOString() } }]
          : [{ type: "EvaluationUnarchived", data: { reason: "requested" } }];
      case "StartRun":
        return decideStartRun(state, command);
      case "ImportReport":
        return decideImportReport(state, command);
      case "DefineKpis":
        return decideDefineKpis(state, command, now);
      case "ClearKpis":
        return decideClearKpis(state, command, now);
    }
  },

  // Every evaluation decision reads only this stream, so a lost race is re-decided on fresh
  // state: a merge re-checks its limit, a run takes the next free number, and a concurrent
  // create of the same id ends in the decider's own "already exists".
  retryOnConflict: () => true,
};
