// A wake-up signal for live subscriptions: appends (in-process) and LISTEN/NOTIFY (PostgreSQL)
// bump a generation counter; a subscriber remembers the generation it read at and waits until it
// moves, a timeout passes (the polling fallback) or its signal aborts.
export class Wakeup {
  #generation = 0;
  #waiters = new Set<() => void>();

  get generation(): number {
    return this.#generation;
  }

  notify(): void {
    this.#generation += 1;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves true when woken after `since`, false on timeout or abort. */
  wait(since: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.#generation !== since) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.#waiters.delete(onWake);
        signal?.removeEventListener("abort", onAbort);
        resolve(woken);
      };
      const onWake = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.#waiters.add(onWake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}
