import { describe, expect, it } from "vitest";
import { inWindow } from "./kafkaBatchBus.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("inWindow (a Kafka batch's jobs in flight)", () => {
  it("keeps at most `window` jobs running and resolves offsets in order, each once, after its job and all before it finished", async () => {
    let running = 0;
    let peak = 0;
    const resolved: number[] = [];
    const finished: number[] = [];
    // Later jobs finish first: 4 is done long before 0.
    await inWindow([0, 1, 2, 3, 4, 5], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      for (let i = 0; i < (6 - n) * 2; i++) await tick();
      finished.push(n);
      running -= 1;
    }, { resolved: async (n) => void resolved.push(n), keepGoing: () => true });
    expect(peak).toBe(3);
    expect(finished).not.toEqual([0, 1, 2, 3, 4, 5]);
    expect(resolved).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("a failing job stops new starts, lets running ones finish, resolves only the finished prefix and throws", async () => {
    const started: number[] = [];
    const resolved: number[] = [];
    const run = inWindow([0, 1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 2) throw new Error("store unreachable");
      if (n === 3) await tick();
    }, { resolved: async (n) => void resolved.push(n), keepGoing: () => true });
    await expect(run).rejects.toThrow("store unreachable");
    expect(resolved).toEqual([0, 1]); // 3 finished, but 2 before it did not
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it("stops starting jobs when the consumer stops running", async () => {
    const started: number[] = [];
    let running = true;
    await inWindow([0, 1, 2, 3], 1, async (n) => {
      started.push(n);
      if (n === 1) running = false;
    }, { resolved: async () => undefined, keepGoing: () => running });
    expect(started).toEqual([0, 1]);
  });
});
