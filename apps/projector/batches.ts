// Groups an event subscription into batches: up to `max` events, or fewer when the next one is
// not already available (so a live event is applied at once, not held for company). The pending
// `next()` that lost the race is kept and awaited first next time, so nothing is lost.
const NOT_YET = Symbol("not yet");

function afterIo(): Promise<typeof NOT_YET> {
  return new Promise((resolve) => setImmediate(() => resolve(NOT_YET)));
}

export async function* batchesOf<T>(source: AsyncIterable<T>, max: number): AsyncGenerator<T[]> {
  const iterator = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | null = null;
  try {
    for (;;) {
      const first = await (pending ?? iterator.next());
      pending = null;
      if (first.done) return;
      const batch = [first.value];
      let done = false;
      while (batch.length < max) {
        pending = iterator.next();
        const next = await Promise.race([pending, afterIo()]);
        if (next === NOT_YET) break;
        pending = null;
        if (next.done) {
          done = true;
          break;
        }
        batch.push(next.value);
      }
      yield batch;
      if (done) return;
    }
  } finally {
    if (!pending) await iterator.return?.();
  }
}
