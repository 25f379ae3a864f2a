// A long `projector rebuild` reports how far it has come (main.ts sends the lines to stderr); a
// quick one says nothing. The clock is the test's: one second passes whenever it is read.
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra";
import type { EventStore } from "@verdict/domain";
import { createProjector } from "./projector.js";
import { rebuildSayingProgress } from "./rebuildProgress.js";
import { useTestReadModels } from "./testing/useTestReadModels.js";
import { beginRun, commandDeps, createEvaluation, GPT, recordPair } from "./testing/runFixture.js";

const read = useTestReadModels();
let store: EventStore;

beforeEach(async () => {
  store = createMemoryEventStore({ now: () => new Date("2026-11-30T12:00:00Z") });
  const deps = commandDeps("acme");
  await createEvaluation(store, deps, "e1", ["a", "b"]);
  const run = await beginRun(store, deps, "e1", "r1", [GPT]);
  await recordPair(store, deps, run, "a", GPT.label, "passed");
  await recordPair(store, deps, run, "b", GPT.label, "failed");
});

function tickingClock(): () => number {
  let ms = 0;
  return () => (ms += 1_000);
}

describe("rebuildSayingProgress", () => {
  it("says how many events it has applied when the rebuild outlasts the interval, then that it is done", async () => {
    const total = (await store.readAll()).length;
    const lines: string[] = [];
    const projector = createProjector({ store, orm: read().orm, batchSize: 2 });
    expect(await rebuildSayingProgress(projector, (line) => lines.push(line), { everyMs: 1_500, now: tickingClock() })).toBe(total);
    const progress = lines.filter((line) => line.startsWith("projector: rebuilding the read models from the event log: "));
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(lines.at(-1)).toMatch(new RegExp(`^projector: read models rebuilt \\(${total} events projected in \\d+\\.\\d s\\)`));
  });

  it("says nothing when the rebuild ends within the interval", async () => {
    const lines: string[] = [];
    const projector = createProjector({ store, orm: read().orm, batchSize: 2 });
    await rebuildSayingProgress(projector, (line) => lines.push(line), { everyMs: 60_000 });
    expect(lines).toEqual([]);
  });

  it("hears every batch's running count from a rebuild in one transaction", async () => {
    const counts: number[] = [];
    const total = await createProjector({ store, orm: read().orm, batchSize: 2 }).rebuild((applied) => counts.push(applied));
    expect(counts.length).toBeGreaterThan(1);
    expect(counts).toEqual([...counts].sort((x, y) => x - y));
    expect(counts.at(-1)).toBe(total);
  });
});
