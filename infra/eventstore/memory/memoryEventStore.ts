// The EventStore in memory, for unit tests and the embedded mode's fast paths: same semantics
// as the SQL adapters (versions from 0, idempotent retries, expected-version modes), with a
// position whose commit and prepare are both the global sequence number.
import type {
  AppendResult,
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
import { DEFAULT_MAX_PAGE_BYTES, fitsPage, handedOut, type LogPage } from "../page.js";
import { comparePositions, matchesFilter } from "../position.js";
import { catchUpThenLive, type SubscriptionTuning } from "../subscription.js";
import { linkedSubscription } from "../linkedSubscription.js";
import { EventStoreInputError, validateEvents, validateExpectedVersion, validateLimit, validateStreamId } from "../validation.js";
import { Wakeup } from "../wakeup.js";

export interface MemoryEventStoreOptions extends SubscriptionTuning {
  /** Clock for recordedAt (tests inject a fixed one). */
  now?: () => Date;
}

export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const now = options.now ?? (() => new Date());
  const log: RecordedEvent[] = [];
  /** Each event's data and metadata as JSON (validateEvents counts them), for the page budget. */
  const sizes: number[] = [];
  const maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
  const streams = new Map<string, RecordedEvent[]>();
  const byId = new Map<string, RecordedEvent>();
  const wakeup = new Wakeup();

  // Async but without an await before the log is written, so each append is atomic.
  async function append(streamId: string, events: EventToAppend[], appendOptions: { expectedVersion?: ExpectedVersion } = {}): Promise<AppendResult> {
    const expected = appendOptions.expectedVersion ?? "any";
    validateStreamId(streamId);
    validateExpectedVersion(expected);
    const bytes = validateEvents(events);
    const stream = streams.get(streamId) ?? [];
    const current = stream.length === 0 ? null : BigInt(stream.length - 1);
    const retried = retriedAppend(streamId, events);
    if (retried) return retried;
    if (!expectationHolds(expected, current)) throw new WrongExpectedVersionError(streamId, expected, current);
    const recordedAt = now();
    for (const [i, event] of events.entries()) {
      const sequence = BigInt(log.length + 1);
      const recorded: RecordedEvent = {
        ...structuredClone({ id: event.id.toLowerCase(), type: event.type, schemaVersion: event.schemaVersion, data: event.data, metadata: event.metadata }),
        streamId,
        streamVersion: BigInt(stream.length),
        position: { commit: sequence, prepare: sequence },
        recordedAt,
      };
      stream.push(recorded);
      log.push(recorded);
      sizes.push(bytes[i]);
      byId.set(recorded.id, recorded);
    }
    streams.set(streamId, stream);
    wakeup.notify();
    const last = stream[stream.length - 1];
    return { nextExpectedVersion: last.streamVersion, position: last.position };
  }

  function retriedAppend(streamId: string, events: EventToAppend[]): AppendResult | null {
    const recorded = events.map((event) => byId.get(event.id.toLowerCase()));
    if (recorded.every((event) => event === undefined)) return null;
    if (recorded.some((event) => event === undefined || event.streamId !== streamId)) {
      throw new EventStoreInputError("events", `message ids were recorded by a different append to ${streamId}`);
    }
    const last = (recorded as RecordedEvent[]).reduce((a, b) => (comparePositions(a.position, b.position) >= 0 ? a : b));
    return { nextExpectedVersion: last.streamVersion, position: last.position };
  }

  async function readStream(streamId: string, readOptions: ReadStreamOptions = {}): Promise<StreamPage> {
    validateStreamId(streamId);
    validateLimit(readOptions.limit);
    const stream = streams.get(streamId) ?? [];
    const backwards = readOptions.direction === "backwards";
    const from = readOptions.from ?? (backwards ? "end" : "start");
    const { limit } = readOptions;
    // Without a limit the caller asked for every event from `from`: no page, no budget.
    const maxBytes = limit === undefined ? Infinity : maxPageBytes;
    if (backwards) {
      const start = from === "end" ? stream.length - 1 : from === "start" ? 0 : Math.min(Number(from), stream.length - 1);
      return streamPage(stream, start, -1, limit ?? Infinity, maxBytes);
    }
    if (from === "end") return [];
    return streamPage(stream, from === "start" ? 0 : Number(from), 1, limit ?? Infinity, maxBytes);
  }

  /** Copies of `stream`'s events from index `start`, one `step` at a time, as a page (page.ts); `cut` when the budget stopped it. */
  function streamPage(stream: RecordedEvent[], start: number, step: 1 | -1, limit: number, maxBytes: number): StreamPage {
    const events: StreamPage = [];
    let used = 0;
    for (let i = start; i >= 0 && i < stream.length && events.length < limit; i += step) {
      // The event's place in the log is its position - 1 (positions count from 1).
      const bytes = sizes[Number(stream[i].position.prepare) - 1];
      if (!fitsPage(events.length, used, bytes, maxBytes)) {
        events.cut = true;
        break;
      }
      events.push(copy(stream[i]));
      used += bytes;
    }
    return events;
  }

  /** At most `limit` events after `after`, fewer once they reach `maxBytes` (page.ts). */
  function readPage(after: LogPosition | undefined, limit: number, filter: ReadAllOptions["filter"], maxBytes: number): LogPage {
    const start = after ? Number(after.prepare) : 0;
    const events: RecordedEvent[] = [];
    let used = 0;
    for (let i = start; i < log.length; i += 1) {
      if (!matchesFilter(log[i], filter)) continue;
      if (!fitsPage(events.length, used, sizes[i], maxBytes)) return { events, full: true };
      events.push(handedOut(copy(log[i]), sizes[i]));
      used += sizes[i];
      if (events.length === limit) return { events, full: true };
    }
    return { events, full: false };
  }

  async function readAll(readOptions: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    validateLimit(readOptions.limit);
    const { after, limit, filter } = readOptions;
    // Without a limit the caller asked for the whole log: no page, no budget.
    return limit === undefined ? readPage(after, Infinity, filter, Infinity).events : readPage(after, limit, filter, maxPageBytes).events;
  }

  // Closing the store ends its subscriptions.
  const closing = new AbortController();

  function subscribeAll(subscribeOptions: SubscribeAllOptions = {}): AsyncIterable<RecordedEvent> {
    const paged = { wakeup, readPage: async (after: LogPosition | undefined, limit: number) => readPage(after, limit, subscribeOptions.filter, maxPageBytes) };
    return linkedSubscription(subscribeOptions, closing.signal, (linked) => catchUpThenLive(paged, linked, options));
  }

  async function streamVersion(streamId: string): Promise<bigint | null> {
    validateStreamId(streamId);
    const stream = streams.get(streamId);
    return stream && stream.length > 0 ? BigInt(stream.length - 1) : null;
  }

  // An append writes the log at once (no transaction in flight): its last event is the head.
  const lastPosition = async (): Promise<LogPosition | null> => log.at(-1)?.position ?? null;

  return { append, readStream, readAll, subscribeAll, streamVersion, lastPosition, close: async () => closing.abort() };
}

function expectationHolds(expected: ExpectedVersion, current: bigint | null): boolean {
  if (expected === "any") return true;
  if (expected === "noStream") return current === null;
  if (expected === "streamExists") return current !== null;
  return current === expected;
}

// Callers get copies, so mutating a read event cannot change the log.
function copy(event: RecordedEvent): RecordedEvent {
  return { ...event, data: structuredClone(event.data), metadata: structuredClone(event.metadata) };
}
