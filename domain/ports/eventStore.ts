// The EventStore port (DESIGN.md "The event model"): every adapter in infra/eventstore
// implements it and runs the shared contract suite in test/contracts/eventStore.ts.
// Stream versions count from 0 as EventStoreDB does: a stream with one event has version 0.

/** Expected version of a stream when appending. */
export type ExpectedVersion =
  | "any" // append whatever the stream's state
  | "noStream" // the stream must not exist yet
  | "streamExists" // the stream must exist
  | bigint; // the stream's current version must be exactly this

/** What a caller hands to `append`: already validated against its event schema. */
export interface EventToAppend {
  /** Unique message id (UUID); a retried append with the same ids is idempotent. */
  id: string;
  type: string;
  /** Schema version of `data` for this type (upcasters lift older ones). */
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** An event as read back from the store. */
export interface RecordedEvent extends EventToAppend {
  streamId: string;
  /** Position within its stream, from 0. */
  streamVersion: bigint;
  /** Position in the whole log; readers order and checkpoint by it. */
  position: LogPosition;
  recordedAt: Date;
}

/**
 * A point in the global log. Adapters choose its parts (PostgreSQL: transaction id + global
 * position); callers only store it as a checkpoint and hand it back.
 */
export interface LogPosition {
  commit: bigint;
  prepare: bigint;
}

export interface AppendResult {
  /** Stream version after the append. */
  nextExpectedVersion: bigint;
  /** Log position of the last appended event. */
  position: LogPosition;
}

export interface ReadStreamOptions {
  /** First stream version to read (inclusive); backward reads start here and go down. */
  from?: bigint | "start" | "end";
  direction?: "forwards" | "backwards";
  /**
   * Read one page: at most this many events, and fewer once their data and metadata reach the
   * store's page budget, as readAll's pages (an event may hold 8 MB; always at least one event,
   * however large). A page the budget cut short is marked `cut` (StreamPage): read on from the
   * version after its last event (before it, backwards). A short page that is not cut is the
   * end of the stream. Omit to read every event from `from` at once, with no budget.
   */
  limit?: number;
}

/**
 * What readStream answers. `cut` is set when the page's byte budget left out events that follow
 * it, so a page shorter than its limit is the end of the stream only when it is not cut: a reader
 * of a small stream (every command loads one) stops after one query instead of asking again.
 */
export type StreamPage = RecordedEvent[] & { cut?: boolean };

export interface EventFilter {
  /** Only streams whose id starts with one of these prefixes (e.g. "run-"). */
  streamPrefixes?: string[];
  /** Only these event types. */
  eventTypes?: string[];
}

export interface ReadAllOptions {
  /** Exclusive: read events after this position; omit to read from the start. */
  after?: LogPosition;
  /**
   * Read one page: at most this many events, and fewer once their data and metadata reach the
   * store's page budget (an event may hold 8 MB; always at least one event, however large). So
   * a short page is not the end of the log: read on after its last event until a page is empty.
   * Omit to read every event after `after` at once, with no budget.
   */
  limit?: number;
  filter?: EventFilter;
}

export interface SubscribeAllOptions {
  /** Exclusive checkpoint to resume after; omit to start at the beginning of the log. */
  after?: LogPosition;
  filter?: EventFilter;
  signal?: AbortSignal;
  /**
   * Most events read from the store at once (default the adapter's page size, usually 500). A
   * consumer that takes events as slowly as its client reads sets it low: the page read ahead is
   * held until it is consumed. Adapters that read no pages (the server pushes) ignore it.
   */
  pageSize?: number;
}

export interface EventStore {
  append(streamId: string, events: EventToAppend[], options?: { expectedVersion?: ExpectedVersion }): Promise<AppendResult>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<StreamPage>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * Catches up from `after` (reading pages bounded as readAll's are), then delivers live events,
   * each exactly once and in log order.
   */
  subscribeAll(options?: SubscribeAllOptions): AsyncIterable<RecordedEvent>;
  /** Current version of a stream, or null when it does not exist. */
  streamVersion(streamId: string): Promise<bigint | null>;
  /**
   * The position of the log's last event a reader can see now (readAll reads nothing after it),
   * null while the log is empty. Positions read from this store are never past it, so a
   * checkpoint past it was taken from another log, or from this one before it lost events (a
   * restore of an older backup): the projector refuses it (apps/projector/projection/sameLog.ts).
   */
  lastPosition(): Promise<LogPosition | null>;
  close(): Promise<void>;
}

/** Thrown by `append` when the expected version does not hold. */
export class WrongExpectedVersionError extends Error {
  readonly code = "conflict";
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: bigint | null,
  ) {
    super(`Stream ${streamId}: expected version ${String(expected)}, actual ${actual === null ? "no stream" : String(actual)}`);
    this.name = "WrongExpectedVersionError";
  }
}
