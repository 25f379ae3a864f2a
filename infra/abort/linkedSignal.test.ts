import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { abortLoad } from "./abortLoad.testing.js";
import { linkSignals } from "./linkedSignal.js";

// A full collection on demand, without starting the test process with --expose-gc.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("linkSignals", () => {
  it("aborts when any source aborts, with that source's reason", () => {
    for (const which of [0, 1]) {
      const sources = [new AbortController(), new AbortController()];
      const link = linkSignals([sources[0].signal, undefined, sources[1].signal]);
      sources[which].abort(`source ${which}`);
      expect(link.signal.aborted).toBe(true);
      expect(link.signal.reason).toBe(`source ${which}`);
      expect(link.timedOut()).toBe(false);
    }
  });

  it("starts aborted when a source already is", () => {
    const link = linkSignals([new AbortController().signal, AbortSignal.abort("gone")]);
    expect(link.signal.reason).toBe("gone");
  });

  it("leaves nothing on a long-lived source once each link is disposed", () => {
    const closing = new AbortController().signal;
    for (let i = 0; i < 1_000; i += 1) {
      const own = new AbortController();
      const link = linkSignals([own.signal, closing], 60_000);
      if (i % 2) own.abort(); // ended by its own source, or just disposed
      link.dispose();
    }
    expect(abortLoad(closing)).toBe(0);
  });

  it("times out while garbage is collected, and marks it a timeout", { timeout: 5_000 }, async () => {
    const link = linkSignals([new AbortController().signal], 100);
    const collector = setInterval(gc, 10);
    try {
      await new Promise((resolve) => link.signal.addEventListener("abort", resolve, { once: true }));
    } finally {
      clearInterval(collector);
    }
    expect(link.timedOut()).toBe(true);
    expect((link.signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("does not time out once disposed", async () => {
    const link = linkSignals([], 20);
    link.dispose();
    await sleep(60);
    expect(link.signal.aborted).toBe(false);
  });
});
