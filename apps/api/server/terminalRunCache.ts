// A completed or failed run never changes again (a projector rebuild writes identical rows), so
// what the API reads about one (its row, results, summaries, rebuilt report) is kept in memory
// for the runs read most recently. Runs still going are always read fresh.
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(["COMPLETED", "FAILED", "completed", "failed"]);

export class TerminalRunCache {
  readonly #runs = new Map<string, Map<string, Promise<unknown>>>();

  /** At most this many runs are kept (each with everything read about it). */
  constructor(private readonly maxRuns = 8) {}

  #entry(tenant: string, runId: string, create: boolean): Map<string, Promise<unknown>> | undefined {
    const key = `${tenant}\u0000${runId}`;
    const found = this.#runs.get(key);
    if (found) {
      this.#runs.delete(key); // most recently used last
      this.#runs.set(key, found);
      return found;
    }
    if (!create) return undefined;
    const made = new Map<string, Promise<unknown>>();
    this.#runs.set(key, made);
    while (this.#runs.size > this.maxRuns) this.#runs.delete(this.#runs.keys().next().value as string);
    return made;
  }

  /** Something that says the run's status itself (its row, its history): cached once terminal. */
  async whenTerminal<T extends { status: string }>(tenant: string, runId: string, field: string, load: () => Promise<T | null>): Promise<T | null> {
    const cached = this.#entry(tenant, runId, false)?.get(field);
    if (cached) return cached as Promise<T>;
    const value = await load();
    if (value && TERMINAL_STATUSES.has(value.status)) this.#entry(tenant, runId, true)!.set(field, Promise.resolve(value));
    return value;
  }

  /** Anything read about a run whose status is known: cached when terminal, else loaded. */
  read<T>(tenant: string, runId: string, status: string, field: string, load: () => Promise<T>): Promise<T> {
    if (!TERMINAL_STATUSES.has(status)) return load();
    const entry = this.#entry(tenant, runId, true)!;
    let found = entry.get(field) as Promise<T> | undefined;
    if (!found) {
      found = load();
      entry.set(field, found);
      found.catch(() => entry.delete(field));
    }
    return found;
  }
}
