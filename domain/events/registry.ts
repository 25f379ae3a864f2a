// Every event type the platform records, and the registry that reads them back: an old schema
// version read from the store is upcast, step by step, to the current shape before use.
import type { z } from "zod";
import type { LogPosition, RecordedEvent } from "../ports/eventStore.js";
import { AgentReleaseRecorded } from "./agentEvents.js";
import { CatalogImported, CatalogRemoved, CatalogSetMaterialized } from "./catalogEvents.js";
import type { EventDefinition } from "./defineEvent.js";
import { DomainError } from "./domainError.js";
import { UnreadableEventError } from "./unreadableEvent.js";
import {
  CatalogSetSynced,
  EvaluationArchived,
  EvaluationCreated,
  EvaluationNameReserved,
  EvaluationUnarchived,
  KpisCleared,
  KpisDefined,
  RunScheduled,
  ScenariosMerged,
  ScenariosReplaced,
} from "./evaluationEvents.js";
import { ReplayRecorded, ResultScored } from "./resultEvents.js";
import {
  ComparisonRecorded,
  KpiAuthoringRecorded,
  KpiAuthoringStarted,
  ReportImported,
  RunCompleted,
  RunCompletionRequested,
  RunFailed,
  RunRedriven,
  RunStarted,
  VerdictRecorded,
} from "./runEvents.js";
import { UsageMetered } from "./usageEvents.js";
import { parseOrThrow } from "./zodIssues.js";

export const eventDefinitions = [
  CatalogImported,
  CatalogRemoved,
  CatalogSetMaterialized,
  EvaluationCreated,
  EvaluationNameReserved,
  ScenariosReplaced,
  ScenariosMerged,
  CatalogSetSynced,
  EvaluationArchived,
  EvaluationUnarchived,
  RunScheduled,
  KpisDefined,
  KpisCleared,
  RunStarted,
  KpiAuthoringStarted,
  KpiAuthoringRecorded,
  RunCompletionRequested,
  RunRedriven,
  VerdictRecorded,
  ComparisonRecorded,
  RunCompleted,
  RunFailed,
  ReportImported,
  ReplayRecorded,
  ResultScored,
  AgentReleaseRecorded,
  UsageMetered,
] as const;

type Definitions = (typeof eventDefinitions)[number];
export type EventType = Definitions["type"];

/** A typed event: its type name and its data in the current schema version. */
export type DomainEvent = {
  [D in Definitions as D["type"]]: { type: D["type"]; data: z.output<D["schema"]> };
}[EventType];
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;
export type EventData<T extends EventType> = EventOf<T>["data"];
/** What a decider writes: data before schema defaults are applied. */
export type EventInput<T extends EventType = EventType> = {
  [D in Definitions as D["type"]]: { type: D["type"]; data: z.input<D["schema"]> };
}[T];

/** Thrown for an event type this code does not know; names where in the store it was read. */
export class UnknownEventTypeError extends DomainError {
  constructor(
    readonly eventType: string,
    readonly streamId?: string,
    readonly streamVersion?: bigint,
    readonly position?: LogPosition,
  ) {
    const where = [
      streamId !== undefined ? ` in stream ${streamId}` : "",
      streamVersion !== undefined ? ` at version ${streamVersion}` : "",
      position ? ` (log position ${position.commit}/${position.prepare})` : "",
    ].join("");
    super("validation", `unknown event type "${eventType}"${where}`, "type");
    this.name = "UnknownEventTypeError";
  }
}

export class EventRegistry {
  private readonly byType: Map<string, EventDefinition>;

  constructor(definitions: readonly EventDefinition[]) {
    this.byType = new Map(definitions.map((d) => [d.type, d]));
  }

  has(type: string): type is EventType {
    return this.byType.has(type);
  }

  types(): EventType[] {
    return [...this.byType.keys()] as EventType[];
  }

  definition(type: string): EventDefinition {
    const definition = this.byType.get(type);
    if (!definition) throw new UnknownEventTypeError(type);
    return definition;
  }

  currentVersion(type: string): number {
    return this.definition(type).version;
  }

  /** Reads stored data of any known version as the current shape (upcast, then validated). */
  parse(type: string, version: number, data: unknown): DomainEvent {
    const definition = this.definition(type);
    if (!Number.isInteger(version) || version < 1 || version > definition.version) {
      throw DomainError.validation(
        `event ${type}: schema version ${version} is not one this code reads (1..${definition.version})`,
        "schemaVersion",
      );
    }
    let current = data as Record<string, unknown>;
    for (let v = version; v < definition.version; v++) current = definition.upcasters[v](current);
    const parsed = parseOrThrow(definition.schema, current, `event ${type} v${definition.version} is invalid`, "data");
    return { type, data: parsed } as DomainEvent;
  }

  /** Validates an event about to be appended, at the current version and its write bounds. */
  validate<T extends EventType>(event: EventInput<T>): EventOf<T> {
    const definition = this.definition(event.type);
    const schema = definition.writeSchema ?? definition.schema;
    const data = parseOrThrow(schema, event.data, `event ${event.type} v${definition.version} is invalid`, "data");
    return { type: event.type, data } as EventOf<T>;
  }

  /**
   * Reads an event from the store. An unknown type, or data this code cannot read, names the
   * event's stream, version and log position (UnknownEventTypeError, UnreadableEventError), so
   * a reader can say which event it passed over.
   */
  parseRecorded(recorded: RecordedEvent): DomainEvent {
    if (!this.has(recorded.type)) throw new UnknownEventTypeError(recorded.type, recorded.streamId, recorded.streamVersion, recorded.position);
    try {
      return this.parse(recorded.type, recorded.schemaVersion, recorded.data);
    } catch (error) {
      if (error instanceof DomainError) throw new UnreadableEventError(recorded, error.message, error.field);
      throw error;
    }
  }
}

export const eventRegistry = new EventRegistry(eventDefinitions as unknown as readonly EventDefinition[]);
