// Metadata every appended event carries: who asked, under which tenant, and which command and
// conversation it belongs to (causation and correlation), plus when the domain recorded it.
import { z } from "zod";
import { ID_PATTERN, ID_RULE } from "./streams.js";

export const eventMetadata = z.object({
  event_id: z.string().min(1),
  /** Id of the event or command that caused this one; null for a user's own command. */
  causation_id: z.string().nullable(),
  /** Shared by every event of one flow (a run, an import); defaults to the first event's id. */
  correlation_id: z.string().min(1),
  tenant: z.string().regex(ID_PATTERN, `must be ${ID_RULE}`),
  actor: z.string().min(1, "must not be blank"),
  recorded_at: z.iso.datetime({ offset: true }),
});
export type EventMetadata = z.output<typeof eventMetadata>;

/** What the caller of a command knows about it; ids and time are filled in when appending. */
export interface EventContext {
  tenant: string;
  actor: string;
  correlationId?: string;
  causationId?: string | null;
}
