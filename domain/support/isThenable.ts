/** Whether a host's callback gave a promise (or any thenable) to wait for, rather than a value. */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function";
