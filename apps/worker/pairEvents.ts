// Every event of one run's pair streams (result-<run>.<n>), in log order: one paged read of the
// log after the run started, filtered to the run's result streams, then a direct read of each
// pair that read did not show scored. A pair is so never taken as missing because of how the log
// was paged, and a finished run costs one filtered scan instead of one read per pair (3,000
// stream reads for a 1,000 x 3 run).
import { comparePositions } from "@verdict/infra/eventstore";
import { resultStream, type EventStore, type LogPosition, type RecordedEvent } from "@verdict/domain";

const PAGE = 1000;

export interface PairEventsQuery {
  runId: string;
  /** The run's RunStarted position: every pair event comes after it. */
  after: LogPosition;
  /** Pairs the run planned (scenarios x models). */
  pairs: number;
  /** Only these event types (default: every type). */
  eventTypes?: string[];
  /**
   * Events a page of the scan asks for (default 1000). The store also cuts a page by its byte
   * budget, but the SQL stores count bytes as stored, compressed: a page of answers that compress
   * well can hold far more than the budget once read.
   */
  pageSize?: number;
}

export async function readPairEvents(store: EventStore, query: PairEventsQuery): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  const direct = await forEachPairEvent(store, query, (event) => void events.push(event));
  if (direct > 0) events.sort((a, b) => comparePositions(a.position, b.position));
  return events;
}

/**
 * `readPairEvents` handing each event to `visit` as its page is read, so a caller that keeps
 * less than the events (a run's completion) never holds more than one page of them. The scan's
 * events come in log order, then those the direct reads added, each pair's in stream order.
 * Returns how many the direct reads added.
 */
export async function forEachPairEvent(store: EventStore, query: PairEventsQuery, visit: (event: RecordedEvent) => void): Promise<number> {
  const scored = new Set<string>();
  const seen = new Set<string>();
  const see = (event: RecordedEvent) => {
    seen.add(event.id);
    if (event.type === "ResultScored") scored.add(event.streamId);
    visit(event);
  };
  const filter = { streamPrefixes: [`result-${query.runId}.`], eventTypes: query.eventTypes };
  let after: LogPosition | undefined = query.after;
  for (;;) {
    const page = await store.readAll({ after, limit: query.pageSize ?? PAGE, filter });
    // Only an empty page ends the log: a page cut short by the store's byte budget does not.
    if (page.length === 0) break;
    for (const event of page) see(event);
    after = page[page.length - 1].position;
  }
  let added = 0;
  for (let n = 0; n < query.pairs; n++) {
    const stream = resultStream(query.runId, n);
    if (scored.has(stream)) continue;
    for (const event of await store.readStream(stream)) {
      if (seen.has(event.id) || (query.eventTypes && !query.eventTypes.includes(event.type))) continue;
      visit(event);
      added += 1;
    }
  }
  return added;
}
