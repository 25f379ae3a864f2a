// The EventStore on EventStoreDB through @eventstore/db-client. Expected versions map onto the
// client's NO_STREAM / STREAM_EXISTS / ANY / revision; positions are EventStoreDB's own commit
// and prepare positions in $all. The schema version travels in the event metadata under
// "$schemaVersion" and is taken out again on read. Filters the server cannot apply in one pass
// (prefix and type together, exact type names) are finished client-side.
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  streamNameFilter,
  StreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type ResolvedEvent,
} from "@eventstore/db-client";
import type {
  AppendResult,
  EventFilter,
  EventStore,
  EventToAppend,
  ExpectedVersion,
  LogPosition,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamPage,
  SubscribeAllOptions,
} from "../port.js";
import { WrongExpectedVersionError } from "../port.js";
import { DEFAULT_MAX_PAGE_BYTES, fitsPage, type PageBudget } from "../page.js";
import { comparePositions, matchesFilter } from "../position.js";
import { validateEvents, validateExpectedVersion, validateLimit, validateStreamId } from "../validation.js";

export interface EsdbEventStoreOptions extends PageBudget {
  /** e.g. esdb://127.0.0.1:2113?tls=false (VERDICT_ESDB_URL). */
  connectionString: string;
}

const SCHEMA_VERSION_KEY = "$schemaVersion";
const READ_BATCH = 1_000n;

export function createEsdbEventStore(options: EsdbEventStoreOptions): EventStore {
  if (!options.connectionString) throw new Error("createEsdbEventStore: set connectionString (VERDICT_ESDB_URL), e.g. esdb://127.0.0.1:2113?tls=false");
  const client = EventStoreDBClient.connectionString(options.connectionString);
  const maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;

  async function append(streamId: string, events: EventToAppend[], appendOptions: { expectedVersion?: ExpectedVersion } = {}): Promise<AppendResult> {
    const expected = appendOptions.expectedVersion ?? "any";
    validateStreamId(streamId);
    validateExpectedVersion(expected);
    validateEvents(events);
    const data = events.map((event) =>
      jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: { ...event.metadata, [SCHEMA_VERSION_KEY]: event.schemaVersion } }),
    );
    try {
      const result = await client.appendToStream(streamId, data, { expectedRevision: toRevision(expected) });
      const position = result.position ?? { commit: 0n, prepare: 0n };
      return { nextExpectedVersion: result.nextExpectedRevision, position: { commit: position.commit, prepare: position.prepare } };
    } catch (error) {
      if (error instanceof EsdbWrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedVersionError(streamId, expected, typeof actual === "bigint" ? actual : null);
      }
      throw error;
    }
  }

  async function readStream(streamId: string, readOptions: ReadStreamOptions = {}): Promise<StreamPage> {
    validateStreamId(streamId);
    validateLimit(readOptions.limit);
    const backwards = readOptions.direction === "backwards";
    const from = readOptions.from ?? (backwards ? "end" : "start");
    if (from === "end" && !backwards) return [];
    // With a limit (above 1) a page stops at maxPageBytes too, counted as readAll counts it.
    const maxBytes = readOptions.limit === undefined || readOptions.limit === 1 ? Number.POSITIVE_INFINITY : maxPageBytes;
    const events: StreamPage = [];
    let used = 0;
    try {
      const read = client.readStream(streamId, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: from === "start" ? START : from === "end" ? END : from,
        maxCount: readOptions.limit ?? Number.MAX_SAFE_INTEGER,
      });
      for await (const resolved of read) {
        const event = toRecorded(resolved);
        if (!event) {
          // A system or non-JSON event takes a place of the server's page: ours is short, not ended.
          events.cut = true;
          continue;
        }
        const bytes = maxBytes === Number.POSITIVE_INFINITY ? 0 : jsonBytes(event);
        if (!fitsPage(events.length, used, bytes, maxBytes)) {
          events.cut = true;
          break;
        }
        events.push(event);
        used += bytes;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  // With a limit, a page also stops once its events' data and metadata reach maxPageBytes
  // (page.ts), counted as JSON text here: the client hands the events over already parsed. The
  // server's batch arrives as a stream, which the client reads as it is consumed, so leaving
  // the loop early leaves the rest of it unread (untried here: no EventStoreDB on these machines).
  async function readAll(readOptions: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    validateLimit(readOptions.limit);
    const limit = readOptions.limit ?? Number.POSITIVE_INFINITY;
    const maxBytes = readOptions.limit === undefined ? Number.POSITIVE_INFINITY : maxPageBytes;
    const events: RecordedEvent[] = [];
    let used = 0;
    let from: LogPosition | undefined = readOptions.after;
    // $all holds system events and other filtered-out events: keep reading batches until the
    // page is full or the log ends.
    for (;;) {
      let seen = 0;
      for await (const resolved of client.readAll({ fromPosition: from ?? START, maxCount: READ_BATCH })) {
        seen += 1;
        const event = toRecorded(resolved);
        if (!event || (from && comparePositions(event.position, from) <= 0)) continue;
        if (matchesFilter(event, readOptions.filter)) {
          const bytes = maxBytes === Number.POSITIVE_INFINITY ? 0 : jsonBytes(event);
          if (!fitsPage(events.length, used, bytes, maxBytes)) return events;
          events.push(event);
          used += bytes;
        }
        from = event.position;
        if (events.length >= limit) return events;
      }
      if (seen < Number(READ_BATCH)) return events;
    }
  }

  // A subscription has no pages to bound, so it ignores maxPageBytes: the server pushes events
  // one by one down a gRPC stream, which the client pipes into an object-mode stream, so Node's
  // backpressure pauses it once a few events wait to be taken (the client's code, untried here).
  async function* subscribeAll(subscribeOptions: SubscribeAllOptions = {}): AsyncGenerator<RecordedEvent> {
    const { signal, filter, after } = subscribeOptions;
    if (signal?.aborted) return;
    const subscription = client.subscribeToAll({ fromPosition: after ?? START, filter: serverFilter(filter) });
    const stop = () => void subscription.unsubscribe();
    signal?.addEventListener("abort", stop, { once: true });
    try {
      for await (const resolved of subscription) {
        if (signal?.aborted) return;
        const event = toRecorded(resolved);
        if (!event || (after && comparePositions(event.position, after) <= 0)) continue;
        if (matchesFilter(event, filter)) yield event;
      }
    } finally {
      signal?.removeEventListener("abort", stop);
      await subscription.unsubscribe();
    }
  }

  async function streamVersion(streamId: string): Promise<bigint | null> {
    const [last] = await readStream(streamId, { direction: "backwards", limit: 1 });
    return last ? last.streamVersion : null;
  }

  // $all ends with system events too: read back past them to the last of ours (untried here, as above).
  async function lastPosition(): Promise<LogPosition | null> {
    let from: typeof END | { commit: bigint; prepare: bigint } = END;
    for (;;) {
      let seen = 0;
      for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: READ_BATCH })) {
        seen += 1;
        const event = toRecorded(resolved);
        if (event) return event.position;
        if (resolved.event?.position) from = resolved.event.position;
      }
      if (seen < Number(READ_BATCH)) return null;
    }
  }

  let closed: Promise<void> | null = null;
  const close = () => (closed ??= client.dispose());
  return { append, readStream, readAll, subscribeAll, streamVersion, lastPosition, close };
}

/** An event's data and metadata as JSON text, the size a page counts here. */
function jsonBytes(event: RecordedEvent): number {
  return JSON.stringify(event.data).length + JSON.stringify(event.metadata).length;
}

function toRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === "any") return ANY;
  if (expected === "noStream") return NO_STREAM;
  if (expected === "streamExists") return STREAM_EXISTS;
  return expected;
}

// Stream prefixes go to the server; without them system events are excluded there.
function serverFilter(filter: EventFilter | undefined) {
  if (filter?.streamPrefixes?.length) return streamNameFilter({ prefixes: filter.streamPrefixes });
  return excludeSystemEvents();
}

function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || !event.isJson || event.type.startsWith("$") || event.streamId.startsWith("$")) return null;
  const { [SCHEMA_VERSION_KEY]: schemaVersion, ...metadata } = (event.metadata ?? {}) as Record<string, unknown>;
  const position = event.position ?? { commit: resolved.commitPosition ?? 0n, prepare: resolved.commitPosition ?? 0n };
  return {
    id: event.id,
    type: event.type,
    schemaVersion: typeof schemaVersion === "number" ? schemaVersion : 1,
    data: event.data as Record<string, unknown>,
    metadata,
    streamId: event.streamId,
    streamVersion: event.revision,
    position: { commit: position.commit, prepare: position.prepare },
    recordedAt: event.created,
  };
}
