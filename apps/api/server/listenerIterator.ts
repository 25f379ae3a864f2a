// A push source (listener callbacks) as an AsyncIterable that a GraphQL subscription can return:
// values queue until read, `end()` finishes after the queue drains, and `return()` (client gone)
// stops the source.
export interface Sink<T> {
  push(value: T): void;
  end(): void;
  fail(error: unknown): void;
}

export function listenerIterator<T>(start: (sink: Sink<T>) => Promise<() => Promise<void> | void>): AsyncIterableIterator<T> {
  const queue: T[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | null = null;
  let failWaiting: ((error: unknown) => void) | null = null;
  let ended = false;
  let failure: unknown = null;
  let stop: (() => Promise<void> | void) | null = null;

  const sink: Sink<T> = {
    push(value) {
      if (ended) return;
      if (waiting) {
        const resolve = waiting;
        waiting = failWaiting = null;
        resolve({ value, done: false });
      } else queue.push(value);
    },
    end() {
      ended = true;
      if (waiting && queue.length === 0) {
        const resolve = waiting;
        waiting = failWaiting = null;
        resolve({ value: undefined, done: true });
      }
    },
    fail(error) {
      failure = error;
      ended = true;
      if (failWaiting) {
        const reject = failWaiting;
        waiting = failWaiting = null;
        reject(error);
      }
    },
  };
  const started = start(sink).then((s) => {
    stop = s;
    return s;
  });

  const iterator: AsyncIterableIterator<T> = {
    async next() {
      await started;
      if (queue.length) return { value: queue.shift() as T, done: false };
      if (failure) throw failure;
      if (ended) {
        await stop?.();
        return { value: undefined, done: true };
      }
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waiting = resolve;
        failWaiting = reject;
      });
    },
    async return() {
      ended = true;
      queue.length = 0;
      await started.then((s) => s()).catch(() => undefined);
      if (waiting) waiting({ value: undefined, done: true });
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
