// A completed or failed run never changes again, so what the API reads about one (its row,
// results, summaries, history, rebuilt report) is kept in memory for the runs read most recently.
// Runs still going are always read fresh. Only a rebuild of the read models changes a finished
// run's rows (a new projection version: 2 filled runs.host_run_id): the server clears this cache
// when ReadModels.rebuilds notices one (createApiServer.ts), and a load begun before the clear is
// not kept.
//
// The bound is on bytes as well as on runs: each field kept weighs an estimate of what it holds
// (estimatedBytes.ts: its answers, tool outputs and metadata), as it is loaded. Weighed by result
// count (~5 KB a result, assumed) and with the most recent run always kept, an idle API that had
// read a ~620 MB run (2,000 x 5, ~62 KB a pair) sat at 1.7 GB until another run was read. A run
// over the byte budget alone is served and not kept: the next read loads it again.
//
// A run's fields are a fixed set of names ("results", "fixItems", "html:dark", ...), never text a
// caller chose: filtered reads (results(fault:), fixItems(model:)) filter the cached full list.
// Keyed by their arguments, one run read with a new 1.5 MB `fault` each time grew the process by
// ~1.5 MB a request. `maxFieldsPerRun` is the backstop should a field keyed by an argument come
// back: past it, reads load without keeping.
import { WeightedLru } from "@verdict/infra/cache";
import { estimatedBytes } from "./estimatedBytes.js";

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(["COMPLETED", "FAILED", "completed", "failed"]);

interface TerminalRunCacheLimits {
  /** At most this many runs are kept (default 8). */
  maxRuns?: number;
  /** The runs kept hold about this many bytes at most; a run over it alone is not kept (default 256 MB). */
  maxBytes?: number;
  /** At most this many fields are kept a run (default 32; the API reads about a dozen). */
  maxFieldsPerRun?: number;
}

export class TerminalRunCache {
  /** Per run, what was read about it by field; weighed by the estimated bytes of its fields. */
  readonly #runs: WeightedLru<Map<string, Promise<unknown>>>;
  readonly #maxFields: number;
  readonly #maxBytes: number;
  /** Raised by clear(): a load begun before it is answered, not kept. */
  #generation = 0;

  constructor({ maxRuns = 8, maxBytes = 256 * 1024 ** 2, maxFieldsPerRun = 32 }: TerminalRunCacheLimits = {}) {
    this.#runs = new WeightedLru({ maxEntries: maxRuns, maxWeight: maxBytes });
    this.#maxFields = maxFieldsPerRun;
    this.#maxBytes = maxBytes;
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

  /**
   * Forgets every run (the read models were rebuilt). Loads in flight finish into maps no longer
   * kept (read's) or are not kept (whenTerminal's).
   */
  clear(): void {
    this.#runs.clear();
    this.#generation += 1;
  }

  /** Whether `field` may be added to the run's fields (it is already there, or there is room). */
  #room(fields: Map<string, Promise<unknown>>, field: string): boolean {
    return fields.has(field) || fields.size < this.#maxFields;
  }

  /** The run's fields, touched as most recently used (created when asked). */
  #entry(tenant: string, runId: string, create: boolean): Map<string, Promise<unknown>> | undefined {
    const key = runKey(tenant, runId);
    let fields = this.#runs.get(key);
    if (!fields && create) {
      fields = new Map();
      this.#runs.set(key, fields, 0);
    }
    return fields;
  }

  /** Adds a field's bytes, just loaded, to its run's weight; a run over the budget alone is dropped. */
  #weigh(tenant: string, runId: string, fields: Map<string, Promise<unknown>>, value: unknown): void {
    const key = runKey(tenant, runId);
    if (this.#runs.get(key) !== fields) return; // evicted (or replaced) while it loaded
    const bytes = estimatedBytes(value);
    // Dropped before it is weighed: weighed first, it would push out every other run on its way.
    if ((this.#runs.weightOf(key) ?? 0) + bytes > this.#maxBytes) this.#runs.delete(key);
    else this.#runs.addWeight(key, bytes);
  }

  /** Something that says the run's status itself (its row, its history): cached once terminal. */
  async whenTerminal<T extends { status: string }>(tenant: string, runId: string, field: string, load: () => Promise<T | null>): Promise<T | null> {
    const cached = this.#entry(tenant, runId, false)?.get(field);
    if (cached) return cached as Promise<T>;
    const generation = this.#generation;
    const value = await load();
    if (value && TERMINAL_STATUSES.has(value.status) && generation === this.#generation) {
      const fields = this.#entry(tenant, runId, true)!;
      if (this.#room(fields, field) && !fields.has(field)) {
        fields.set(field, Promise.resolve(value));
        this.#weigh(tenant, runId, fields, value);
      }
    }
    return value;
  }

  /** Anything read about a run whose status is known: cached when terminal, else loaded. */
  read<T>(tenant: string, runId: string, status: string, field: string, load: () => Promise<T>): Promise<T> {
    if (!TERMINAL_STATUSES.has(status)) return load();
    const entry = this.#entry(tenant, runId, true)!;
    let found = entry.get(field) as Promise<T> | undefined;
    if (!found && !this.#room(entry, field)) return load();
    if (!found) {
      found = load();
      entry.set(field, found);
      found.then((value) => this.#weigh(tenant, runId, entry, value), () => entry.delete(field));
    }
    return found;
  }
}

function runKey(tenant: string, runId: string): string {
  return `${tenant}\u0000${runId}`;
}
