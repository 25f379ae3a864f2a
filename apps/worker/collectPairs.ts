// Every pair's recorded replay and score for one run (see pairEvents.ts for how they are read).
import { eventRegistry, type EventData, type EventStore } from "@verdict/domain";
import { readPairEvents } from "./pairEvents.js";
import type { RunContext } from "./runContext.js";

export interface RunPairs {
  replays: Map<number, EventData<"ReplayRecorded">>;
  scored: Map<number, EventData<"ResultScored">>;
}

export async function collectPairs(store: EventStore, run: RunContext): Promise<RunPairs> {
  const pairs: RunPairs = { replays: new Map(), scored: new Map() };
  const query = { runId: run.runId, after: run.startedEvent.position, pairs: run.state.pairs.length, eventTypes: ["ReplayRecorded", "ResultScored"] };
  for (const recorded of await readPairEvents(store, query)) {
    const event = eventRegistry.parseRecorded(recorded);
    if (event.type === "ReplayRecorded") pairs.replays.set(event.data.n, event.data);
    if (event.type === "ResultScored") pairs.scored.set(event.data.n, event.data);
  }
  return pairs;
}
