// Public surface of domain/commands: every command (zod schema), the pure deciders per
// aggregate (catalog, evaluation, run, result pair), and command handling over the EventStore.
export { fold, pairName, type Aggregate, type DecideContext } from "./aggregate.js";
export {
  CATALOG_MAX_BYTES,
  CATALOG_MAX_SCENARIOS,
  ImportCatalog,
  RemoveCatalog,
  RecordMaterialization,
  CatalogCommand,
} from "./catalog/catalogCommands.js";
export { catalogAggregate, type CatalogState, type Materialization } from "./catalog/catalogAggregate.js";
export { catalogSetSuite, materializeCatalogSet, syncCatalogEvaluations, type CatalogSetSuite, type MaterializeRequest, type SyncedEvaluations } from "./catalog/catalogSync.js";
export { importCatalogCommand } from "./catalog/importCatalogCommand.js";
export { lastCatalogImport } from "./catalog/lastImport.js";
export { storableCatalog } from "./catalog/storableCatalog.js";
export { storageRefusal } from "./catalog/storageRefusal.js";
export {
  SCENARIO_LIMIT,
  scenarioInput,
  type ScenarioInput,
  CreateEvaluation,
  ReplaceScenarios,
  SyncCatalogSet,
  MergeScenarios,
  ArchiveEvaluation,
  StartRun,
  ImportReport,
  ImportReportEnvelope,
  EvaluationCommand,
} from "./evaluation/evaluationCommands.js";
export { evaluationAggregate, CRITERION_TYPES, DEFAULT_CRITERIA } from "./evaluation/evaluationAggregate.js";
export { initialEvaluationState, evolveEvaluation, type EvaluationState, type ScheduledRun } from "./evaluation/evaluationState.js";
export { planReplace, planMerge, byPosition, stableJson, type ScenarioChanges, type ReplacePlan } from "./evaluation/scenarioChanges.js";
export { NO_SCENARIOS_SELECTED, selectScenarios, resolveModels, freezeRun } from "./evaluation/selection.js";
export {
  RequestRunCompletion,
  RecordVerdict,
  RecordComparison,
  CompleteRun,
  FailRun,
  RecordRedrive,
  RejectPair,
  RunCommand,
} from "./run/runCommands.js";
export { runAggregate, pairProblems, type RunContext } from "./run/runAggregate.js";
export { initialRunState, evolveRun, selectionPairs, findPair, type RunState, type RunPair } from "./run/runState.js";
export { checkImportedReport, KNOWN_FAULTS, REPORT_MAX_COUNT } from "./run/importedReport.js";
export { importedRunId } from "./run/importedRunId.js";
export { keyedRunId } from "./run/keyedRunId.js";
export { RecordReplay, ScoreResult, ResultCommand } from "./result/resultCommands.js";
export { resultAggregate, pairStream, type ResultState, type ResultContext } from "./result/resultAggregate.js";
export { PairRefused, isPairRefused, type PairProblem } from "./result/pairRefused.js";
export { sameReplay } from "./result/sameReplay.js";
export {
  recordExternalReplay, type ExternalReplayOutcome, type RecordedExternalReplay, type RefusedExternalReplay,
} from "./result/recordExternalReplay.js";
export {
  handleCommand,
  checkCommand,
  loadAggregate,
  readWholeStream,
  forEachStreamPage,
  DEFAULT_RETRIES,
  type HandleOptions,
  type HandledCommand,
  type AppendedEvent,
} from "./handleCommand.js";
export { startRun, importReport, type TwoStreamResult } from "./twoStreamCommands.js";
export {
  EXECUTION_DISABLED_MESSAGE, PLAN_LIMIT_MESSAGE, PlanLimitError, UNLIMITED_PLAN, isPlanLimitError, limitOf, type Plan, type PlanLimitDetails,
} from "./usage/plan.js";
export { MeterUsage, usageAggregate, initialUsageState, type UsageState } from "./usage/usageAggregate.js";
export { createEvaluation, type CreatedEvaluation } from "./createEvaluation.js";
export { evaluationNameAggregate, ReserveEvaluationName, type EvaluationNameState } from "./evaluation/evaluationName.js";
export { adoptEvaluationName, type NameToAdopt } from "./evaluation/adoptEvaluationName.js";
export { evaluationsInLog } from "./evaluation/evaluationsInLog.js";
export { legacyMaterialization } from "./catalog/legacyMaterialization.js";
export { RecordAgentRelease, REVISION_MAX } from "./agent/agentCommands.js";
export {
  agentAggregate, initialAgentState, evolveAgent, latestRelease, latestVersion, type AgentState, type AgentVersion,
} from "./agent/agentAggregate.js";
export {
  canonicalManifest, manifestDigest, withoutSecrets, isSecretKey, MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH, SECRET_KEY_PARTS,
} from "./agent/releaseManifest.js";
export { recordAgentRelease, type RecordedAgentRelease, type ReleaseOutcome } from "./agent/recordAgentRelease.js";
