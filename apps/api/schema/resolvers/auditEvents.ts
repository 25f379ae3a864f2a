// A recorded event as runAudit and the runEvents subscription show it. Its position is its place
// among the run's events (its run stream and pair streams, in log order), from 0: the log's own
// position counts every tenant's events, so the gap between two of a run's told its tenant how
// many events other tenants had written in between.
import type { RecordedEvent } from "@verdict/domain";
import type { AuditEvent } from "../types/report.js";

/** `event`, the run's `ordinal`-th event (from 0), as an AuditEvent. */
export function auditEvent(event: RecordedEvent, ordinal: number): AuditEvent {
  return {
    type: event.type,
    streamId: event.streamId,
    version: event.streamVersion.toString(),
    position: String(ordinal),
    recordedAt: event.recordedAt.toISOString(),
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
  };
}
