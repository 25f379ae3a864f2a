// The EventStore over the SQL of migrations/001_event_store.sql, shared by the PostgreSQL and
// PGlite adapters; they differ only in how a query reaches the database and how live
// subscribers are woken.
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
import { DEFAULT_MAX_PAGE_BYTES, handedOut, type SizedPage } from "../page.js";
import { catchUpThenLive, type SubscriptionTuning } from "../subscription.js";
import { linkedSubscription } from "../linkedSubscription.js";
import type { AppendedBatch } from "./appendedEvents.js";
import { Coalescer } from "./coalescer.js";
import { validateEvents, validateExpectedVersion, validateLimit, validateStreamId } from "../validation.js";
import type { Wakeup } from "../wakeup.js";

export interface SqlRunner {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

interface AppendRow {
  outcome: "appended" | "duplicate" | "conflict";
  stream_version: string | null;
  transaction_id: string | null;
  global_position: string | null;
  /** now(): the transaction's start, which every row it wrote has as created_at. */
  recorded_at: Date | string;
}

interface MessageRow {
  gp: string;
  tx: string;
  stream_id: string;
  sv: string;
  message_id: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  created_at: Date;
}

interface PageRow extends MessageRow {
  bytes: number;
  cut_after: boolean;
}

// bigint and xid8 come back as text (exact in JS as BigInt). The aliases differ from the column
// names on purpose: ORDER BY would otherwise sort by the text aliases ("100" < "99").
const COLUMNS = `global_position::text AS gp, transaction_id::text AS tx, stream_id, stream_version::text AS sv,
  message_id::text AS message_id, type, schema_version, data, metadata, created_at`;

// Visible = written by a transaction older than every transaction of this database still
// running (STACK.md's pg_snapshot_xmin rule, narrowed to this database by migration 002), so
// nothing can later commit at or before this point of the order.
const VISIBLE_AFTER = `WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
    AND transaction_id < (SELECT verdict_visible_bound())
    AND ($4::text[] IS NULL OR EXISTS (SELECT 1 FROM unnest($4::text[]) AS p(prefix) WHERE starts_with(stream_id, p.prefix)))
    AND ($5::text[] IS NULL OR type = ANY ($5::text[]))`;

// readAll without a limit (LIMIT NULL): the caller asked for every event after the position.
const READ_ALL = `SELECT ${COLUMNS} FROM messages ${VISIBLE_AFTER} ORDER BY transaction_id, global_position LIMIT $3`;

// An event's bytes as a page counts them (page.ts): pg_column_size, the size as stored, read
// from the value's header or TOAST pointer without fetching it. octet_length(data::text) would
// be the JSON's exact size, but it fetches, decompresses and prints every value of the LIMIT-ed
// rows, those the page then leaves out included: over 100 catalog events (4.3 MB of JSON each,
// 1.2 MB stored) it took 2.6 s to answer a page of 3 events. On a page of 500 small events (1.2
// KB) this costs what the read cost before, and that one ~20% more (medians of 50 on a loaded
// machine: PGlite 31.0 ms before, 32.2 with this, 38.2 with octet_length; PostgreSQL 15 round
// trips 14.3, 13.5 and 17.0 ms). Stored bytes undercount what compresses (3.6x for that
// catalog), which DEFAULT_MAX_PAGE_BYTES allows for.
const EVENT_BYTES = "pg_column_size(data) + pg_column_size(metadata)";

// A page: at most $3 events, and once their running bytes pass $6 no more (the first is always
// taken). The running sum sits above the LIMIT, so it only ever looks at the page's own rows.
// `cut_after` on the last row says a row of those was left out: the page is short but full.
const READ_PAGE = `SELECT ${COLUMNS}, bytes, cut_after FROM (
    SELECT page.*, sum(bytes) OVER w AS running, row_number() OVER w AS n, lead(bytes) OVER w IS NOT NULL AS cut_after
      FROM (SELECT messages.*, ${EVENT_BYTES} AS bytes FROM messages ${VISIBLE_AFTER} ORDER BY transaction_id, global_position LIMIT $3) page
    WINDOW w AS (ORDER BY transaction_id, global_position ROWS UNBOUNDED PRECEDING)) sized
  WHERE n = 1 OR running <= $6
  ORDER BY transaction_id, global_position`;

// A stream read: every event from $2 (no limit), or at most $3 of them (limit 1: no budget
// to apply, a page always holds its first event).
const READ_FORWARDS = `SELECT ${COLUMNS} FROM messages WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version LIMIT $3`;
const READ_BACKWARDS = `SELECT ${COLUMNS} FROM messages WHERE stream_id = $1 AND stream_version <= $2 ORDER BY stream_version DESC LIMIT $3`;

// A page of a stream, cut by bytes as READ_PAGE cuts a page of the log: at most $3 events from
// $2, and once their running bytes pass $4 no more (the first is always taken); `cut_after` on
// the last row says a row of those was left out, so the short page is not the stream's end. Without it a
// catalog imported on every commit made each import read every earlier one (1.2 MB stored each)
// into one array.
const streamPage = (order: "ASC" | "DESC") => `SELECT ${COLUMNS}, cut_after FROM (
    SELECT page.*, sum(bytes) OVER w AS running, row_number() OVER w AS n, lead(bytes) OVER w IS NOT NULL AS cut_after
      FROM (SELECT messages.*, ${EVENT_BYTES} AS bytes FROM messages
        WHERE stream_id = $1 AND stream_version ${order === "ASC" ? ">=" : "<="} $2 ORDER BY stream_version ${order} LIMIT $3) page
    WINDOW w AS (ORDER BY stream_version ${order} ROWS UNBOUNDED PRECEDING)) sized
  WHERE n = 1 OR running <= $4
  ORDER BY stream_version ${order}`;
const READ_STREAM_PAGE_FORWARDS = streamPage("ASC");
const READ_STREAM_PAGE_BACKWARDS = streamPage("DESC");
const RESULT = "outcome, stream_version::text AS stream_version, transaction_id::text AS transaction_id, global_position::text AS global_position, now() AS recorded_at";
// The log's last visible event, by the reading bound VISIBLE_AFTER applies: backwards on messages_log_order.
const LAST_POSITION = `SELECT transaction_id::text AS tx, global_position::text AS gp FROM messages
  WHERE transaction_id < (SELECT verdict_visible_bound()) ORDER BY transaction_id DESC, global_position DESC LIMIT 1`;
const APPEND = `SELECT ${RESULT} FROM verdict_append($1, $2, $3, $4::jsonb)`;
const RECORDED = `SELECT ${RESULT} FROM verdict_recorded_append($1, $2::jsonb)`;
const APPEND_MANY = `SELECT idx, ${RESULT} FROM verdict_append_many($1::jsonb)`;
const VERSIONS = "SELECT stream_id, version::text AS version FROM streams WHERE stream_id = ANY ($1::text[])";
const MAX_VERSION = "9223372036854775807";

interface SqlEventStoreOptions extends SubscriptionTuning {
  runner: SqlRunner;
  wakeup: Wakeup;
  /** Called after every successful append, with its last event's position: in-process wake-up of local subscribers. */
  onAppended?: (position: LogPosition) => void;
  /**
   * Called for every append that wrote, in commit order, before its caller is answered: what it
   * sent and where it landed (see appendedEvents.ts to turn that into the recorded events).
   */
  onRecorded?: (appended: AppendedBatch) => void;
  close: () => Promise<void>;
  /**
   * Send appends (and version checks) made while others are in flight together, as one
   * statement (verdict_append_many; one transaction per batch), with at most this many batches
   * in flight. Omit to send each on its own.
   */
  coalesce?: { maxInFlight: number };
  /** Whether a subscription's failed read may be sent again (the connection went away). */
  retriableRead?: (error: unknown) => boolean;
}

interface AppendRequest {
  streamId: string;
  mode: string;
  exactVersion: string | null;
  /** The events as the JSON text verdict_append takes. */
  batch: string;
}

/** The store, and its paged read of the log with each event's bytes (the PGlite log tail keeps them). */
interface SqlEventStore extends EventStore {
  readPage(after: LogPosition | undefined, limit: number, filter: ReadAllOptions["filter"]): Promise<SizedPage>;
}

export function createSqlEventStore(options: SqlEventStoreOptions): SqlEventStore {
  const { runner, wakeup } = options;
  const maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;

  // Two concurrent retries of one append in mode "any" both pass the retry check; the loser
  // trips the unique message id and is answered with what the winner recorded.
  async function appendOne(request: AppendRequest): Promise<AppendRow> {
    const { streamId, mode, exactVersion, batch } = request;
    return runner.query<AppendRow>(APPEND, [streamId, mode, exactVersion, batch]).then(
      ([appended]) => recorded(request, appended),
      async (error: { code?: string; constraint?: string }) => {
        if (error.code !== "23505" || error.constraint !== "messages_message_id_key") throw error;
        const [recorded] = await runner.query<AppendRow>(RECORDED, [streamId, batch]);
        if (!recorded) throw error;
        return recorded;
      },
    );
  }

  async function appendMany(requests: AppendRequest[]): Promise<AppendRow[]> {
    // The events are JSON text already: spliced in, not parsed and written again.
    const items = requests.map((r) => `{"stream":${JSON.stringify(r.streamId)},"mode":"${r.mode}","version":${r.exactVersion === null ? "null" : `"${r.exactVersion}"`},"events":${r.batch}}`);
    const rows = await runner.query<AppendRow & { idx: number }>(APPEND_MANY, [`[${items.join(",")}]`]);
    if (rows.length !== requests.length) throw new Error(`verdict_append_many answered ${rows.length} of ${requests.length} appends`);
    return [...rows].sort((a, b) => a.idx - b.idx).map((row, i) => recorded(requests[i], row));
  }

  function recorded(request: AppendRequest, row: AppendRow): AppendRow {
    if (row.outcome !== "appended" || !options.onRecorded) return row;
    options.onRecorded({
      streamId: request.streamId,
      batch: request.batch,
      lastVersion: BigInt(row.stream_version as string),
      last: { commit: BigInt(row.transaction_id as string), prepare: BigInt(row.global_position as string) },
      recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
    });
    return row;
  }

  async function versionsOf(streamIds: string[]): Promise<Array<bigint | null>> {
    const rows = await runner.query<{ stream_id: string; version: string }>(VERSIONS, [streamIds]);
    const found = new Map(rows.map((row) => [row.stream_id, BigInt(row.version)]));
    return streamIds.map((id) => found.get(id) ?? null);
  }

  const appends = options.coalesce ? new Coalescer<AppendRequest, AppendRow>({ many: appendMany, one: appendOne, maxInFlight: options.coalesce.maxInFlight }) : null;
  const versions = options.coalesce
    ? new Coalescer<string, bigint | null>({ many: versionsOf, one: async (id) => (await versionsOf([id]))[0], maxInFlight: options.coalesce.maxInFlight })
    : null;

  async function append(streamId: string, events: EventToAppend[], appendOptions: { expectedVersion?: ExpectedVersion } = {}): Promise<AppendResult> {
    const expected = appendOptions.expectedVersion ?? "any";
    validateStreamId(streamId);
    validateExpectedVersion(expected);
    validateEvents(events);
    const mode = typeof expected === "bigint" ? "exact" : expected;
    const exactVersion = typeof expected === "bigint" ? expected.toString() : null;
    const batch = JSON.stringify(events.map(({ id, type, schemaVersion, data, metadata }) => ({ id, type, schemaVersion, data, metadata })));
    const request = { streamId, mode, exactVersion, batch };
    const row = await (appends ? appends.submit(request) : appendOne(request));
    if (row.outcome === "conflict") throw new WrongExpectedVersionError(streamId, expected, row.stream_version === null ? null : BigInt(row.stream_version));
    const position = { commit: BigInt(row.transaction_id as string), prepare: BigInt(row.global_position as string) };
    if (row.outcome === "appended") options.onAppended?.(position);
    return { nextExpectedVersion: BigInt(row.stream_version as string), position };
  }

  async function readStream(streamId: string, readOptions: ReadStreamOptions = {}): Promise<StreamPage> {
    validateStreamId(streamId);
    validateLimit(readOptions.limit);
    const backwards = readOptions.direction === "backwards";
    const from = readOptions.from ?? (backwards ? "end" : "start");
    const start = from === "start" ? "0" : from === "end" ? (backwards ? MAX_VERSION : null) : from.toString();
    if (start === null) return [];
    const { limit } = readOptions;
    if (limit === undefined || limit === 1) {
      return (await runner.query<MessageRow>(backwards ? READ_BACKWARDS : READ_FORWARDS, [streamId, start, limit ?? null])).map(toRecorded);
    }
    const rows = await runner.query<MessageRow & { cut_after: boolean }>(backwards ? READ_STREAM_PAGE_BACKWARDS : READ_STREAM_PAGE_FORWARDS, [streamId, start, limit, maxPageBytes]);
    const page: StreamPage = rows.map(toRecorded);
    if (rows.length > 0 && rows[rows.length - 1].cut_after) page.cut = true;
    return page;
  }

  const logParams = (after: LogPosition | undefined, limit: number | null, filter: ReadAllOptions["filter"]) => [
    (after?.commit ?? 0n).toString(),
    (after?.prepare ?? 0n).toString(),
    limit,
    filter?.streamPrefixes ?? null,
    filter?.eventTypes ?? null,
  ];

  async function readPage(after: LogPosition | undefined, limit: number, filter: ReadAllOptions["filter"]): Promise<SizedPage> {
    const rows = await runner.query<PageRow>(READ_PAGE, [...logParams(after, limit, filter), maxPageBytes]);
    const cut = rows.length > 0 && rows[rows.length - 1].cut_after;
    return { events: rows.map((row) => handedOut(toRecorded(row), row.bytes)), bytes: rows.map((row) => row.bytes), full: cut || rows.length === limit };
  }

  async function readAll(readOptions: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    validateLimit(readOptions.limit);
    if (readOptions.limit !== undefined) return (await readPage(readOptions.after, readOptions.limit, readOptions.filter)).events;
    const rows = await runner.query<MessageRow>(READ_ALL, logParams(readOptions.after, null, readOptions.filter));
    return rows.map(toRecorded);
  }

  // Closing the store ends its subscriptions instead of leaving them polling a closed pool.
  const closing = new AbortController();

  function subscribeAll(subscribeOptions: SubscribeAllOptions = {}): AsyncIterable<RecordedEvent> {
    const log = { wakeup, readPage: (after: LogPosition | undefined, limit: number) => readPage(after, limit, subscribeOptions.filter), retriable: options.retriableRead };
    return linkedSubscription(subscribeOptions, closing.signal, (linked) => catchUpThenLive(log, linked, options));
  }

  async function streamVersion(streamId: string): Promise<bigint | null> {
    validateStreamId(streamId);
    if (versions) return versions.submit(streamId);
    const [row] = await runner.query<{ version: string }>("SELECT version::text AS version FROM streams WHERE stream_id = $1", [streamId]);
    return row ? BigInt(row.version) : null;
  }

  async function lastPosition(): Promise<LogPosition | null> {
    const [row] = await runner.query<{ tx: string; gp: string }>(LAST_POSITION);
    return row ? { commit: BigInt(row.tx), prepare: BigInt(row.gp) } : null;
  }

  let closed: Promise<void> | null = null;
  function close(): Promise<void> {
    closing.abort();
    closed ??= options.close();
    return closed;
  }

  return { append, readStream, readAll, readPage, subscribeAll, streamVersion, lastPosition, close };
}

function toRecorded(row: MessageRow): RecordedEvent {
  return {
    id: row.message_id,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    streamVersion: BigInt(row.sv),
    position: { commit: BigInt(row.tx), prepare: BigInt(row.gp) },
    recordedAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}
