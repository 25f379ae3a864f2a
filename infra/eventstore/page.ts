// A page of the log, bounded by bytes as well as by events. An event may hold 8 MB (a 2 MB
// catalog is stored twice in one), so 500 events a page could be gigabytes; a projector that ran
// out of memory on such a page would read the same page again on restart, and crash again. Every
// paged read (readAll with a limit, a subscription's catch-up, readStream with a limit above 1:
// folding a catalog imported on every commit read each earlier import at once) stops once its
// events' data and metadata reach the budget, and always holds at least one event, so a reader
// moves on even past an event larger than the budget.
import type { RecordedEvent } from "./port.js";

/**
 * The default budget of a page. Each adapter counts bytes as it can without reading the events
 * twice: PostgreSQL and PGlite count them as stored (after TOAST compression: a generated 2 MB
 * catalog's event is 4.3 MB of JSON and 1.2 MB stored), the memory store counts JSON text,
 * and the embedded log tail the JSON text of the events it took from appends (those it read
 * from the database carry their stored size). 4 MB stored is so about 14 MB of JSON for events
 * that compress like a catalog; a page of small events (~1 KB each) reaches its 500 events long
 * before.
 */
export const DEFAULT_MAX_PAGE_BYTES = 4 * 1024 * 1024;

export interface PageBudget {
  /**
   * Bytes of events' data and metadata after which a page of the log or of a stream stops (default
   * DEFAULT_MAX_PAGE_BYTES); tests set a small one to see pages cut.
   */
  maxPageBytes?: number;
}

export interface LogPage {
  events: RecordedEvent[];
  /**
   * The page stopped at its limit or at its byte budget, so more may follow at once: read again
   * without waiting. A page that is not full reached the end of what the reader could see.
   */
  full: boolean;
}

/** A page as the SQL adapters read it, with each event's bytes (as the adapter counts them). */
export interface SizedPage extends LogPage {
  bytes: number[];
}

/** Whether an event of `bytes` goes on a page that holds `count` events of `used` bytes: the first always does. */
export function fitsPage(count: number, used: number, bytes: number, maxBytes: number): boolean {
  return count === 0 || used + bytes <= maxBytes;
}

// What a page counted for each event it handed out. A consumer that gathers the events of
// several pages into one batch (the projector: PGlite answers a page before any I/O, so a batch
// that takes whatever is already there took up to 500 events of any size) bounds the batch by
// the same count without measuring the events again. Keyed by the object handed out, in a
// WeakMap: it keeps no event alive, and a copy of an event is simply not counted.
const counted = new WeakMap<RecordedEvent, number>();

/** Notes the bytes a page counted for an event it hands out; returns the event. */
export function handedOut(event: RecordedEvent, bytes: number): RecordedEvent {
  counted.set(event, bytes);
  return event;
}

/** The bytes a page of this store counted for `event`, or 0 for an event no page handed out. */
export function countedBytes(event: RecordedEvent): number {
  return counted.get(event) ?? 0;
}
