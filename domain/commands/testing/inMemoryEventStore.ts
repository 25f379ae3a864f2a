// A small, honest in-memory EventStore for command-handling tests (domain must not import
// infra). It enforces the four expected-version modes and can inject a concurrent write just
// before the next append, to exercise conflict-and-retry paths.
import {
  WrongExpectedVersionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedVersion,
  type LogPosition,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamPage,
} from "../../ports/eventStore.js";

/** The default page budget, as infra/eventstore/page.ts's DEFAULT_MAX_PAGE_BYTES (domain does not import infra). */
const DEFAULT_MAX_PAGE_BYTES = 4 * 1024 * 1024;

interface InMemoryEventStoreOptions {
  /** Bytes (data and metadata as JSON text) after which a page of a stream stops; tests set a small one to see pages cut. */
  maxPageBytes?: number;
}

export class InMemoryEventStore implements EventStore {
  readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  /** Each event's data and metadata as JSON text, by the event as stored. */
  private readonly sizes = new WeakMap<RecordedEvent, number>();
  private readonly maxPageBytes: number;
  private beforeAppend: Array<() => void> = [];
  appendCalls = 0;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
  }

  /** Runs `write` right before the next append is checked, as a racing writer would. */
  interleave(write: () => void): void {
    this.beforeAppend.push(write);
  }

  async append(streamId: string, events: EventToAppend[], options?: { expectedVersion?: ExpectedVersion }): Promise<AppendResult> {
    this.appendCalls++;
    const racer = this.beforeAppend.shift();
    if (racer) racer();
    return this.appendNow(streamId, events, options?.expectedVersion ?? "any");
  }

  /** Synchronous append, used by `interleave` writers. */
  appendNow(streamId: string, events: EventToAppend[], expected: ExpectedVersion = "any"): AppendResult {
    const stream = this.streams.get(streamId) ?? [];
    const actual = stream.length ? BigInt(stream.length - 1) : null;
    const ok =
      expected === "any" ||
      (expected === "noStream" && actual === null) ||
      (expected === "streamExists" && actual !== null) ||
      (typeof expected === "bigint" && actual === expected);
    if (!ok) throw new WrongExpectedVersionError(streamId, expected, actual);
    for (const event of events) {
      const position = BigInt(this.log.length);
      const recorded: RecordedEvent = {
        ...structuredClone(event),
        streamId,
        streamVersion: BigInt(stream.length),
        position: { commit: position, prepare: position },
        recordedAt: new Date(0),
      };
      stream.push(recorded);
      this.log.push(recorded);
      this.sizes.set(recorded, JSON.stringify(recorded.data).length + JSON.stringify(recorded.metadata).length);
    }
    this.streams.set(streamId, stream);
    const last = stream[stream.length - 1];
    return { nextExpectedVersion: last.streamVersion, position: last.position };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StreamPage> {
    const stream = this.streams.get(streamId) ?? [];
    const backwards = options.direction === "backwards";
    const from = options.from ?? (backwards ? "end" : "start");
    const start = from === "start" ? 0 : from === "end" ? stream.length - 1 : Number(from);
    const picked = backwards ? stream.slice(0, start + 1).reverse() : stream.slice(start);
    if (options.limit === undefined) return picked;
    // A page: at most `limit` events, fewer once they reach the budget, never none (the port).
    const page: StreamPage = [];
    let used = 0;
    for (const event of picked.slice(0, options.limit)) {
      const bytes = this.sizes.get(event) ?? 0;
      if (page.length > 0 && used + bytes > this.maxPageBytes) {
        page.cut = true;
        break;
      }
      page.push(event);
      used += bytes;
    }
    return page;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ? Number(options.after.commit) : -1;
    const { streamPrefixes, eventTypes } = options.filter ?? {};
    const picked = this.log.filter(
      (e, i) =>
        i > after &&
        (!streamPrefixes || streamPrefixes.some((p) => e.streamId.startsWith(p))) &&
        (!eventTypes || eventTypes.includes(e.type)),
    );
    return picked.slice(0, options.limit ?? picked.length);
  }

  async *subscribeAll(): AsyncIterable<RecordedEvent> {
    yield* this.log; // catch-up only: command tests never need live delivery
  }

  async streamVersion(streamId: string): Promise<bigint | null> {
    const stream = this.streams.get(streamId);
    return stream?.length ? BigInt(stream.length - 1) : null;
  }

  async lastPosition(): Promise<LogPosition | null> {
    return this.log.at(-1)?.position ?? null;
  }

  async close(): Promise<void> {}
}
