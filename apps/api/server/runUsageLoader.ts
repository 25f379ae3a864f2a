// The usage figures of every run a request asks about, read per side with one aggregate
// statement each: the first run's request of a side opens that side's batch, every run (and every
// part) asked for before the next turn of the event loop joins it, and the batch is read with one
// statement (ReadModels.runUsageFigures) computing only the parts its fields asked for. The agent
// side (`priced`, `replays`, ...) reads its scored results' cost groups; the judge side reads only
// what its fields need (`byKind` the calls per kind, the one part that reads every result's kinds;
// `model` the first model named; `source` where the usage came from; `run` the run's own calls).
// A list of 100 runs asking `usage { agent { priced } judge { byKind { kind } } }` reads twice, not
// 200 times (nor every result row of each); `usage { agent { priced } }` once, reading no kind.
import type { RunUsageFigures, RunUsagePart } from "@verdict/projector";
import type { ApiContext } from "./context.js";

/** The sides of a run's usage, each read with a statement of its own when one of its fields is asked. */
type Side = "agent" | "judge";

interface Batch {
  runIds: Set<string>;
  parts: Set<RunUsagePart>;
  figures: Promise<Map<string, RunUsageFigures>>;
}

/** The batches being gathered, per request (keyed by its context, so they go with the request) and side. */
const gathering = new WeakMap<ApiContext, Map<Side, Batch>>();

const sideOf = (part: RunUsagePart): Side => (part === "replays" ? "agent" : "judge");

/** A run with nothing to count: no scored result, no judge call. */
const none = (runId: string): RunUsageFigures => ({ runId, replays: [], judgeKinds: [], judgeModels: [], judgeSources: null, judgeRun: null });

/**
 * The run's usage figures for `parts` (all of one side), read with the request's other runs of
 * that side. A part another run of the batch asked for is read for this run too: the statement
 * is one per side, over every run of the batch.
 */
export function runUsageFigures(context: ApiContext, runId: string, parts: readonly RunUsagePart[]): Promise<RunUsageFigures> {
  const side = sideOf(parts[0]);
  let batches = gathering.get(context);
  if (!batches) gathering.set(context, (batches = new Map()));
  let batch = batches.get(side);
  if (!batch) {
    const runIds = new Set<string>();
    const asked = new Set<RunUsagePart>();
    const figures = new Promise<Map<string, RunUsageFigures>>((resolve, reject) => {
      // After every resolver of this turn has asked (graphql-js resolves a list's items in one go).
      setImmediate(() => {
        batches.delete(side);
        context.deps.readModels.runUsageFigures(context.principal.tenant, [...runIds], asked).then((rows) => {
          resolve(new Map(rows.map((row) => [row.runId, row])));
        }, reject);
      });
    });
    batch = { runIds, parts: asked, figures };
    batches.set(side, batch);
  }
  batch.runIds.add(runId);
  for (const part of parts) batch.parts.add(part);
  return batch.figures.then((byRun) => byRun.get(runId) ?? none(runId));
}
