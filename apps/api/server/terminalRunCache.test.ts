import { describe, expect, it } from "vitest";
import { TerminalRunCache } from "./terminalRunCache.js";

describe("TerminalRunCache", () => {
  it("reads a running run every time and a completed one once", async () => {
    const cache = new TerminalRunCache();
    let loads = 0;
    const load = async () => ++loads;
    await cache.read("acme", "r1", "RUNNING", "results", load);
    await cache.read("acme", "r1", "RUNNING", "results", load);
    expect(loads).toBe(2);
    expect(await cache.read("acme", "r1", "COMPLETED", "results", load)).toBe(3);
    expect(await cache.read("acme", "r1", "COMPLETED", "results", load)).toBe(3);
    expect(await cache.read("globex", "r1", "COMPLETED", "results", load)).toBe(4);
  });

  it("keeps run rows only once terminal, and forgets the least recently used runs", async () => {
    const cache = new TerminalRunCache(2);
    let status = "RUNNING";
    let loads = 0;
    const row = async () => ({ id: "r1", status, n: ++loads });
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 1 });
    status = "COMPLETED";
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 2 });
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 2 });
    await cache.read("acme", "r2", "FAILED", "x", async () => 0);
    await cache.read("acme", "r3", "FAILED", "x", async () => 0);
    expect(await cache.whenTerminal("acme", "r1", "run", row)).toMatchObject({ n: 3 });
  });

  it("does not keep a failed load", async () => {
    const cache = new TerminalRunCache();
    await expect(cache.read("acme", "r1", "COMPLETED", "x", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.read("acme", "r1", "COMPLETED", "x", async () => 7)).toBe(7);
  });
});
