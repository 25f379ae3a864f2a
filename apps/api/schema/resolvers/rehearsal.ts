// startRun and importReport append twice: RunScheduled on the evaluation, then the run stream's
// first event. The domain decides the second only after the first is written, so a run the run
// stream refuses (a report it cannot read, a snapshot over the store's event size limit) left a
// scheduled run that never started, listed among the evaluation's runs, its number taken.
// Rehearsed first on a copy of the streams the command reads, the same refusal happens before
// anything is written (a race between the two can still end as the domain describes: a gap).
import { readWholeStream, type EventStore } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";

/**
 * Runs `command` against an in-memory copy of `streams`; throws what it throws, writes nothing.
 * A history the copy will not take (events older than a rule the store checks today) is not
 * rehearsed: the command then runs as the domain runs it, which is how it ran before.
 */
export async function rehearse(store: EventStore, streams: string[], command: (copy: EventStore) => Promise<unknown>): Promise<void> {
  const copy = createMemoryEventStore();
  try {
    for (const streamId of streams) {
      const events = await readWholeStream(store, streamId);
      if (events.length === 0) continue;
      const toAppend = events.map(({ id, type, schemaVersion, data, metadata }) => ({ id, type, schemaVersion, data, metadata }));
      try {
        await copy.append(streamId, toAppend, { expectedVersion: "noStream" });
      } catch {
        return;
      }
    }
    await command(copy);
  } finally {
    await copy.close();
  }
}
