// Groups an event subscription into batches: up to `max` events, or fewer when the next one is
// not already available (so a live event is applied at once, not held for company). With
// `gatherMs`, a batch that would end early waits up to that long from its first event for more:
// a transaction costs the same few statements whatever it carries, so a projector sharing its
// thread with the writers (the embedded default) applies a stream of small appends in fewer,
// larger transactions, for at most that much more latency. The pending `next()` that lost the
// race is kept and awaited first next time, so nothing is lost. With `weight`, a batch also ends
// before the item that would take it past `weight.max` (the first always goes): a store may
// hand over its pages as fast as they are taken (PGlite answers before any I/O), so "already
// available" alone let a batch gather many pages, of events that may hold megabytes each.
const NOT_YET = Symbol("not yet");

function afterIo(): Promise<typeof NOT_YET> {
  return new Promise((resolve) => setImmediate(() => resolve(NOT_YET)));
}

/** `pending`, or NOT_YET when `ms` pass first (the timer is cleared either way). */
async function within<T>(pending: Promise<T>, ms: number): Promise<T | typeof NOT_YET> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([pending, new Promise<typeof NOT_YET>((resolve) => (timer = setTimeout(() => resolve(NOT_YET), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

interface BatchWeight<T> {
  of: (item: T) => number;
  max: number;
}

export async function* batchesOf<T>(source: AsyncIterable<T>, max: number, gatherMs = 0, weight?: BatchWeight<T>): AsyncGenerator<T[]> {
  const iterator = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | null = null;
  // An item taken from the source that did not fit the batch by weight: it opens the next one.
  let carried: IteratorResult<T> | null = null;
  try {
    for (;;) {
      const first = carried ?? (await (pending ?? iterator.next()));
      carried = null;
      pending = null;
      if (first.done) return;
      const batch = [first.value];
      let weighed = weight ? weight.of(first.value) : 0;
      const started = performance.now();
      let done = false;
      while (batch.length < max) {
        pending = iterator.next();
        let next = await Promise.race([pending, afterIo()]);
        if (next === NOT_YET && gatherMs > 0) {
          const left = gatherMs - (performance.now() - started);
          if (left > 0) next = await within(pending, left);
        }
        if (next === NOT_YET) break;
        pending = null;
        if (next.done) {
          done = true;
          break;
        }
        const item = weight ? weight.of(next.value) : 0;
        if (weight && weighed + item > weight.max) {
          carried = next;
          break;
        }
        weighed += item;
        batch.push(next.value);
      }
      yield batch;
      if (done) return;
    }
  } finally {
    if (!pending) await iterator.return?.();
  }
}
