// One abort signal for a piece of work that ends when any of its sources aborts or, given a
// timeout, when the work runs out of time: an HTTP attempt, a judge's call, a subscription that
// a caller's signal and its store's closing both end.
//
// Built from an AbortController, listeners and a timer held by the event loop, not
// `AbortSignal.any` / `AbortSignal.timeout`. On Node 20 `AbortSignal.any` adds a WeakRef to
// every source's set of dependants and never takes it out, so a long-lived source (a store's
// closing signal) grew by one per subscription (+2,000 WeakRefs for 2,000 subscriptions, ~16 MB
// per 200k); and it holds its sources weakly, so a timeout signal referenced only through it
// could be collected mid-call and never fire (nodejs/node#57736). `dispose()` must run once the
// work is over, so it leaves no timer behind and no listener on any source.

export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** True once the timeout fired (not a source's abort). */
  timedOut(): boolean;
  /** Stops the timer and takes the listeners off the sources; the signal stays as it is. */
  dispose(): void;
}

/** Sources left undefined are skipped (an optional caller's signal). */
export function linkSignals(sources: readonly (AbortSignal | undefined)[], timeoutMs?: number): LinkedSignal {
  const controller = new AbortController();
  const linked = sources.filter((source): source is AbortSignal => source !== undefined);
  const forward = (event: Event) => {
    controller.abort((event.target as AbortSignal).reason);
    dispose();
  };
  let expired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  function dispose() {
    clearTimeout(timer);
    for (const source of linked) source.removeEventListener("abort", forward);
  }
  const already = linked.find((source) => source.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, timedOut: () => false, dispose: () => undefined };
  }
  for (const source of linked) source.addEventListener("abort", forward, { once: true });
  if (timeoutMs !== undefined) {
    timer = setTimeout(() => {
      expired = true;
      controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, "TimeoutError"));
      dispose();
    }, timeoutMs);
  }
  return { signal: controller.signal, timedOut: () => expired, dispose };
}
