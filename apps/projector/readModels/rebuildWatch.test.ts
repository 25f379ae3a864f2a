import { describe, expect, it } from "vitest";
import { RebuildWatch } from "./rebuildWatch.js";

/** A watch on a generation the test sets, on a clock it moves. */
function watched(everyMs = 1_000) {
  const world = { generation: "0", reads: 0, fail: false, now: 0 };
  const watch = new RebuildWatch({
    read: async () => {
      world.reads += 1;
      if (world.fail) throw new Error("read database unreachable");
      return world.generation;
    },
    everyMs,
    now: () => world.now,
  });
  const told: number[] = [];
  watch.onRebuilt(() => told.push(watch.epoch));
  return { world, watch, told };
}

describe("RebuildWatch", () => {
  it("reads the generation at most once every everyMs, one read for the checks that wait on it", async () => {
    const { world, watch } = watched();
    await Promise.all([watch.check(), watch.check(), watch.check()]);
    expect(world.reads).toBe(1);
    world.now = 999;
    await watch.check();
    expect(world.reads).toBe(1);
    world.now = 1_000;
    await watch.check();
    expect(world.reads).toBe(2);
  });

  it("tells its listeners once a changed generation is read, not at the first read, and raises the epoch", async () => {
    const { world, watch, told } = watched();
    world.generation = "3"; // rebuilt before this process started: nothing it kept is older
    await watch.check();
    expect([told, watch.epoch]).toEqual([[], 0]);
    world.generation = "4";
    await watch.check(); // within everyMs: not read yet
    expect(told).toEqual([]);
    world.now += 1_000;
    await watch.check();
    expect([told, watch.epoch]).toEqual([[1], 1]);
    world.now += 1_000;
    await watch.check();
    expect(told).toEqual([1]);
  });

  it("keeps what is cached when the generation cannot be read, and notices the change at the next read that answers", async () => {
    const { world, watch, told } = watched();
    await watch.check();
    world.generation = "1";
    world.fail = true;
    world.now += 1_000;
    await expect(watch.check()).resolves.toBeUndefined();
    expect(told).toEqual([]);
    world.fail = false;
    await watch.check(); // not again within everyMs of the failed read
    expect([world.reads, told]).toEqual([2, []]);
    world.now += 1_000;
    await watch.check();
    expect(told).toEqual([1]);
  });

  it("reads at every check with everyMs 0, and forgets a listener that unsubscribed", async () => {
    const { world, watch, told } = watched(0);
    const other: string[] = [];
    const stop = watch.onRebuilt(() => other.push("told"));
    await watch.check();
    world.generation = "1";
    await watch.check();
    stop();
    world.generation = "2";
    await watch.check();
    expect([world.reads, told, other]).toEqual([3, [1, 2], ["told"]]);
  });
});
