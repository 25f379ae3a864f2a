// Every pair's recorded replay and score for one run: one paged read of the log after the run
// started (filtered to the run's result streams), then a direct read of any pair that read did
// not show, so a pair is never taken as missing because of how the log was paged.
import { eventRegistry, resultStream, type EventData, type EventStore, type LogPosition } from "@verdict/domain";
import type { RunContext } from "./runContext.js";

const PAGE = 1000;

export interface RunPairs {
  replays: Map<number, EventData<"ReplayRecorded">>;
  scored: Map<number, EventData<"ResultScored">>;
}

function take(pairs: RunPairs, recorded: Parameters<typeof eventRegistry.parseRecorded>[0]): void {
  const event = eventRegistry.parseRecorded(recorded);
  if (event.type === "ReplayRecorded") pairs.replays.set(event.data.n, event.data);
  if (event.type === "ResultScored") pairs.scored.set(event.data.n, event.data);
}

export async function collectPairs(store: EventStore, run: RunContext): Promise<RunPairs> {
  const pairs: RunPairs = { replays: new Map(), scored: new Map() };
  const filter = { streamPrefixes: [`result-${run.runId}.`], eventTypes: ["ReplayRecorded", "ResultScored"] };
  let after: LogPosition | undefined = run.startedEvent.position;
  for (;;) {
    const page = await store.readAll({ after, limit: PAGE, filter });
    for (const recorded of page) take(pairs, recorded);
    if (page.length < PAGE) break;
    after = page[page.length - 1].position;
  }
  const total = run.state.pairs.length;
  for (let n = 0; n < total; n++) {
    if (pairs.scored.has(n)) continue;
    for (const recorded of await store.readStream(resultStream(run.runId, n))) take(pairs, recorded);
  }
  return pairs;
}
