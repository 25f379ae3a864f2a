// The events of an append as a read of the log would return them, built from what the append
// sent and what it answered, without reading them back. The embedded store hands them to its log
// tail (pglite/logTail.ts) so the projector and the dispatcher are not answered by a query for
// what was just written. A reader must not be able to tell them from read ones: the same fields
// in the same order and of the same types, ids as uuid::text prints them, data and metadata as
// jsonb gives them back (inJsonbOrder), the recorded time as the same timestamptz parsed by the
// same driver. Positions: an append's events take consecutive global positions (one statement
// draws them in stream-version order from the sequence), which holds when no other session draws
// from the sequence meanwhile: only the log's sole writer may use this (see pgliteEventStore.ts).
import type { LogPosition, RecordedEvent } from "../port.js";
import { inJsonbOrder } from "./jsonbOrder.js";

export interface AppendedBatch {
  streamId: string;
  /** The events as the JSON text the append sent ({ id, type, schemaVersion, data, metadata }[]). */
  batch: string;
  /** Stream version and log position of the append's last event. */
  lastVersion: bigint;
  last: LogPosition;
  recordedAt: Date;
}

interface SentEvent {
  id: string;
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/**
 * Null when the text holds an escaped UTF-16 surrogate (JSON.stringify writes a lone one as
 * \udXXX): jsonb's treatment of those is not reproduced here, so such an append is read back.
 */
export function appendedEvents(appended: AppendedBatch): RecordedEvent[] | null {
  if (/\\u[dD][89a-fA-F]/.test(appended.batch)) return null;
  const sent = JSON.parse(appended.batch) as SentEvent[];
  const first = sent.length - 1;
  return sent.map((event, i) => ({
    id: event.id.toLowerCase(),
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: inJsonbOrder(event.data) as Record<string, unknown>,
    metadata: inJsonbOrder(event.metadata) as Record<string, unknown>,
    streamId: appended.streamId,
    streamVersion: appended.lastVersion - BigInt(first - i),
    position: { commit: appended.last.commit, prepare: appended.last.prepare - BigInt(first - i) },
    recordedAt: new Date(appended.recordedAt.getTime()),
  }));
}
