import { getEventListeners } from "node:events";
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

  it("leaves no listener on a long-lived signal once its waiters ran, and an abort after a grant disturbs no other waiter", async () => {
    const limiter = new Limiter(1);
    const shared = new AbortController();
    const releases: Array<() => void> = [];
    const hold = () => new Promise<void>((resolve) => releases.push(resolve));
    const first = limiter.run(hold);
    // 200 waiters on one signal (a server's closing signal, say): each must take its listener off when it runs.
    const waiters = Array.from({ length: 200 }, () => limiter.run(() => "ran", shared.signal));
    const last = limiter.run(hold);
    releases.shift()!();
    await first;
    expect(await Promise.all(waiters)).toEqual(Array(200).fill("ran"));
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    // The waiters all ran; aborting now must not take `last` (still running) or a later waiter out.
    const after = limiter.run(() => "after");
    shared.abort(new Error("closing"));
    releases.shift()!();
    await last;
    expect(await after).toBe("after");
    expect(limiter.idle).toBe(true);
  });

  it("runs a waiter whose signal has not aborted when a slot passes to it, and reads the signal no more once it runs", async () => {
    const limiter = new Limiter(1);
    let release: () => void = () => {};
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = new AbortController();
    let finish: () => void = () => {};
    const second = limiter.run(() => new Promise<string>((resolve) => (finish = () => resolve("second"))), waiting.signal);
    release();
    await first;
    // Aborting a task that already runs changes nothing: the signal bounds the wait, not the task.
    waiting.abort(new Error("too late"));
    finish();
    expect(await second).toBe("second");
    expect(limiter.idle).toBe(true);
  });

  it("takes a waiter whose signal aborts out of the queue, rejecting with its reason, and never runs it", async () => {
    const limiter = new Limiter(1);
    let release: () => void = () => {};
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = new AbortController();
    let ran = false;
    const gone = limiter.run(() => (ran = true), waiting.signal);
    const next = limiter.run(() => "next");
    waiting.abort(new Error("gave up"));
    await expect(gone).rejects.toThrow("gave up");
    release();
    await first;
    // The slot went to the waiter behind the one that gave up.
    expect(await next).toBe("next");
    expect(ran).toBe(false);
    expect(limiter.idle).toBe(true);
  });

  it("leaks no slot when a waiter gives up: the next task gets the freed slot at once, and the limiter goes idle", async () => {
    const limiter = new Limiter(1);
    let release: () => void = () => {};
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    await expect(limiter.run(() => "late", AbortSignal.timeout(10))).rejects.toMatchObject({ name: "TimeoutError" });
    release();
    await first;
    expect(limiter.idle).toBe(true);
    let started = false;
    const after = limiter.run(() => (started = true));
    // Started in the same turn: no slot is held for the waiter that left.
    expect(started).toBe(true);
    await after;
    expect(limiter.idle).toBe(true);
  });

  it("runs nothing for a signal already aborted, even with a slot free", async () => {
    const limiter = new Limiter(1);
    let ran = false;
    await expect(limiter.run(() => (ran = true), AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
    expect([ran, limiter.idle]).toEqual([false, true]);
  });

  it("refuses a slot count that is not a whole number >= 1", () => {
    expect(() => new Limiter(0)).toThrow("slots must be a whole number >= 1 (got 0)");
  });
});
