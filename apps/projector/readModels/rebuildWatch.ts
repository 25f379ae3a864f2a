// Caches of finished runs (ReadModels' own, the API's) keep a run's rows once it ended: the
// deciders refuse every later event. A rebuild may still change them (a new projection version:
// 2 filled runs.host_run_id), so before answering from memory a cache calls check(), which reads
// the rebuild generation (one row, projection/rebuildGeneration.ts) at most once every `everyMs`
// and, when it changed, tells every listener to forget what it kept. A reader sees a rebuild at
// most `everyMs` after it committed (one small query a second at most, and only while reads come).
//
// A load that started before a rebuild was noticed may hold rows from before it: a cache keeps a
// load only if `epoch` (raised at each rebuild noticed) is the one it started under.
//
// Polled rather than announced (LISTEN/NOTIFY): several API processes and the embedded one read
// it the same way, and a reader that was not listening when the rebuild committed still sees it.

export interface RebuildWatchOptions {
  /** Reads the generation (projection/rebuildGeneration.ts readRebuildGeneration). */
  read: () => Promise<string>;
  /** At most one read this often (default DEFAULT_REBUILD_CHECK_MS; 0 reads at every check). */
  everyMs?: number;
  now?: () => number;
}

/** How stale a cache may be after a rebuild commits, at most: as long as a verified API key is trusted. */
export const DEFAULT_REBUILD_CHECK_MS = 1_000;

const DONE: Promise<void> = Promise.resolve();

export class RebuildWatch {
  readonly #read: () => Promise<string>;
  readonly #everyMs: number;
  readonly #now: () => number;
  readonly #listeners = new Set<() => void>();
  /** The generation last read (null: none read yet). */
  #known: string | null = null;
  #readAt = -Infinity;
  #reading: Promise<void> | null = null;
  #epoch = 0;

  constructor({ read, everyMs = DEFAULT_REBUILD_CHECK_MS, now = Date.now }: RebuildWatchOptions) {
    this.#read = read;
    this.#everyMs = everyMs;
    this.#now = now;
  }

  /** Raised each time a rebuild is noticed: a load begun under an older epoch is not kept. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Told each time a rebuild is noticed (before check() resolves). Returns the unsubscribe. */
  onRebuilt(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Resolves once what is cached is known to be of the current generation, as of at most
   * `everyMs` ago. Never rejects: a read that fails keeps what is cached (the generation is asked
   * again after `everyMs`, and a change is noticed then), as the reads that follow fail on their
   * own when the database cannot be reached.
   */
  check(): Promise<void> {
    if (this.#reading) return this.#reading;
    if (this.#now() - this.#readAt < this.#everyMs) return DONE;
    this.#reading = this.#ask().finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  async #ask(): Promise<void> {
    this.#readAt = this.#now(); // before the read: staleness counts from when it was asked
    let generation: string;
    try {
      generation = await this.#read();
    } catch {
      return;
    }
    const changed = this.#known !== null && generation !== this.#known;
    this.#known = generation;
    if (!changed) return;
    this.#epoch += 1;
    for (const listener of this.#listeners) listener();
  }
}
