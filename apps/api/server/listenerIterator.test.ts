import { expect, it } from "vitest";
import { listenerIterator, type Sink } from "./listenerIterator.js";

function source<T>(bound?: Parameters<typeof listenerIterator>[1]): { iterator: AsyncIterableIterator<T>; sink: Promise<Sink<T>> } {
  let give!: (sink: Sink<T>) => void;
  const sink = new Promise<Sink<T>>((resolve) => (give = resolve));
  const iterator = listenerIterator<T>(async (s) => {
    give(s);
    return () => undefined;
  }, bound);
  return { iterator, sink };
}

it("makes a source that waits stop at maxQueued until the reader takes one", async () => {
  const { iterator, sink } = source<number>({ maxQueued: 2 });
  const s = await sink;
  let roomFor = 0;
  void s.push(1).then(() => roomFor++);
  const full = s.push(2).then(() => roomFor++);
  await Promise.resolve();
  expect(roomFor).toBe(1);
  expect(await iterator.next()).toEqual({ value: 1, done: false });
  await full;
  expect(roomFor).toBe(2);
});

it("keeps the newest maxQueued values of a source that drops the oldest, and lets it go on", async () => {
  const { iterator, sink } = source<number>({ maxQueued: 2, whenFull: "dropOldest" });
  const s = await sink;
  for (let i = 1; i <= 5; i++) await s.push(i);
  s.end();
  const seen: number[] = [];
  for await (const value of iterator) seen.push(value);
  expect(seen).toEqual([4, 5]);
});

it("lets a waiting source go on once the reader is gone", async () => {
  const { iterator, sink } = source<number>({ maxQueued: 1 });
  const s = await sink;
  const waiting = s.push(1);
  await iterator.return!();
  await expect(waiting).resolves.toBeUndefined();
});
