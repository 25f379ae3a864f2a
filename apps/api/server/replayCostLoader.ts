// One query a request for the usage counts of every run it asks about: the first run's request
// opens a batch, every run asked for before the next turn of the event loop joins it, and the
// batch is read with one aggregate query (ReadModels.replayCostGroups). A list of 100 runs asking
// `usage { agent { priced } }` reads once, not 100 times (nor every result row of each).
import type { ReplayCostGroup } from "@verdict/projector";
import type { ApiContext } from "./context.js";

interface Batch {
  runIds: Set<string>;
  groups: Promise<Map<string, ReplayCostGroup[]>>;
}

/** The batch being gathered, per request (keyed by its context, so it goes with the request). */
const gathering = new WeakMap<ApiContext, Batch>();

/** The run's cost groups (its scored results, counted by cost and cost source), read with the request's other runs. */
export function replayCostGroups(context: ApiContext, runId: string): Promise<ReplayCostGroup[]> {
  let batch = gathering.get(context);
  if (!batch) {
    const runIds = new Set<string>();
    const groups = new Promise<Map<string, ReplayCostGroup[]>>((resolve, reject) => {
      // After every resolver of this turn has asked (graphql-js resolves a list's items in one go).
      setImmediate(() => {
        gathering.delete(context);
        context.deps.readModels.replayCostGroups(context.principal.tenant, [...runIds]).then((rows) => {
          const byRun = new Map<string, ReplayCostGroup[]>();
          for (const row of rows) {
            const list = byRun.get(row.runId);
            if (list) list.push(row);
            else byRun.set(row.runId, [row]);
          }
          resolve(byRun);
        }, reject);
      });
    });
    batch = { runIds, groups };
    gathering.set(context, batch);
  }
  batch.runIds.add(runId);
  return batch.groups.then((byRun) => byRun.get(runId) ?? []);
}
