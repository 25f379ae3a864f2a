// Finished runs kept in memory with the parts read for them (results, model summaries, fix
// items): nothing changes a run once it ended but a rebuild of the read models, which empties this
// cache once ReadModels.rebuilds notices it (rebuildWatch.ts). A small LRU, bounded by
// runs and by their results (a run's results carry every answer): the most recent run is always
// kept, older ones go while the runs kept hold more than `maxResults` results.
import { WeightedLru } from "@verdict/infra/cache";
import type { FixItem, ModelSummary, Result, Run } from "./types.js";

export interface FinishedRun {
  run: Run;
  results?: Promise<Result[]>;
  summaries?: Promise<ModelSummary[]>;
  fixItems?: Promise<FixItem[]>;
}

const isFinished = (run: Run) => run.status === "COMPLETED" || run.status === "FAILED";

export class FinishedRunCache {
  /** Weighed by each run's results. */
  readonly #finished: WeightedLru<FinishedRun>;

  constructor(
    readonly size: number,
    readonly maxResults = 5_000,
  ) {
    this.#finished = new WeightedLru({ maxEntries: size, maxWeight: maxResults });
  }

  clear(): void {
    this.#finished.clear();
  }

  /** The cached entry of a finished run, touched as most recently used. */
  get(tenant: string, runId: string): FinishedRun | undefined {
    return this.#finished.get(`${tenant}\u0000${runId}`);
  }

  remember(run: Run): FinishedRun | undefined {
    if (this.size === 0 || !isFinished(run)) return undefined;
    const entry: FinishedRun = { run };
    this.#finished.set(`${run.tenant}\u0000${run.id}`, entry, run.total);
    return entry;
  }

  /** Loads a part of a finished run once (concurrent callers share the load; a failure is not kept). */
  part<K extends "results" | "summaries" | "fixItems">(entry: FinishedRun, key: K, load: () => NonNullable<FinishedRun[K]>): NonNullable<FinishedRun[K]> {
    if (!entry[key]) {
      const loading = load();
      entry[key] = loading;
      loading.catch(() => {
        if (entry[key] === loading) entry[key] = undefined;
      });
    }
    return entry[key]!;
  }
}
