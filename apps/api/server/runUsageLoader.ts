// One query a request for the usage figures of every run it asks about: the first run's request
// opens a batch, every run asked for before the next turn of the event loop joins it, and the
// batch is read with one aggregate query (ReadModels.runUsageFigures). A list of 100 runs asking
// `usage { agent { priced } judge { byKind { kind } } }` reads once, not 100 times (nor every
// result row of each).
import type { RunUsageFigures } from "@verdict/projector";
import type { ApiContext } from "./context.js";

interface Batch {
  runIds: Set<string>;
  figures: Promise<Map<string, RunUsageFigures>>;
}

/** The batch being gathered, per request (keyed by its context, so it goes with the request). */
const gathering = new WeakMap<ApiContext, Batch>();

/** A run with nothing to count: no scored result, no judge call. */
const none = (runId: string): RunUsageFigures => ({ runId, replays: [], judgeKinds: [], judgeModels: [], judgeRun: null });

/** The run's usage figures (its scored results' cost groups, its judge's calls by kind), read with the request's other runs. */
export function runUsageFigures(context: ApiContext, runId: string): Promise<RunUsageFigures> {
  let batch = gathering.get(context);
  if (!batch) {
    const runIds = new Set<string>();
    const figures = new Promise<Map<string, RunUsageFigures>>((resolve, reject) => {
      // After every resolver of this turn has asked (graphql-js resolves a list's items in one go).
      setImmediate(() => {
        gathering.delete(context);
        context.deps.readModels.runUsageFigures(context.principal.tenant, [...runIds]).then((rows) => {
          resolve(new Map(rows.map((row) => [row.runId, row])));
        }, reject);
      });
    });
    batch = { runIds, figures };
    gathering.set(context, batch);
  }
  batch.runIds.add(runId);
  return batch.figures.then((byRun) => byRun.get(runId) ?? none(runId));
}
