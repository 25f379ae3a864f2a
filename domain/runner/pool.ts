// Runs async tasks with at most `limit` in flight, keeping each answer at its task's index so
// the caller's order (scenario x model) survives whatever order they finish in.

export async function inOrder<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(count);
  if (limit <= 1) {
    for (let i = 0; i < count; i += 1) out[i] = await task(i);
    return out;
  }
  let next = 0;
  const errors: unknown[] = [];
  // Once a task has thrown, run() has failed: no worker starts another (a replay, a row saved).
  // The first error is kept and thrown only once the tasks already started have settled, so when
  // the caller sees the rejection nothing of the run is still at work behind it.
  const worker = async (): Promise<void> => {
    while (errors.length === 0 && next < count) {
      const index = next;
      next += 1;
      try {
        out[index] = await task(index);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  if (errors.length > 0) throw withSuppressed(errors[0], errors.slice(1));
  return out;
}

/**
 * The first error, as thrown (its type is what callers catch on), carrying the errors of the
 * tasks that failed after it as a non-enumerable `suppressedErrors` array, the way Java's
 * try-with-resources keeps them: an AggregateError when more than one failed would change the
 * rejection's type by timing alone, and a non-enumerable property changes neither how the error
 * prints nor how it serializes. A first error that cannot carry them (a thrown string, a frozen
 * object, one that already has the property) is thrown as it is.
 */
function withSuppressed(first: unknown, later: unknown[]): unknown {
  if (later.length === 0) return first;
  const carrier = (typeof first === "object" && first !== null) || typeof first === "function";
  if (carrier && Object.isExtensible(first) && !Object.prototype.hasOwnProperty.call(first, "suppressedErrors")) {
    Object.defineProperty(first, "suppressedErrors", { value: later, enumerable: false, writable: true, configurable: true });
  }
  return first;
}
