// Correctness under concurrency (issue 5): 20,000 events from 8 concurrent writers while a
// catch-up subscription runs, then the whole log read back with readAll in pages of 100 and of
// 1,000. Every reader must return every event exactly once, in the one order they all agree on.
// (Emmett 0.42 loses 454 and repeats 161 of 20,000 here: it resumes from a global position while
// reading in transaction order.)
import { expect } from "vitest";
import type { EventStore, RecordedEvent } from "../../domain/ports/eventStore.js";
import { events, expectStrictlyOrdered, take } from "../contracts/eventStore.js";

export const TOTAL_EVENTS = 20_000;
const WRITERS = 8;

async function readAllInPages(store: EventStore, pageSize: number): Promise<RecordedEvent[]> {
  const read: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: read.at(-1)?.position, limit: pageSize });
    // A page cut short by the byte budget is not the end: only an empty one is.
    if (page.length === 0) return read;
    read.push(...page);
  }
}

function expectExactlyOnce(read: RecordedEvent[], written: Set<string>, reader: string): void {
  const ids = read.map((e) => e.id);
  const unique = new Set(ids);
  const missing = [...written].filter((id) => !unique.has(id)).length;
  expect({ reader, count: ids.length, repeated: ids.length - unique.size, missing }).toEqual({ reader, count: written.size, repeated: 0, missing: 0 });
}

export async function checkConcurrentWriters(store: EventStore, total = TOTAL_EVENTS): Promise<void> {
  const written = new Set<string>();
  const subscription = take(store, total, { timeoutMs: 240_000 });
  // Each writer appends batches of 1-3 events round-robin over its own streams until its share is done.
  const writer = async (w: number) => {
    let remaining = total / WRITERS;
    for (let n = 0; remaining > 0; n += 1) {
      const batch = events(Math.min(1 + ((n + w) % 3), remaining));
      batch.forEach((e) => written.add(e.id));
      remaining -= batch.length;
      await store.append(`writer${w}-${n % 16}`, batch);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  const subscribed = await subscription;
  const pagesOf100 = await readAllInPages(store, 100);
  const pagesOf1000 = await readAllInPages(store, 1_000);

  for (const [reader, read] of Object.entries({ subscribed, pagesOf100, pagesOf1000 })) expectExactlyOnce(read, written, reader);
  const order = pagesOf100.map((e) => e.id);
  expect(pagesOf1000.map((e) => e.id)).toEqual(order);
  expect(subscribed.map((e) => e.id)).toEqual(order);
  expectStrictlyOrdered(pagesOf100);
  // Within each stream the log order is the stream order.
  const lastVersion = new Map<string, bigint>();
  for (const e of pagesOf100) {
    expect(e.streamVersion).toBe((lastVersion.get(e.streamId) ?? -1n) + 1n);
    lastVersion.set(e.streamId, e.streamVersion);
  }
}
