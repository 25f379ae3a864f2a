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
    warn: () => undefined, // what is said: the tests below
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

/** A watch whose reads the test answers one by one (reads[i]), with a short wait bound. */
function answered(options: { everyMs?: number; waitMs?: number; abandonMs?: number } = {}) {
  const world = { now: 0 };
  const reads: Array<{ answer(generation: string): void; fail(error: Error): void }> = [];
  const lines: string[] = [];
  const watch = new RebuildWatch({
    read: () => new Promise<string>((resolve, reject) => void reads.push({ answer: resolve, fail: reject })),
    everyMs: 1_000, waitMs: 20, abandonMs: 5_000, ...options,
    warn: (line) => lines.push(line),
    now: () => world.now,
  });
  const told: number[] = [];
  watch.onRebuilt(() => told.push(watch.epoch));
  return { world, reads, lines, watch, told };
}

/** Whether `promise` settles within `ms` (real time). */
async function within(ms: number, promise: Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true, () => true), late]);
  clearTimeout(timer);
  return settled;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("RebuildWatch when the generation read fails or does not answer", () => {
  it("clears at the first answer when the reads before it failed (requests cached meanwhile)", async () => {
    const { world, watch, told } = watched();
    world.fail = true; // e.g. the API's role lacks SELECT on projector_rebuilds, or the database restarts
    await watch.check();
    world.fail = false;
    world.generation = "1"; // a rebuild committed while nothing could read the generation
    world.now += 1_000;
    await watch.check();
    expect([told, watch.epoch]).toEqual([[1], 1]);
    world.now += 1_000;
    await watch.check();
    expect(told).toEqual([1]);
  });

  it("resolves every check at once while the reads always fail, and says so at most every 30 s, without the URL's password", async () => {
    const lines: string[] = [];
    const world = { now: 0 };
    const watch = new RebuildWatch({
      read: async () => {
        throw new Error("connect to postgres://verdict:s3cret@db.internal:5432/verdict refused: permission denied for table projector_rebuilds");
      },
      warn: (line) => lines.push(line),
      now: () => world.now,
    });
    for (let second = 0; second < 45; second += 1) {
      expect(await within(50, watch.check())).toBe(true);
      world.now += 1_000;
    }
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[read models\] the rebuild generation \(projector_rebuilds\) could not be read \(.*permission denied for table projector_rebuilds\); finished runs kept in memory are served as they are until a read answers$/);
    expect(lines[1]).toMatch(/\(repeated 29 more times since it was last shown\)$/);
    expect(lines.join("\n")).not.toContain("s3cret");
    expect(lines[0]).toContain("postgres://db.internal:5432/verdict");
  });

  it("goes on after waitMs while a read hangs, asks again after abandonMs, and an abandoned read's late answer does no harm", async () => {
    const { world, reads, lines, watch, told } = answered();
    expect(await within(500, watch.check())).toBe(true); // waited 20 ms, not for the read
    world.now = 100;
    expect(await within(5, watch.check())).toBe(true); // the same read, past its wait: at once
    expect(reads).toHaveLength(1);
    world.now = 5_000;
    expect(await within(500, watch.check())).toBe(true);
    expect(reads).toHaveLength(2); // the first given up, a second asked
    expect(lines).toEqual(["[read models] the rebuild generation (projector_rebuilds) not read: no answer in 5s, asked again; finished runs kept in memory are served as they are until a read answers"]);
    reads[1].answer("4");
    await settle();
    // Requests went on without any answer: the first that comes clears.
    expect([told, watch.epoch]).toEqual([[1], 1]);
    reads[0].answer("3"); // the abandoned read, answering late from before what the second saw
    await settle();
    expect(told).toEqual([1]);
    world.now = 6_000;
    const next = watch.check();
    reads[2].answer("4"); // had the late "3" been recorded, this would clear again
    await next;
    expect([reads.length, told]).toEqual([3, [1]]);
  });

  it("uses an abandoned read's late answer when no read asked after it answered yet", async () => {
    const { world, reads, watch, told } = answered();
    const first = watch.check();
    reads[0].answer("0"); // within waitMs: what the caches are of
    await first;
    world.now = 1_000;
    expect(await within(500, watch.check())).toBe(true); // hangs
    world.now = 6_000;
    expect(await within(500, watch.check())).toBe(true); // the second given up, a third asked: it hangs too
    expect(reads).toHaveLength(3);
    reads[1].answer("1");
    await settle();
    expect(told).toEqual([1]);
    reads[2].answer("1");
    await settle();
    expect(told).toEqual([1]);
  });

  it("tells the listeners when a read slower than waitMs answers a change; a load begun meanwhile sees the epoch move", async () => {
    const { world, reads, watch, told } = answered();
    const first = watch.check();
    reads[0].answer("0"); // within waitMs: what the caches are of
    await first;
    world.now = 1_000;
    expect(await within(500, watch.check())).toBe(true);
    const epoch = watch.epoch; // a cache's load starts here, without the read's answer
    reads[1].answer("1");
    await settle();
    expect(told).toEqual([1]);
    expect(watch.epoch).not.toBe(epoch); // so the load is not kept (readModels.ts, the API's caches)
  });

  it("clears at the first answer when it came after requests stopped waiting for it", async () => {
    const { reads, watch, told } = answered();
    expect(await within(500, watch.check())).toBe(true);
    reads[0].answer("7");
    await settle();
    expect(told).toEqual([1]);
  });
});
