// Every pair's recorded replay and score for one run (see pairEvents.ts for how they are read):
// whole (`collectPairs`), or as a run's completion reads them (`collectPairSummaries`).
import { eventRegistry, summaryDiagnosis, summaryReplay, type EventData, type EventStore } from "@verdict/domain";
import { forEachPairEvent } from "./pairEvents.js";
import type { RunContext } from "./runContext.js";

export interface RunPairs {
  replays: Map<number, EventData<"ReplayRecorded">>;
  scored: Map<number, EventData<"ResultScored">>;
}

type Keep = {
  /** Events a page of the scan reads (pairEvents.ts). */
  pageSize?: number;
  replay: (data: EventData<"ReplayRecorded">) => EventData<"ReplayRecorded">;
  scored: (data: EventData<"ResultScored">) => EventData<"ResultScored">;
};

const WHOLE: Keep = { replay: (data) => data, scored: (data) => data };

export function collectPairs(store: EventStore, run: RunContext): Promise<RunPairs> {
  return collect(store, run, WHOLE);
}

/**
 * The pairs as a run's completion reads them: each event is cut down as its page is read to what
 * the verdict, the comparison and the report's summary read (domain/report/summaryInputs.ts), so
 * completion holds a few hundred bytes a pair whatever the answers and tool output weigh, and at
 * most one page of whole events. A report of these writes the same summary as one of the whole
 * pairs; its results are not the run's results (no answers), so nothing else may read them.
 */
export function collectPairSummaries(store: EventStore, run: RunContext): Promise<RunPairs> {
  return collect(store, run, SUMMARY);
}

const SUMMARY: Keep = {
  // A page's byte budget counts stored bytes: 100 events bound a page of well-compressed answers
  // too (10,000 pairs are 200 reads).
  pageSize: 100,
  replay: (data) => ({ ...data, replay: summaryReplay(data.replay) }),
  // The judge's exchanges count only for what they used (exchangesUsage): kind and usage.
  scored: (data) => ({
    ...data,
    diagnosis: summaryDiagnosis(data.diagnosis),
    judge_exchanges: data.judge_exchanges.map((e) => ({ kind: e.kind, prompt_digest: "", raw_answer: null, parsed: null, usage: e.usage, trace_ids: [], error: null })),
  }),
};

async function collect(store: EventStore, run: RunContext, keep: Keep): Promise<RunPairs> {
  const pairs: RunPairs = { replays: new Map(), scored: new Map() };
  const query = { runId: run.runId, after: run.startedEvent.position, pairs: run.state.pairs.length, eventTypes: ["ReplayRecorded", "ResultScored"], pageSize: keep.pageSize };
  // Read in log order and then the direct reads' pairs, each in stream order: the last event of a
  // kind for a pair is its latest, as in the sorted list readPairEvents returns.
  await forEachPairEvent(store, query, (recorded) => {
    const event = eventRegistry.parseRecorded(recorded);
    if (event.type === "ReplayRecorded") pairs.replays.set(event.data.n, keep.replay(event.data));
    if (event.type === "ResultScored") pairs.scored.set(event.data.n, keep.scored(event.data));
  });
  return pairs;
}
