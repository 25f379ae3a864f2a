// A completed or failed run never changes again (a projector rebuild writes identical rows), so
// what the API reads about one (its row, results, summaries, history, rebuilt report) is kept in
// memory for the runs read most recently. Runs still going are always read fresh.
//
// The bound is on results as well as on runs: what is kept about a run grows with its results
// (its history alone is every event of every pair, ~5 KB a result with the rest), so eight
// 1,000 x 3 runs held ~110 MB, and an embedded process that served one run after another grew by
// ~15 MB a run until it had eight. The most recently read run is always kept, however large.
//
// A run's fields are a fixed set of names ("results", "fixItems", "html:dark", ...), never text a
// caller chose: filtered reads (results(fault:), fixItems(model:)) filter the cached full list.
// Keyed by their arguments, one run read with a new 1.5 MB `fault` each time grew the process by
// ~1.5 MB a request, and the run read most recently is never evicted. `maxFieldsPerRun` is the
// backstop should a field keyed by an argument come back: past it, reads load without keeping.
import { WeightedLru } from "@verdict/infra/cache";

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(["COMPLETED", "FAILED", "completed", "failed"]);

export interface TerminalRunCacheLimits {
  /** At most this many runs are kept (default 8). */
  maxRuns?: number;
  /** The runs kept hold at most this many results, unless the most recent alone holds more (default 5,000). */
  maxResults?: number;
  /** At most this many fields are kept a run (default 32; the API reads about a dozen). */
  maxFieldsPerRun?: number;
}

export class TerminalRunCache {
  /** Per run, what was read about it by field; weighed by the run's results. */
  readonly #runs: WeightedLru<Map<string, Promise<unknown>>>;
  readonly #maxFields: number;

  constructor({ maxRuns = 8, maxResults = 5_000, maxFieldsPerRun = 32 }: TerminalRunCacheLimits = {}) {
    this.#runs = new WeightedLru({ maxEntries: maxRuns, maxWeight: maxResults });
    this.#maxFields = maxFieldsPerRun;
  }

  /** How many runs are kept now (for tests and metrics). */
  get size(): number {
    return this.#runs.size;
  }

  /** How many fields are kept now, over every run (for tests and metrics). */
  get fieldCount(): number {
    let count = 0;
    for (const fields of this.#runs.values()) count += fields.size;
    return count;
  }

  /** Whether `field` may be added to the run's fields (it is already there, or there is room). */
  #room(fields: Map<string, Promise<unknown>>, field: string): boolean {
    return fields.has(field) || fields.size < this.#maxFields;
  }

  /** The run's fields, touched as most recently used (created when asked); `results` weighs it. */
  #entry(tenant: string, runId: string, create: boolean, results = 0): Map<string, Promise<unknown>> | undefined {
    const key = `${tenant}\u0000${runId}`;
    let fields = this.#runs.get(key);
    if (fields) {
      this.#runs.weighAtLeast(key, results);
    } else if (create) {
      fields = new Map();
      this.#runs.set(key, fields, results);
    }
    return fields;
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
    const cached = this.#entry(tenant, runId, false)?.get(field);
    if (cached) return cached as Promise<T>;
    const value = await load();
    if (value && TERMINAL_STATUSES.has(value.status)) {
      const fields = this.#entry(tenant, runId, true, resultsOf(value))!;
      if (this.#room(fields, field)) fields.set(field, Promise.resolve(value));
    }
    return value;
  }

  /** Anything read about a run whose status (and result count) is known: cached when terminal, else loaded. */
  read<T>(tenant: string, runId: string, status: string, field: string, load: () => Promise<T>, results = 0): Promise<T> {
    if (!TERMINAL_STATUSES.has(status)) return load();
    const entry = this.#entry(tenant, runId, true, results)!;
    let found = entry.get(field) as Promise<T> | undefined;
    if (!found && !this.#room(entry, field)) return load();
    if (!found) {
      found = load();
      entry.set(field, found);
      found.catch(() => entry.delete(field));
    }
    return found;
  }
}
