// A run as its stream folds: the frozen selection, what has been recorded, and its end.
import type { DomainEvent, EventData } from "../../events/registry.js";

export interface RunPair {
  n: number;
  scenarioKey: string;
  modelLabel: string;
}

export interface RunState {
  status: "none" | "running" | "complete" | "failed";
  runId: string | null;
  evaluationId: string | null;
  tenant: string | null;
  external: boolean;
  imported: boolean;
  /** Imported runs: the report digest that identifies their content. */
  digest: string | null;
  /** Imported runs: the envelope's run_id (null: runId is the envelope's, imported before tenant keying). */
  hostRunId: string | null;
  started: EventData<"RunStarted"> | null;
  pairs: RunPair[];
  completionRequested: boolean;
  verdictRecorded: boolean;
  comparisonRecorded: boolean;
  failure: string | null;
  /** A judge_defined run that started without KPIs: how they were settled (null: not yet, or not needed). */
  kpiAuthoring: EventData<"KpiAuthoringRecorded"> | null;
  /** Who holds the settling of the KPIs, until when (KpiAuthoringStarted; null: nobody yet). */
  kpiClaim: EventData<"KpiAuthoringStarted"> | null;
}

export function initialRunState(): RunState {
  return {
    status: "none",
    runId: null,
    evaluationId: null,
    tenant: null,
    external: false,
    imported: false,
    digest: null,
    hostRunId: null,
    started: null,
    pairs: [],
    completionRequested: false,
    verdictRecorded: false,
    comparisonRecorded: false,
    failure: null,
    kpiAuthoring: null,
    kpiClaim: null,
  };
}

/** Pair n is scenario floor(n / models) x model n % models: scenario-major, in run order. */
export function selectionPairs(scenarioKeys: readonly string[], modelLabels: readonly string[]): RunPair[] {
  return scenarioKeys.flatMap((scenarioKey, i) =>
    modelLabels.map((modelLabel, j) => ({ n: i * modelLabels.length + j, scenarioKey, modelLabel })),
  );
}

// Pairs by scenario and model, per pairs array (never changed once built): a worker locates
// every replay and score of a 1,000 x 3 run, and a scan per lookup made that quadratic.
const pairIndexes = new WeakMap<readonly RunPair[], Map<string, RunPair>>();

export function findPair(state: RunState, scenarioKey: string, modelLabel: string): RunPair | undefined {
  let index = pairIndexes.get(state.pairs);
  if (!index) {
    index = new Map();
    for (const p of state.pairs) {
      const key = `${p.scenarioKey}\u0000${p.modelLabel}`;
      if (!index.has(key)) index.set(key, p);
    }
    pairIndexes.set(state.pairs, index);
  }
  return index.get(`${scenarioKey}\u0000${modelLabel}`);
}

export function evolveRun(state: RunState, event: DomainEvent): RunState {
  switch (event.type) {
    case "RunStarted": {
      const d = event.data;
      const pairs = selectionPairs(
        d.scenarios.map((s) => s.key),
        d.models.map((m) => m.label),
      );
      return { ...state, status: "running", runId: d.run_id, evaluationId: d.evaluation_id, tenant: d.tenant, external: d.external, started: d, pairs };
    }
    case "RunCompletionRequested":
      return { ...state, completionRequested: true };
    case "KpiAuthoringStarted":
      return { ...state, kpiClaim: event.data };
    case "KpiAuthoringRecorded":
      return { ...state, kpiAuthoring: event.data };
    case "VerdictRecorded":
      return { ...state, verdictRecorded: true };
    case "ComparisonRecorded":
      return { ...state, comparisonRecorded: true };
    case "RunCompleted":
      return { ...state, status: "complete" };
    case "RunFailed":
      return { ...state, status: "failed", failure: event.data.message };
    case "ReportImported": {
      const d = event.data;
      return { ...state, status: "complete", runId: d.run_id, evaluationId: d.evaluation_id, tenant: d.tenant, imported: true, digest: d.digest, hostRunId: d.host_run_id };
    }
    default:
      return state;
  }
}
