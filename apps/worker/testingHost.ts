// What a host driving an external run sends, as the API would: RecordReplay per pair and then
// RequestRunCompletion, through the domain's command handling.
import { handleCommand, loadAggregate, pairStream, resultAggregate, runAggregate, runStream, type EventStore } from "@verdict/domain";
import { testClock, testIds } from "./testing.js";

const options = { clock: testClock, ids: testIds, context: { tenant: "acme", actor: "host" } };

export async function hostRecords(store: EventStore, runId: string, pairs: { scenario_key: string; model_label: string; replay: Record<string, unknown> }[]) {
  const run = (await loadAggregate(store, runAggregate, runStream(runId))).state;
  for (const pair of pairs) {
    const command = { type: "RecordReplay", run_id: runId, ...pair };
    await handleCommand(store, resultAggregate, pairStream(run, pair.scenario_key, pair.model_label), command, { ...options, decideContext: { run } });
  }
}

export async function requestCompletion(store: EventStore, runId: string, scored: number) {
  await handleCommand(store, runAggregate, runStream(runId), { type: "RequestRunCompletion", run_id: runId, scored }, options);
}
