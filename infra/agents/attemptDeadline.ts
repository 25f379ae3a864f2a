// One HTTP attempt's abort signal: aborted when the caller's signal aborts or, given a timeout,
// when the attempt runs out of time. Built from an AbortController and a timer held by the
// event loop, not `AbortSignal.any([outer, AbortSignal.timeout(ms)])`: on Node 20 that holds
// its sources weakly, so a GC could collect the timeout signal mid-attempt and the timeout
// never fired (nodejs/node#57736). `clear()` must run once the attempt is over, so a finished
// call leaves no timer behind and the caller's signal no listener.

export interface AttemptDeadline {
  readonly signal: AbortSignal;
  /** True once the attempt's own timeout fired (not the caller's abort). */
  timedOut(): boolean;
  clear(): void;
}

export function attemptDeadline(outer: AbortSignal, timeoutMs: number | undefined): AttemptDeadline {
  const controller = new AbortController();
  let expired = false;
  const forward = () => controller.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener("abort", forward, { once: true });
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          expired = true;
          controller.abort(new DOMException(`attempt timed out after ${timeoutMs} ms`, "TimeoutError"));
        }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => expired,
    clear() {
      clearTimeout(timer);
      outer.removeEventListener("abort", forward);
    },
  };
}
