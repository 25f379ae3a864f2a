// A push source (listener callbacks) as an AsyncIterable that a GraphQL subscription can return:
// values queue until read, `end()` finishes after the queue drains, and `return()` (client gone)
// stops the source.
// The queue is bounded. graphql-ws reads the next value only once the socket has taken the last
// one, so a client that stops reading stops the reads here; an unbounded queue then held whatever
// the source pushed (a run's whole history, per subscription) until the API ran out of memory.
export interface Sink<T> {
  /**
   * Queues `value`; resolves once the queue has room again. A source that can wait (a log read)
   * awaits it, so it reads no further than the client has taken.
   */
  push(value: T): Promise<void>;
  end(): void;
  fail(error: unknown): void;
}

interface QueueBound {
  /** Values held unread at most (default 16). */
  maxQueued?: number;
  /**
   * What a push to a full queue does: "wait" (the push resolves once the reader takes one; a
   * source that does not wait still grows it) or "dropOldest" (for snapshots, where a later value
   * replaces an earlier one: the reader skips to the newest).
   */
  whenFull?: "wait" | "dropOldest";
}

const ROOM = Promise.resolve();

export function listenerIterator<T>(start: (sink: Sink<T>) => Promise<() => Promise<void> | void>, bound: QueueBound = {}): AsyncIterableIterator<T> {
  const maxQueued = Math.max(1, bound.maxQueued ?? 16);
  const dropOldest = bound.whenFull === "dropOldest";
  const queue: T[] = [];
  let roomWaiters: Array<() => void> = [];
  let waiting: ((result: IteratorResult<T>) => void) | null = null;
  let failWaiting: ((error: unknown) => void) | null = null;
  let ended = false;
  let failure: unknown = null;
  let stop: (() => Promise<void> | void) | null = null;

  // Sources waiting for room go on once there is some (or once nobody will read again).
  const releaseRoom = () => {
    if (queue.length >= maxQueued && !ended) return;
    const release = roomWaiters;
    roomWaiters = [];
    for (const resolve of release) resolve();
  };

  const sink: Sink<T> = {
    push(value) {
      if (ended) return ROOM;
      if (waiting) {
        const resolve = waiting;
        waiting = failWaiting = null;
        resolve({ value, done: false });
        return ROOM;
      }
      queue.push(value);
      if (dropOldest && queue.length > maxQueued) queue.shift();
      if (dropOldest || queue.length < maxQueued) return ROOM;
      return new Promise<void>((resolve) => roomWaiters.push(resolve));
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
      if (queue.length) {
        const value = queue.shift() as T;
        releaseRoom();
        return { value, done: false };
      }
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
      releaseRoom();
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
