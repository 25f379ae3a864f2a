import { describe, expect, it } from "vitest";
import { Limiter } from "./limiter.js";

describe("Limiter", () => {
  it("runs at most `slots` tasks at once, the rest in call order", async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const tasks = [0, 1, 2, 3, 4].map((i) =>
      limiter.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        order.push(i);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return i;
      }),
    );
    for (let done = 0; done < 5; done++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      releases.shift()!();
    }
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it("frees the slot when a task throws", async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await limiter.run(async () => "next")).toBe("next");
  });

  it("is idle only while no task runs or waits", async () => {
    const limiter = new Limiter(1);
    expect(limiter.idle).toBe(true);
    let release: () => void = () => {};
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const second = limiter.run(() => "second");
    expect(limiter.idle).toBe(false);
    release();
    await first;
    // The slot passed to the waiting task: still busy until it is done.
    expect(await second).toBe("second");
    expect(limiter.idle).toBe(true);
  });

  it("refuses a slot count that is not a whole number >= 1", () => {
    expect(() => new Limiter(0)).toThrow("slots must be a whole number >= 1 (got 0)");
  });
});
