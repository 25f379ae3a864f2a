// At most `slots` tasks at once; the rest wait in call order. The worker's replay consumer keeps
// more jobs in flight than the agent may take replays at once: the jobs' store work (version
// checks, appends) is batched across pairs by the SQL stores, while the agent still sees no more
// than the configured concurrency. The API loads at most a few heavy answers at once, and a load
// that waited too long (or whose client left) gives up its place in the queue: `signal`.
export class Limiter {
  #active = 0;
  readonly #queue: Array<() => void> = [];

  constructor(readonly slots: number) {
    if (!Number.isInteger(slots) || slots < 1) throw new Error(`Limiter: slots must be a whole number >= 1 (got ${slots})`);
  }

  /** Whether no task runs or waits: a pool of limiters (one a tenant) may then drop this one. */
  get idle(): boolean {
    // A finished task hands its slot straight to a waiter, so none active means none waiting.
    return this.#active === 0;
  }

  /**
   * Runs `task` once a slot is free. While it waits, `signal` aborting takes it out of the queue
   * and rejects with the signal's reason (the task never runs); once it runs, `signal` is not read.
   */
  async run<T>(task: () => Promise<T> | T, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw signal.reason;
    if (this.#active >= this.slots) await this.#turn(signal);
    else this.#active += 1;
    try {
      return await task();
    } finally {
      const next = this.#queue.shift();
      // The slot passes straight to the next waiter (it stays counted as active).
      if (next) next();
      else this.#active -= 1;
    }
  }

  /** Resolves when a finished task hands this waiter its slot; rejects, out of the queue, when `signal` aborts first. */
  #turn(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const granted = () => {
        signal?.removeEventListener("abort", gaveUp);
        resolve();
      };
      // Out of the queue, so no slot is ever handed to a waiter that is gone.
      const gaveUp = () => {
        // Only while still queued: removing at -1 would drop the last waiter, someone else's.
        const at = this.#queue.indexOf(granted);
        if (at >= 0) this.#queue.splice(at, 1);
        reject(signal!.reason);
      };
      this.#queue.push(granted);
      signal?.addEventListener("abort", gaveUp, { once: true });
    });
  }
}
