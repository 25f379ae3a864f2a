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

  it("a refused heartbeat (a rebalance) stops new starts and is thrown only once every running job has finished", async () => {
    const started: number[] = [];
    const finished: number[] = [];
    let heartbeats = 0;
    const run = inWindow([0, 1, 2, 3, 4, 5, 6, 7], 4, async (n) => {
      started.push(n);
      for (let i = 0; i < (n + 1) * 3; i++) await tick();
      finished.push(n);
    }, {
      resolved: async () => {
        heartbeats += 1;
        throw new Error("The group is rebalancing, so a rejoin is needed");
      },
      keepGoing: () => true,
    });
    await expect(run).rejects.toThrow("rebalancing");
    // It was thrown with 1, 2 and 3 still running: the partition went to another worker, which
    // started them again (the agent called twice for one pair).
    expect(finished.sort()).toEqual(started.sort());
    expect(started).toEqual([0, 1, 2, 3]);
    expect(heartbeats).toBe(1);
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
