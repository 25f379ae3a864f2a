// A stored event of a known type whose data this code cannot read (its schema refuses it, or no
// upcaster lifts it). Retrying never helps, so every reader of the log that meets one must be able
// to say which event it was: the error carries the stream, its version and the log position,
// never the data (which may be large, or hold what a host sent).
import type { LogPosition, RecordedEvent } from "../ports/eventStore.js";
import { DomainError } from "./domainError.js";

export class UnreadableEventError extends DomainError {
  readonly eventType: string;
  readonly streamId: string;
  readonly streamVersion: bigint;
  readonly position: LogPosition;
  /** Why the schema refused it (the validation message, without where the event is). */
  readonly reason: string;

  constructor(recorded: RecordedEvent, reason: string, field?: string) {
    const at = `${recorded.position.commit}/${recorded.position.prepare}`;
    super("validation", `${reason} (stream ${recorded.streamId} at version ${recorded.streamVersion}, log position ${at})`, field);
    this.name = "UnreadableEventError";
    this.eventType = recorded.type;
    this.streamId = recorded.streamId;
    this.streamVersion = recorded.streamVersion;
    this.position = recorded.position;
    this.reason = reason;
  }
}
