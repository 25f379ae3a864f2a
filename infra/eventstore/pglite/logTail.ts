// The latest stretch of the log, kept in memory and shared by the embedded store's readers. In
// one process the projector and the dispatcher both follow the whole log, so every event was
// read from PGlite (and its JSON decoded) twice; on the embedded run that was most of the
// store's time. Pages are now read once, unfiltered, into this window; a reader whose position
// lies inside it is answered from it (filtered as it asked), and only what lies past its end is
// read from the database. The window holds EVERY event after `from` up to `to` — it only grows by
// unfiltered reads that start at `to` — and the store's reads return only events below the
// visible bound (nothing can later commit at or before them), so an answer from the window is the
// answer the database would give. Readers behind the window read the database as before.
import type { EventFilter, LogPosition, RecordedEvent } from "../port.js";
import { comparePositions, matchesFilter } from "../position.js";

type Bound = LogPosition | "start";

function compare(a: Bound, b: Bound): number {
  if (a === "start") return b === "start" ? 0 : -1;
  if (b === "start") return 1;
  return comparePositions(a, b);
}

export type ReadLog = (after: LogPosition | undefined, limit: number, filter: EventFilter | undefined) => Promise<RecordedEvent[]>;

export class LogTail {
  #events: RecordedEvent[] = [];
  /** The window holds every event after `from`, up to and including `to`; null before the first read. */
  #from: Bound | null = null;
  #to: Bound = "start";
  #serial: Promise<unknown> = Promise.resolve();
  /** The last position appended through the store, when it is the log's only writer (noteAppended). */
  #appended: LogPosition | null = null;

  constructor(
    private readonly readLog: ReadLog,
    private readonly options: { maxEvents?: number; pageSize?: number } = {},
  ) {}

  /**
   * An append through the log's only writer has committed at `position`. Once the window reaches
   * the last such position, reading past its end would find nothing: it is answered without the
   * database. Each wake-up after an append found the window already holding everything the append
   * batch wrote (the batch's first wake-up read it all), so those were empty queries, and the most
   * frequent statement of an embedded run.
   */
  noteAppended(position: LogPosition): void {
    if (!this.#appended || comparePositions(position, this.#appended) > 0) this.#appended = position;
  }

  /**
   * Up to `limit` events after `after` matching `filter`, in log order. `fresh` asks the database
   * for what lies past the window even when no append was noted there (the poll fallback).
   */
  read(after: LogPosition | undefined, limit: number, filter: EventFilter | undefined, fresh = false): Promise<RecordedEvent[]> {
    const result = this.#serial.then(() => this.#read(after, limit, filter, fresh));
    this.#serial = result.catch(() => undefined);
    return result;
  }

  async #read(after: LogPosition | undefined, limit: number, filter: EventFilter | undefined, fresh: boolean): Promise<RecordedEvent[]> {
    const at: Bound = after ?? "start";
    if (this.#from === null) {
      if (filter) return this.readLog(after, limit, filter);
      this.#from = at;
      this.#to = at;
    }
    if (compare(at, this.#from) < 0 || compare(at, this.#to) > 0) return this.readLog(after, limit, filter);
    const out: RecordedEvent[] = [];
    for (let i = this.#firstAfter(at); i < this.#events.length && out.length < limit; i++) {
      const event = this.#events[i];
      if (matchesFilter(event, filter)) out.push({ ...event });
    }
    const pageSize = this.options.pageSize ?? 500;
    while (out.length < limit && (fresh || !this.#holdsEveryAppend())) {
      const page = await this.readLog(this.#to === "start" ? undefined : this.#to, pageSize, undefined);
      for (const event of page) {
        this.#events.push(event);
        if (out.length < limit && matchesFilter(event, filter)) out.push({ ...event });
      }
      if (page.length > 0) this.#to = page[page.length - 1].position;
      if (page.length < pageSize) break;
    }
    this.#trim();
    return out;
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
    const excess = this.#events.length - (this.options.maxEvents ?? 5000);
    if (excess <= 0) return;
    this.#from = this.#events[excess - 1].position;
    this.#events.splice(0, excess);
  }
}
