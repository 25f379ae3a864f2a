// The evaluation as its stream folds: definition, suite, archive flag and run numbering.
import type { DomainEvent, EventData } from "../../events/registry.js";
import type { JudgeExchangeData } from "../../events/runEvents.js";
import type { CatalogReference, CriterionData, EvaluationScenario, JudgeData, KpiProvenance } from "../../events/shared.js";

export interface ScheduledRun {
  runId: string;
  number: number;
  origin: "engine" | "external" | "imported";
}

export interface EvaluationState {
  exists: boolean;
  evaluationId: string | null;
  tenant: string | null;
  agent: string | null;
  name: string | null;
  judge: JudgeData;
  criteria: CriterionData[];
  /**
   * The KPIs its judge defined (judge_defined, KpisDefined): kept apart from `criteria`, which a
   * catalog sync replaces, so a sync does not drop them; a run scores with both (freezeRun).
   */
  kpis: CriterionData[];
  kpiProvenance: KpiProvenance | null;
  /** The run whose judge defined the KPIs, and its define call (KpisDefined; null: none yet, or not carried). */
  kpiDefinition: { runId: string; exchange: JudgeExchangeData | null } | null;
  /** How many times the KPIs were cleared (KpisCleared): a define call asked before the last one records nothing. */
  kpiClears: number;
  threshold: number;
  /** A missing expected judge grade fails its pair (EvaluationCreated; frozen into each RunStarted). */
  requireJudgeScores: boolean;
  compareModels: string[];
  catalog: CatalogReference | null;
  /** Which import of its catalog the evaluation was last synced to (CatalogSetSynced). */
  catalogImport: number | null;
  /** Keys a catalog sync disabled because the set dropped them (CatalogSetSynced). */
  catalogDropped: string[];
  external: EventData<"EvaluationCreated">["external"];
  scenarios: EvaluationScenario[];
  archived: boolean;
  runs: ScheduledRun[];
}

export function initialEvaluationState(): EvaluationState {
  return {
    exists: false,
    evaluationId: null,
    tenant: null,
    agent: null,
    name: null,
    judge: { kind: "rules", model: null },
    criteria: [],
    kpis: [],
    kpiProvenance: null,
    kpiDefinition: null,
    kpiClears: 0,
    threshold: 0.7,
    requireJudgeScores: false,
    compareModels: [],
    catalog: null,
    catalogImport: null,
    catalogDropped: [],
    external: null,
    scenarios: [],
    archived: false,
    runs: [],
  };
}

/** Replaces records by key, appending new ones, keeping everything else as it was. */
function upsert(current: EvaluationScenario[], records: EvaluationScenario[]): EvaluationScenario[] {
  const byKey = new Map(records.map((r) => [r.key, r]));
  const kept = current.map((s) => byKey.get(s.key) ?? s);
  const known = new Set(current.map((s) => s.key));
  return [...kept, ...records.filter((r) => !known.has(r.key))];
}

export function evolveEvaluation(state: EvaluationState, event: DomainEvent): EvaluationState {
  switch (event.type) {
    case "EvaluationCreated": {
      const d = event.data;
      return {
        ...state,
        exists: true,
        evaluationId: d.evaluation_id,
        tenant: d.tenant,
        agent: d.agent,
        name: d.name,
        judge: d.judge,
        criteria: d.criteria,
        threshold: d.threshold,
        requireJudgeScores: d.require_judge_scores,
        compareModels: d.compare_models,
        catalog: d.catalog,
        external: d.external,
      };
    }
    case "ScenariosReplaced": {
      const removed = new Set(event.data.removed);
      const disabled = new Set(event.data.disabled);
      const kept = state.scenarios
        .filter((s) => !removed.has(s.key))
        .map((s) => (disabled.has(s.key) ? { ...s, enabled: false } : s));
      return { ...state, scenarios: upsert(kept, event.data.scenarios) };
    }
    case "CatalogSetSynced":
      return { ...state, catalog: event.data.catalog, catalogImport: event.data.catalog_import ?? state.catalogImport, catalogDropped: event.data.dropped ?? state.catalogDropped, judge: event.data.judge, criteria: event.data.criteria };
    case "ScenariosMerged":
      return { ...state, scenarios: upsert(state.scenarios, event.data.scenarios) };
    case "EvaluationArchived":
      return { ...state, archived: true };
    case "EvaluationUnarchived":
      return { ...state, archived: false };
    case "KpisDefined":
      return { ...state, kpis: event.data.criteria, kpiProvenance: event.data.kpi_provenance, kpiDefinition: { runId: event.data.run_id, exchange: event.data.judge_exchange } };
    case "KpisCleared":
      return { ...state, kpis: [], kpiProvenance: null, kpiDefinition: null, kpiClears: state.kpiClears + 1 };
    case "RunScheduled":
      return { ...state, runs: [...state.runs, { runId: event.data.run_id, number: event.data.number, origin: event.data.origin }] };
    default:
      return state;
  }
}
