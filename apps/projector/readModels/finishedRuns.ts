// Finished runs kept in memory with the parts read for them (results, model summaries, fix
// items): nothing changes a run once it ended, so they never go stale. A small LRU, bounded by
// runs and by their results (a run's results carry every answer): the most recent run is always
// kept, older ones go while the runs kept hold more than `maxResults` results.
import type { FixItem, ModelSummary, Result, Run } from "./types.js";

export interface FinishedRun {
  run: Run;
  results?: Promise<Result[]>;
  summaries?: Promise<ModelSummary[]>;
  fixItems?: Promise<FixItem[]>;
}

export const isFinished = (run: Run) => run.status === "COMPLETED" || run.status === "FAILED";

export class FinishedRunCache {
  readonly #finished = new Map<string, FinishedRun>();

  #results = 0;

  constructor(
    readonly size: number,
    readonly maxResults = 5_000,
  ) {}

  clear(): void {
    this.#finished.clear();
    this.#results = 0;
  }

  /** The cached entry of a finished run, touched as most recently used. */
  get(tenant: string, runId: string): FinishedRun | undefined {
    const key = `${tenant}\u0000${runId}`;
    const entry = this.#finished.get(key);
    if (entry) {
      this.#finished.delete(key); // re-inserted last: the Map's order is the LRU order
      this.#finished.set(key, entry);
    }
    return entry;
  }

  remember(run: Run): FinishedRun | undefined {
    if (this.size === 0 || !isFinished(run)) return undefined;
    const key = `${run.tenant}\u0000${run.id}`;
    const replaced = this.#finished.get(key);
    if (replaced) {
      this.#finished.delete(key);
      this.#results -= replaced.run.total;
    }
    const entry: FinishedRun = { run };
    this.#finished.set(key, entry);
    this.#results += run.total;
    while (this.#finished.size > 1 && (this.#finished.size > this.size || this.#results > this.maxResults)) {
      const [oldest, dropped] = this.#finished.entries().next().value!;
      this.#finished.delete(oldest);
      this.#results -= dropped.run.total;
    }
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
