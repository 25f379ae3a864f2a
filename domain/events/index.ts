// Public surface of domain/events: every event type (zod schema, type name, schema version),
// the registry that upcasts old versions, metadata, stream ids, and the append helpers.
// Payload building blocks live under the `eventSchemas` namespace so their plain names
// (scenarioData, replayData...) never collide with the core's classes in @verdict/domain.
export { DomainError, isDomainError, type DomainErrorCode } from "./domainError.js";
export { TEXT_RULE, isStorableText, storableTextOf, unstorableTextPath } from "./storableText.js";
export type { Clock, IdGenerator } from "./clock.js";
export { AGENT_NAME_MAX, COST_LIMIT, DURATION_LIMIT_MS, HOST_RUN_ID_LIMIT, POSITION_LIMIT, SCENARIO_PROMPT_MAX, TOKEN_COUNT_LIMIT } from "./shared.js";
export {
  ID_PATTERN,
  ID_RULE,
  MAX_STREAM_ID_LENGTH,
  assertId,
  isValidId,
  catalogStream,
  evaluationStream,
  evaluationNameStream,
  agentStream,
  runStream,
  resultStream,
  usageStream,
  usageMonth,
  STREAM_PREFIXES,
} from "./streams.js";
export { defineEvent, type EventDefinition, type Upcaster } from "./defineEvent.js";
export { CatalogImported, CatalogRemoved, CatalogSetMaterialized } from "./catalogEvents.js";
export {
  EvaluationCreated,
  EvaluationNameReserved,
  ScenariosReplaced,
  ScenariosMerged,
  CatalogSetSynced,
  EvaluationArchived,
  EvaluationUnarchived,
  KpisDefined,
  KpisCleared,
  RunScheduled,
} from "./evaluationEvents.js";
export {
  RunStarted,
  RunCompletionRequested,
  VerdictRecorded,
  ComparisonRecorded,
  RunCompleted,
  RunFailed,
  RunRedriven,
  ReportImported,
  KpiAuthoringRecorded,
  KpiAuthoringStarted,
} from "./runEvents.js";
export { ReplayRecorded, ResultScored } from "./resultEvents.js";
export { AgentReleaseRecorded, RELEASE_DIGEST_PATTERN, RELEASE_DIGEST_RULE } from "./agentEvents.js";
export { UsageMetered, USAGE_KINDS, type UsageKind } from "./usageEvents.js";
export {
  eventDefinitions,
  eventRegistry,
  EventRegistry,
  UnknownEventTypeError,
  type DomainEvent,
  type EventType,
  type EventOf,
  type EventData,
  type EventInput,
} from "./registry.js";
export { UnreadableEventError } from "./unreadableEvent.js";
export { eventMetadata, type EventMetadata, type EventContext } from "./metadata.js";
export { MAX_EVENT_BYTES, payloadBytes, toEventsToAppend, toEventToAppend, fromRecorded, type AppendDeps } from "./toAppend.js";
export { parseOrThrow, zodToDomainError } from "./zodIssues.js";
export * as eventSchemas from "./schemas.js";
