// Which projection each event type feeds.
import type { Sql } from "../db/sql.js";
import type { Batch, Envelope } from "./batch.js";
import { agentReleaseRecorded } from "./agentProjection.js";
import { catalogImported, catalogRemoved } from "./catalogProjection.js";
import { catalogSetSynced, evaluationArchived, evaluationCreated, evaluationUnarchived, kpisCleared, kpisDefined, scenariosMerged, scenariosReplaced } from "./evaluationProjection.js";
import { reportImported } from "./importedRunProjection.js";
import { replayRecorded, resultScored } from "./resultProjection.js";
import { usageMetered } from "./usageProjection.js";
import { comparisonRecorded, kpiAuthoringRecorded, runCompleted, runCompletionRequested, runFailed, runStarted, verdictRecorded } from "./runProjection.js";

export async function dispatch(sql: Sql, envelope: Envelope, batch: Batch): Promise<void> {
  const { event } = envelope;
  switch (event.type) {
    case "CatalogImported": return catalogImported(sql, event, envelope);
    case "CatalogRemoved": return catalogRemoved(sql, event);
    // Only the catalog's deciders and its sync read which evaluations follow a set.
    case "CatalogSetMaterialized": return;
    case "CatalogSetSynced": return catalogSetSynced(sql, event, envelope);
    case "EvaluationCreated": return evaluationCreated(sql, event, envelope);
    // Only deciders read a name reservation (CreateEvaluation); the evaluations table already
    // holds the name from EvaluationCreated. Known, so the projector does not stop on it.
    case "EvaluationNameReserved": return;
    case "ScenariosReplaced": return scenariosReplaced(sql, event, envelope);
    case "ScenariosMerged": return scenariosMerged(sql, event, envelope);
    case "EvaluationArchived": return evaluationArchived(sql, event, envelope);
    case "EvaluationUnarchived": return evaluationUnarchived(sql, envelope);
    // Numbers a run that may never start: the run stream's first event makes it (runNumbered).
    case "RunScheduled": return;
    case "KpisDefined": return kpisDefined(sql, event, envelope);
    case "KpisCleared": return kpisCleared(sql, envelope);
    case "RunStarted": return runStarted(sql, event, envelope, batch);
    // Only workers read a KPI claim: who asks the judge; the settlement is KpiAuthoringRecorded.
    case "KpiAuthoringStarted": return;
    case "KpiAuthoringRecorded": return kpiAuthoringRecorded(sql, event, envelope, batch);
    case "RunCompletionRequested": return runCompletionRequested(sql, envelope);
    // Only the worker's dispatcher counts re-drives (its watchdog); no table shows them.
    case "RunRedriven": return;
    case "VerdictRecorded": return verdictRecorded(sql, event, envelope, batch);
    case "ComparisonRecorded": return comparisonRecorded(sql, event, envelope);
    case "RunCompleted": return runCompleted(sql, event, envelope, batch);
    case "RunFailed": return runFailed(sql, event, envelope, batch);
    case "ReportImported": return reportImported(sql, event, envelope, batch);
    case "ReplayRecorded": return replayRecorded(event, envelope, batch);
    case "ResultScored": return resultScored(event, envelope, batch);
    case "AgentReleaseRecorded": return agentReleaseRecorded(sql, event, envelope);
    case "UsageMetered": return usageMetered(sql, event);
  }
}
