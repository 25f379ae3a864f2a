// The latest stretch of the log, kept in memory and shared by the embedded store's readers. In
// one process the projector and the dispatcher both follow the whole log, so every event was
// read from PGlite (and its JSON decoded) twice; on the embedded run that was most of the
// store's time. Pages are now read once, unfiltered, into this window; a reader whose position
// lies inside it is answered from it (filtered as it asked), and only what lies past its end is
// read from the database. The window holds EVERY event after `from` up to `to` — it only grows by
// unfiltered reads that start at `to` — and the store's reads return only events below the
// visible bound (nothing can later commit at or before them), so an answer from the window is the
// answer the database would give. Readers behind the window read the database as before.
// The window is bounded by bytes as well as by events, and its answers are pages bounded as the
// store's are (page.ts): a run of large events (catalog re-imports) must not all stay in memory.
import { DEFAULT_MAX_PAGE_BYTES, fitsPage, handedOut, type LogPage, type SizedPage } from "../page.js";
import type { EventFilter, LogPosition, RecordedEvent } from "../port.js";
import { comparePositions, matchesFilter } from "../position.js";

type Bound = LogPosition | "start";

function compare(a: Bound, b: Bound): number {
  if (a === "start") return b === "start" ? 0 : -1;
  if (b === "start") return 1;
  return comparePositions(a, b);
}

type ReadLog = (after: LogPosition | undefined, limit: number, filter: EventFilter | undefined) => Promise<SizedPage>;

interface LogTailOptions {
  /** Most events the window keeps (default 5,000). */
  maxEvents?: number;
  /** Most bytes of events the window keeps, as the pages count them (default 8 pages' budget). */
  maxBytes?: number;
  /** Events per page read from the database (default 500). */
  pageSize?: number;
  /** The byte budget of a page it answers (default DEFAULT_MAX_PAGE_BYTES). */
  maxPageBytes?: number;
}

export class LogTail {
  #events: RecordedEvent[] = [];
  /** Bytes of each event of the window, and their sum. */
  #bytes: number[] = [];
  #total = 0;
  /** The window holds every event after `from`, up to and including `to`; null before the first read. */
  #from: Bound | null = null;
  #to: Bound = "start";
  #serial: Promise<unknown> = Promise.resolve();
  /** The last position appended through the store, when it is the log's only writer (noteAppended). */
  #appended: LogPosition | null = null;

  constructor(
    private readonly readLog: ReadLog,
    private readonly options: LogTailOptions = {},
  ) {}

  /**
   * An append through the log's only writer has committed, its last event at `position`; called
   * in commit order. Once the window reaches the last such position, reading past its end would
   * find nothing: it is answered without the database (each wake-up after an append used to be an
   * empty query). With `events`, the append's events as a read would return them (see
   * sql/appendedEvents.ts; asked only when taken), a window that already holds every earlier
   * append takes them as they are: nothing can lie between its end and them, so the window still
   * holds every event up to its end, and nobody reads back what was just written. Otherwise (no
   * events, or a window not caught up yet) the next read past the window fetches them. `bytes`
   * is the append's JSON text, shared evenly by its events (it is one text; most appends hold
   * one event, or a few of like size).
   */
  noteAppended(position: LogPosition, events?: () => RecordedEvent[] | null, bytes = 0): void {
    const taken = events && this.#from !== null && this.#holdsEveryAppend() ? builtOrNull(events) : null;
    if (taken && taken.length > 0 && compare(taken[0].position, this.#to) > 0) {
      const each = Math.ceil(bytes / taken.length);
      for (const event of taken) this.#keep(event, each);
      this.#to = position;
      this.#trim();
    }
    if (!this.#appended || comparePositions(position, this.#appended) > 0) this.#appended = position;
  }

  /**
   * Up to `limit` events after `after` matching `filter`, in log order, fewer once they reach
   * the page budget. `fresh` asks the database for what lies past the window even when no append
   * was noted there (the poll fallback).
   */
  read(after: LogPosition | undefined, limit: number, filter: EventFilter | undefined, fresh = false): Promise<LogPage> {
    const result = this.#serial.then(() => this.#read(after, limit, filter, fresh));
    this.#serial = result.catch(() => undefined);
    return result;
  }

  async #read(after: LogPosition | undefined, limit: number, filter: EventFilter | undefined, fresh: boolean): Promise<LogPage> {
    const at: Bound = after ?? "start";
    if (this.#from === null) {
      if (filter) return this.readLog(after, limit, filter);
      this.#from = at;
      this.#to = at;
    }
    if (compare(at, this.#from) < 0 || compare(at, this.#to) > 0) return this.readLog(after, limit, filter);
    const page = new PageBuilder(limit, this.options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES);
    for (let i = this.#firstAfter(at); i < this.#events.length && !page.full; i++) {
      if (matchesFilter(this.#events[i], filter)) page.offer(this.#events[i], this.#bytes[i]);
    }
    const pageSize = this.options.pageSize ?? 500;
    // Where `page` goes on from. An append noted while a page is read may move the window's end
    // past it (noteAppended): those events are then in the window already, and in the page too.
    let cursor = this.#to;
    while (!page.full && (fresh || !this.#holdsEveryAppend())) {
      const read = await this.readLog(cursor === "start" ? undefined : cursor, pageSize, undefined);
      read.events.forEach((event, k) => {
        if (compare(event.position, this.#to) > 0) this.#keep(event, read.bytes[k]);
        if (!page.full && matchesFilter(event, filter)) page.offer(event, read.bytes[k]);
      });
      if (read.events.length > 0) cursor = read.events[read.events.length - 1].position;
      if (compare(cursor, this.#to) > 0) this.#to = cursor;
      // Trimmed page by page: a reader whose filter matches little may read far past the window.
      this.#trim();
      if (!read.full) break;
    }
    return { events: page.events, full: page.full };
  }

  #keep(event: RecordedEvent, bytes: number): void {
    this.#events.push(event);
    this.#bytes.push(bytes);
    this.#total += bytes;
  }

  #holdsEveryAppend(): boolean {
    return this.#appended !== null && compare(this.#to, this.#appended) >= 0;
  }

  /** Index of the first event of the window after `at` (binary search: the window is in log order). */
  #firstAfter(at: Bound): number {
    let low = 0;
    let high = this.#events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(this.#events[middle].position, at) > 0) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  #trim(): void {
    const maxEvents = this.options.maxEvents ?? 5000;
    const maxBytes = this.options.maxBytes ?? 8 * (this.options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES);
    let excess = 0;
    let total = this.#total;
    while (excess < this.#events.length && (this.#events.length - excess > maxEvents || total > maxBytes)) total -= this.#bytes[excess++];
    if (excess === 0) return;
    this.#from = this.#events[excess - 1].position;
    this.#events.splice(0, excess);
    this.#bytes.splice(0, excess);
    this.#total = total;
  }
}

/** A reader's page: copies of the events offered, until `limit` of them or the byte budget (page.ts). */
class PageBuilder {
  readonly events: RecordedEvent[] = [];
  full = false;
  #used = 0;

  constructor(
    private readonly limit: number,
    private readonly maxBytes: number,
  ) {}

  offer(event: RecordedEvent, bytes: number): void {
    if (!fitsPage(this.events.length, this.#used, bytes, this.maxBytes)) {
      this.full = true;
      return;
    }
    this.events.push(handedOut({ ...event }, bytes));
    this.#used += bytes;
    if (this.events.length === this.limit) this.full = true;
  }
}

/**
 * The append's events, or null when building them fails: the append has committed (its caller
 * must get its answer), and the events are then read back from the database like any others.
 */
function builtOrNull(build: () => RecordedEvent[] | null): RecordedEvent[] | null {
  try {
    return build();
  } catch {
    return null;
  }
}
