// Second line of defence for what reaches the store (the domain validates first): stream ids,
// message ids, payload size and option values. Everything is parameterised anyway; these rules
// keep ids readable in logs, URLs and file names.
import { MAX_EVENT_BYTES } from "@verdict/domain";
import type { EventToAppend, ExpectedVersion } from "./port.js";

/** A bad input refused before anything is written; `field` names the input, the message the rule. */
export class EventStoreInputError extends Error {
  readonly code = "validation";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = "EventStoreInputError";
  }
}

/** The domain's event limit (MAX_EVENT_BYTES says why 8 MB), enforced by every adapter. */
export const MAX_PAYLOAD_BYTES = MAX_EVENT_BYTES;
const MAX_STREAM_ID_LENGTH = 200;
const STREAM_ID = /^[A-Za-z0-9_.-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVENT_TYPE = /^[A-Za-z][A-Za-z0-9_.-]*$/;

export function validateStreamId(streamId: string, field = "streamId"): void {
  if (typeof streamId !== "string" || streamId.length === 0) throw new EventStoreInputError(field, "must be a non-empty string");
  if (streamId.length > MAX_STREAM_ID_LENGTH) throw new EventStoreInputError(field, `must be at most ${MAX_STREAM_ID_LENGTH} characters`);
  if (!STREAM_ID.test(streamId)) throw new EventStoreInputError(field, "may only contain letters, digits, '_', '-' and '.'");
  // Path-like ("..", a leading dot) and SQL-comment-like ("--") sequences are refused outright.
  if (streamId.includes("..") || streamId.startsWith(".") || streamId.startsWith("-") || streamId.includes("--")) {
    throw new EventStoreInputError(field, "must not start with '.' or '-' nor contain '..' or '--'");
  }
}

/**
 * Refuses a bad batch of events; answers each event's data and metadata as JSON text, in UTF-16
 * units (bytes for ASCII), which the memory store counts for its page budget at no extra cost.
 */
export function validateEvents(events: EventToAppend[]): number[] {
  if (!Array.isArray(events) || events.length === 0) throw new EventStoreInputError("events", "at least one event is required");
  const seen = new Set<string>();
  return events.map((event, index) => {
    const at = `events[${index}]`;
    if (typeof event.id !== "string" || !UUID.test(event.id)) throw new EventStoreInputError(`${at}.id`, "must be a UUID");
    const id = event.id.toLowerCase();
    if (seen.has(id)) throw new EventStoreInputError(`${at}.id`, "appears twice in one append");
    seen.add(id);
    if (typeof event.type !== "string" || !EVENT_TYPE.test(event.type) || event.type.length > 200) {
      throw new EventStoreInputError(`${at}.type`, "must start with a letter and contain only letters, digits, '_', '-' and '.'");
    }
    if (!Number.isInteger(event.schemaVersion) || event.schemaVersion < 1) throw new EventStoreInputError(`${at}.schemaVersion`, "must be an integer >= 1");
    if (!isPlainObject(event.data)) throw new EventStoreInputError(`${at}.data`, "must be an object");
    if (!isPlainObject(event.metadata)) throw new EventStoreInputError(`${at}.metadata`, "must be an object");
    const data = JSON.stringify(event.data);
    const metadata = JSON.stringify(event.metadata);
    // A UTF-16 code unit is at most 3 bytes in UTF-8: shorter text is under the limit unencoded.
    if ((data.length + metadata.length) * 3 <= MAX_PAYLOAD_BYTES) return data.length + metadata.length;
    const bytes = Buffer.byteLength(data, "utf8") + Buffer.byteLength(metadata, "utf8");
    if (bytes > MAX_PAYLOAD_BYTES) throw new EventStoreInputError(`${at}.data`, `payload is ${bytes} bytes, over the ${MAX_PAYLOAD_BYTES / 1024 / 1024} MB limit (${MAX_PAYLOAD_BYTES} bytes)`);
    return data.length + metadata.length;
  });
}

export function validateExpectedVersion(expected: ExpectedVersion): void {
  if (expected === "any" || expected === "noStream" || expected === "streamExists") return;
  if (typeof expected !== "bigint" || expected < 0n) {
    throw new EventStoreInputError("expectedVersion", "must be 'any', 'noStream', 'streamExists' or a stream version >= 0 (bigint)");
  }
}

export function validateLimit(limit: number | undefined, field = "limit"): void {
  if (limit === undefined) return;
  if (!Number.isInteger(limit) || limit < 1) throw new EventStoreInputError(field, "must be an integer >= 1");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
