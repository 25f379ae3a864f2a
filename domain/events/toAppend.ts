// Turns typed events into the port's EventToAppend: validated against their schema, sized, and
// stamped with metadata from an injected clock and id generator. Anything refused here is
// refused before the append, so nothing invalid is ever written.
import type { EventToAppend, RecordedEvent } from "../ports/eventStore.js";
import type { Clock, IdGenerator } from "./clock.js";
import { isStorableJson, TEXT_RULE, unstorableTextPath } from "./storableText.js";
import { DomainError } from "./domainError.js";
import { eventMetadata, type EventContext, type EventMetadata } from "./metadata.js";
import { eventRegistry, type DomainEvent, type EventInput, type EventRegistry } from "./registry.js";
import { parseOrThrow } from "./zodIssues.js";

/**
 * Largest serialized data + metadata an event may carry (the adapters' limit too). 8 MB, so the
 * largest input the edge accepts fits in one event: a 2 MB catalog is stored as its canonical
 * YAML and as resolved products (CatalogImported), a 2 MB report envelope normalized
 * (ReportImported). At 1 MB, a 2,000-scenario catalog of 510 KB and a 1,000-result report were
 * refused, well inside their documented limits. (EventStoreDB's default MaxAppendSize is 1 MB:
 * its server must be given 8 MB.)
 */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;
const LIMIT_TEXT = `the ${MAX_EVENT_BYTES / 1024 / 1024} MB limit`;

export interface AppendDeps {
  clock: Clock;
  ids: IdGenerator;
  registry?: EventRegistry;
}

export function payloadBytes(data: unknown): number {
  return new TextEncoder().encode(JSON.stringify(data)).length;
}

/**
 * UTF-8 bytes of data and metadata as JSON, counted only when they could be over `limit`: a
 * UTF-16 code unit is at most 3 bytes, so shorter text is under it without encoding it.
 */
function payloadOver(dataText: string, metadataText: string, limit: number): number | null {
  if ((dataText.length + metadataText.length) * 3 <= limit) return null;
  const encoder = new TextEncoder();
  const bytes = encoder.encode(dataText).length + encoder.encode(metadataText).length;
  return bytes > limit ? bytes : null;
}

/** The value as JSON; a value nested too deep for JSON.stringify (its RangeError) is a validation error. */
function jsonOf(type: string, value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw DomainError.validation(`event ${type}: data is nested too deeply to be stored`, "data");
  }
}

/** Refuses what the stores cannot hold: over 8 MB together, or text PostgreSQL refuses. */
function assertStorable(type: string, data: unknown, metadata: unknown): void {
  const dataText = jsonOf(type, data);
  const metadataText = jsonOf(type, metadata);
  // Counted as the adapters count it: data and metadata together.
  const bytes = payloadOver(dataText, metadataText, MAX_EVENT_BYTES);
  if (bytes !== null) {
    throw DomainError.validation(`event ${type}: payload is ${bytes} bytes, over ${LIMIT_TEXT} (${MAX_EVENT_BYTES} bytes)`, "data");
  }
  for (const [name, value, text] of [["data", data, dataText], ["metadata", metadata, metadataText]] as const) {
    if (isStorableJson(text)) continue;
    const field = unstorableTextPath(value, name) ?? name;
    throw DomainError.validation(`event ${type}: ${field}: ${TEXT_RULE}`, field);
  }
}

export function toEventsToAppend(events: readonly EventInput[], context: EventContext, deps: AppendDeps): EventToAppend[] {
  const registry = deps.registry ?? eventRegistry;
  const recordedAt = deps.clock.now().toISOString();
  let correlationId = context.correlationId;
  return events.map((event) => {
    const valid = registry.validate(event);
    const id = deps.ids.next();
    correlationId ??= id;
    const metadata: EventMetadata = parseOrThrow(
      eventMetadata,
      {
        event_id: id,
        causation_id: context.causationId ?? null,
        correlation_id: correlationId,
        tenant: context.tenant,
        actor: context.actor,
        recorded_at: recordedAt,
      },
      `event ${event.type} metadata is invalid`,
      "metadata",
    );
    assertStorable(event.type, valid.data, metadata);
    return {
      id,
      type: valid.type,
      schemaVersion: registry.currentVersion(valid.type),
      data: valid.data as Record<string, unknown>,
      metadata,
    };
  });
}

export function toEventToAppend(event: EventInput, context: EventContext, deps: AppendDeps): EventToAppend {
  return toEventsToAppend([event], context, deps)[0];
}

/** A recorded event read as a typed, current-version event (upcast when older). */
export function fromRecorded(recorded: RecordedEvent, registry: EventRegistry = eventRegistry): DomainEvent {
  return registry.parseRecorded(recorded);
}
