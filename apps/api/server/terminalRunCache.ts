// A completed or failed run never changes again (a projector rebuild writes identical rows), so
// what the API reads about one (its row, results, summaries, history, rebuilt report) is kept in
// memory for the runs read most recently. Runs still going are always read fresh.
//
// The bound is on results as well as on runs: what is kept about a run grows with its results
// (its history alone is every event of every pair, ~5 KB a result with the rest), so eight
// 1,000 x 3 runs held ~110 MB, and an embedded process that served one run after another grew by
// ~15 MB a run until it had eight. The most recently read run is always kept, however large.
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(["COMPLETED", "FAILED", "completed", "failed"]);

export interface TerminalRunCacheLimits {
  /** At most this many runs are kept (default 8). */
  maxRuns?: number;
  /** The runs kept hold at most this many results, unless the most recent alone holds more (default 5,000). */
  maxResults?: number;
}

interface CachedRun {
  fields: Map<string, Promise<unknown>>;
  /** The run's result count, as far as what was read about it says (0 until something does). */
  results: number;
}

export class TerminalRunCache {
  readonly #runs = new Map<string, CachedRun>();
  readonly #maxRuns: number;
  readonly #maxResults: number;
  #results = 0;

  constructor({ maxRuns = 8, maxResults = 5_000 }: TerminalRunCacheLimits = {}) {
    this.#maxRuns = maxRuns;
    this.#maxResults = maxResults;
  }

  /** How many runs are kept now (for tests and metrics). */
  get size(): number {
    return this.#runs.size;
  }

  #entry(tenant: string, runId: string, create: boolean, results = 0): CachedRun | undefined {
    const key = `${tenant}\u0000${runId}`;
    let found = this.#runs.get(key);
    if (found) {
      this.#runs.delete(key); // most recently used last
      this.#runs.set(key, found);
    } else if (create) {
      found = { fields: new Map(), results: 0 };
      this.#runs.set(key, found);
    }
    if (found && results > found.results) {
      this.#results += results - found.results;
      found.results = results;
    }
    if (found) this.#evict();
    return found;
  }

  /** Forgets the least recently used runs while over a limit; never the most recent one. */
  #evict(): void {
    while (this.#runs.size > 1 && (this.#runs.size > this.#maxRuns || this.#results > this.#maxResults)) {
      const [oldest, run] = this.#runs.entries().next().value as [string, CachedRun];
      this.#runs.delete(oldest);
      this.#results -= run.results;
    }
  }

  /**
   * Something that says the run's status itself (its row, its history): cached once terminal.
   * `resultsOf` says how many results the run has, from the value, for the results limit.
   */
  async whenTerminal<T extends { status: string }>(
    tenant: string,
    runId: string,
    field: string,
    load: () => Promise<T | null>,
    resultsOf: (value: T) => number = () => 0,
  ): Promise<T | null> {
    const cached = this.#entry(tenant, runId, false)?.fields.get(field);
    if (cached) return cached as Promise<T>;
    const value = await load();
    if (value && TERMINAL_STATUSES.has(value.status)) this.#entry(tenant, runId, true, resultsOf(value))!.fields.set(field, Promise.resolve(value));
    return value;
  }

  /** Anything read about a run whose status (and result count) is known: cached when terminal, else loaded. */
  read<T>(tenant: string, runId: string, status: string, field: string, load: () => Promise<T>, results = 0): Promise<T> {
    if (!TERMINAL_STATUSES.has(status)) return load();
    const entry = this.#entry(tenant, runId, true, results)!;
    let found = entry.fields.get(field) as Promise<T> | undefined;
    if (!found) {
      found = load();
      entry.fields.set(field, found);
      found.catch(() => entry.fields.delete(field));
    }
    return found;
  }
}
