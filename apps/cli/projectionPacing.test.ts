import type { LogPosition } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { describe, expect, it } from "vitest";
import { paceByProjection, type ProjectionTracker } from "./projectionPacing.js";

function tracker(): ProjectionTracker & { commit(p: LogPosition): void; waits: number } {
  let committed: LogPosition | null = null;
  const waiters: Array<() => void> = [];
  return {
    waits: 0,
    get committed() {
      return committed;
    },
    commit(position) {
      committed = position;
      for (const wake of waiters.splice(0)) wake();
    },
    committedUpTo(position, timeoutMs = 1000) {
      this.waits += 1;
      const reached = () => committed !== null && (committed.commit > position.commit || (committed.commit === position.commit && committed.prepare >= position.prepare));
      if (reached()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
        waiters.push(() => (reached() ? (clearTimeout(timer), resolve()) : undefined));
      });
    },
  };
}

const event = () => ({ id: crypto.randomUUID(), type: "T", schemaVersion: 1, data: {}, metadata: {} });

describe("paceByProjection", () => {
  it("holds the worker while the projector trails by more than maxLag appends, and lets it go once it catches up", async () => {
    const projector = tracker();
    const pacing = paceByProjection(createMemoryEventStore(), projector, { maxLag: 2, sliceMs: 0 });
    const positions: LogPosition[] = [];
    for (let i = 0; i < 4; i++) positions.push((await pacing.store.append(`s-${i}`, [event()])).position);
    let released = false;
    const paced = pacing.pace().then(() => (released = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(released).toBe(false);
    projector.commit(positions[1]); // two appends left unprojected: within the lag
    await paced;
    expect(released).toBe(true);
    projector.commit(positions[3]);
    await pacing.pace();
    expect(projector.waits).toBe(1);
  });

  it("goes on after waitMs when the projector does not move", async () => {
    const projector = tracker();
    const pacing = paceByProjection(createMemoryEventStore(), projector, { maxLag: 0, waitMs: 20, sliceMs: 0 });
    await pacing.store.append("s", [event()]);
    const started = performance.now();
    await pacing.pace();
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });
});
