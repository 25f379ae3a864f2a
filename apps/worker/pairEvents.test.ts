import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import type { EventStore, RecordedEvent } from "@verdict/domain";
import { readPairEvents } from "./pairEvents.js";

const event = (type: string, n: number) => ({ id: randomUUID(), type, schemaVersion: 1, data: { n }, metadata: {} });

/** Run r1 with 4 pairs: 0-2 replayed and scored, 3 only replayed; run r2's pairs in between. */
async function seed(store: EventStore = createMemoryEventStore()): Promise<{ store: EventStore; started: RecordedEvent }> {
  await store.append("run-r1", [event("RunStarted", 0)]);
  const [started] = await store.readStream("run-r1");
  for (let n = 0; n < 4; n++) {
    await store.append(`result-r1.${n}`, [event("ReplayRecorded", n)]);
    await store.append(`result-r2.${n}`, [event("ReplayRecorded", n), event("ResultScored", n)]);
    if (n < 3) await store.append(`result-r1.${n}`, [event("ResultScored", n)]);
  }
  return { store, started };
}

const summary = (events: RecordedEvent[]) => events.map((e) => `${e.streamId} ${e.type}`);

describe("readPairEvents", () => {
  it("gives every event of the run's pair streams, and only those, in log order", async () => {
    const { store, started } = await seed();
    const events = await readPairEvents(store, { runId: "r1", after: started.position, pairs: 4 });
    expect(summary(events)).toEqual([
      "result-r1.0 ReplayRecorded", "result-r1.0 ResultScored",
      "result-r1.1 ReplayRecorded", "result-r1.1 ResultScored",
      "result-r1.2 ReplayRecorded", "result-r1.2 ResultScored",
      "result-r1.3 ReplayRecorded",
    ]);
    const scoredOnly = await readPairEvents(store, { runId: "r1", after: started.position, pairs: 4, eventTypes: ["ResultScored"] });
    expect(summary(scoredOnly)).toEqual(["result-r1.0 ResultScored", "result-r1.1 ResultScored", "result-r1.2 ResultScored"]);
  });

  it("reads a pair directly when the scan did not show it scored, once per event, still in log order", async () => {
    const { store, started } = await seed();
    // A scan that misses pair 1 entirely (as a paged read past a late commit could).
    const lossy: EventStore = { ...store, readAll: async (options) => (await store.readAll(options)).filter((e) => e.streamId !== "result-r1.1") };
    const streamReads: string[] = [];
    const counting: EventStore = { ...lossy, readStream: (id, options) => (streamReads.push(id), store.readStream(id, options)) };
    const events = await readPairEvents(counting, { runId: "r1", after: started.position, pairs: 4 });
    expect(summary(events)).toEqual(summary(await readPairEvents(store, { runId: "r1", after: started.position, pairs: 4 })));
    // Pair 3 is unscored (still going): read directly too; its replay, seen by the scan, is not repeated.
    expect(streamReads).toEqual(["result-r1.1", "result-r1.3"]);
  });

  it("scans past pages the store cut short by bytes, reading no pair directly that the log shows scored", async () => {
    // A byte budget of 1: every page holds one event, far fewer than the scan's 1,000.
    const { store, started } = await seed(createMemoryEventStore({ maxPageBytes: 1 }));
    const streamReads: string[] = [];
    const counting: EventStore = { ...store, readStream: (id, options) => (streamReads.push(id), store.readStream(id, options)) };
    const events = await readPairEvents(counting, { runId: "r1", after: started.position, pairs: 4 });
    expect(summary(events)).toEqual(summary(await readPairEvents((await seed()).store, { runId: "r1", after: started.position, pairs: 4 })));
    expect(streamReads).toEqual(["result-r1.3"]);
  });
});
