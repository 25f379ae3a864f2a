// A wait a stop may cut short: the dispatcher's standby rounds and its retries.

/** `ms`, or until `signal` aborts; the abort listener goes either way (a standby pausing every 2 s added one each time). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
