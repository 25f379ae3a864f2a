// LogPosition helpers shared by the adapters.
import type { EventFilter, LogPosition, RecordedEvent } from "./port.js";

/** Orders positions as the log does: commit first, then prepare. */
export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function matchesFilter(event: Pick<RecordedEvent, "streamId" | "type">, filter: EventFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.streamPrefixes && !filter.streamPrefixes.some((prefix) => event.streamId.startsWith(prefix))) return false;
  if (filter.eventTypes && !filter.eventTypes.includes(event.type)) return false;
  return true;
}
