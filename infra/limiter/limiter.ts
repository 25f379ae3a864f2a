// At most `slots` tasks at once; the rest wait in call order. The worker's replay consumer keeps
// more jobs in flight than the agent may take replays at once: the jobs' store work (version
// checks, appends) is batched across pairs by the SQL stores, while the agent still sees no more
// than the configured concurrency. The API loads at most a few heavy answers at once.
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

  async run<T>(task: () => Promise<T> | T): Promise<T> {
    if (this.#active >= this.slots) await new Promise<void>((resolve) => this.#queue.push(resolve));
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
}
