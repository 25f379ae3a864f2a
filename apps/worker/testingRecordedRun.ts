// Tests: a finished run as its events recorded it, and its report rebuilt from them, the way the
// API reads a run's pairs (loadRunHistory: one scan of the log after RunStarted).
import { eventRegistry, readWholeStream, runStream, type EventData, type EventStore, type Report } from "@verdict/domain";
import { readPairEvents } from "./pairEvents.js";
import { reportFromRun } from "./runReport.js";
import { runEvents } from "./testing.js";

export interface RecordedRun {
  started: EventData<"RunStarted">;
  replays: Map<number, EventData<"ReplayRecorded">>;
  scored: Map<number, EventData<"ResultScored">>;
  /** The RunCompleted event's summary, as the completion wrote it. */
  summary: Record<string, unknown>;
  /** The report rebuilt from the recorded events. */
  report: Report;
}

/** The finished run `runId`: throws when its last event is not RunCompleted. */
export async function recordedRun(store: EventStore, runId: string): Promise<RecordedRun> {
  const events = await runEvents(store, runId);
  if (events.at(-1)?.type !== "RunCompleted") throw new Error(`run ${runId} ended with ${events.at(-1)?.type}, not RunCompleted`);
  const pick = <T extends "RunStarted" | "RunCompleted" | "VerdictRecorded" | "ComparisonRecorded" | "KpiAuthoringRecorded">(type: T) => events.find((e) => e.type === type)?.data as EventData<T>;
  const started = pick("RunStarted");
  const [startedRecorded] = await readWholeStream(store, runStream(runId));
  const replays = new Map<number, EventData<"ReplayRecorded">>();
  const scored = new Map<number, EventData<"ResultScored">>();
  for (const recorded of await readPairEvents(store, { runId, after: startedRecorded.position, pairs: started.scenarios.length * started.models.length })) {
    const event = eventRegistry.parseRecorded(recorded);
    if (event.type === "ReplayRecorded") replays.set(event.data.n, event.data);
    if (event.type === "ResultScored") scored.set(event.data.n, event.data);
  }
  const report = reportFromRun({ started, kpiAuthoring: pick("KpiAuthoringRecorded") ?? null, replays, scored, verdict: pick("VerdictRecorded"), comparison: pick("ComparisonRecorded") });
  return { started, replays, scored, summary: pick("RunCompleted").summary as Record<string, unknown>, report };
}
