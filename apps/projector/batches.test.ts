import { describe, expect, it } from "vitest";
import { batchesOf } from "./batches.js";

async function* source(items: number[], gapAfter: number[] = [], gapMs = 20) {
  for (const item of items) {
    yield item;
    if (gapAfter.includes(item)) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe("batchesOf", () => {
  it("groups what is already available, up to the maximum", async () => {
    expect(await collect(batchesOf(source([1, 2, 3, 4, 5, 6, 7]), 3))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it("does not hold an event waiting for company: a pause ends the batch", async () => {
    expect(await collect(batchesOf(source([1, 2, 3, 4, 5], [2, 4]), 10))).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("loses nothing across the pauses and ends with the source", async () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const batches = await collect(batchesOf(source(items, [9, 10, 33]), 7));
    expect(batches.flat()).toEqual(items);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(7);
  });

  it("with gatherMs, waits that long from a batch's first event for the events after a pause", async () => {
    // Pauses of 5 ms inside a 2 s window: one batch, where without the window there are three.
    // (The window ends with the source, so it costs the test nothing; 200 ms left a loaded
    // machine a stall away from a second batch.)
    expect(await collect(batchesOf(source([1, 2, 3, 4, 5], [2, 4], 5), 10))).toEqual([[1, 2], [3, 4], [5]]);
    expect(await collect(batchesOf(source([1, 2, 3, 4, 5], [2, 4], 5), 10, 2_000))).toEqual([[1, 2, 3, 4, 5]]);
  });

  it("with gatherMs, still ends a batch at the maximum, and after the window when nothing comes", async () => {
    expect(await collect(batchesOf(source([1, 2, 3, 4, 5], [2], 5), 3, 2_000))).toEqual([[1, 2, 3], [4, 5]]);
    const started = performance.now();
    expect(await collect(batchesOf(source([1, 2, 3], [1], 300), 10, 30))).toEqual([[1], [2, 3]]);
    // The first batch went out after its 30 ms window, not after the 300 ms pause.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("with a weight, ends a batch before the item that would pass its maximum, the first always going, losing nothing", async () => {
    // Everything is already available: only the weight ends these batches.
    const weight = { of: (n: number) => n, max: 10 };
    expect(await collect(batchesOf(source([4, 4, 4, 25, 1, 9, 3]), 100, 0, weight))).toEqual([[4, 4], [4], [25], [1, 9], [3]]);
    expect(await collect(batchesOf(source([4, 4, 4, 4]), 3, 2_000, weight))).toEqual([[4, 4], [4, 4]]);
  });
});
