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
    const cache = new TerminalRunCache({ maxRuns: 2 });
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

  it("forgets the least recently used runs once the runs kept hold more results than the limit", async () => {
    const cache = new TerminalRunCache({ maxResults: 5_000 });
    let loads = 0;
    const load = async () => ++loads;
    await cache.read("acme", "big-1", "COMPLETED", "results", load, 3_000);
    await cache.read("acme", "small", "COMPLETED", "results", load, 1_000);
    expect(cache.size).toBe(2);
    // 3,000 + 1,000 + 3,000 > 5,000: the oldest (big-1) goes, the small one stays.
    await cache.read("acme", "big-2", "COMPLETED", "results", load, 3_000);
    expect(cache.size).toBe(2);
    expect(await cache.read("acme", "small", "COMPLETED", "results", load, 1_000)).toBe(2);
    expect(await cache.read("acme", "big-2", "COMPLETED", "results", load, 3_000)).toBe(3);
    expect(await cache.read("acme", "big-1", "COMPLETED", "results", load, 3_000)).toBe(4);
  });

  it("keeps the most recent run even when it alone is over the limit", async () => {
    const cache = new TerminalRunCache({ maxResults: 100 });
    let loads = 0;
    const load = async () => ++loads;
    await cache.read("acme", "huge", "COMPLETED", "results", load, 10_000);
    expect(await cache.read("acme", "huge", "COMPLETED", "results", load, 10_000)).toBe(1);
    await cache.read("acme", "other", "COMPLETED", "results", load, 10);
    expect(cache.size).toBe(1);
    expect(await cache.read("acme", "huge", "COMPLETED", "results", load, 10_000)).toBe(3);
  });

  it("learns a run's size from a terminal value and counts it once", async () => {
    const cache = new TerminalRunCache({ maxResults: 5_000 });
    const row = (id: string) => async () => ({ id, status: "COMPLETED", total: 3_000 });
    await cache.whenTerminal("acme", "r1", "run", row("r1"), (r) => r.total);
    // More fields of the same run do not add its results again.
    await cache.read("acme", "r1", "COMPLETED", "results", async () => [], 3_000);
    await cache.read("acme", "r1", "COMPLETED", "summaries", async () => [], 3_000);
    await cache.read("acme", "r2", "COMPLETED", "results", async () => [], 1_000);
    expect(cache.size).toBe(2);
    await cache.whenTerminal("acme", "r3", "run", row("r3"), (r) => r.total);
    expect(cache.size).toBe(2);
  });

  it("does not keep a failed load", async () => {
    const cache = new TerminalRunCache();
    await expect(cache.read("acme", "r1", "COMPLETED", "x", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.read("acme", "r1", "COMPLETED", "x", async () => 7)).toBe(7);
  });

  it("loads without keeping once a run holds maxFieldsPerRun fields", async () => {
    const cache = new TerminalRunCache({ maxFieldsPerRun: 3 });
    let loads = 0;
    const load = async () => ++loads;
    for (const field of ["a", "b", "c", "d", "e"]) await cache.read("acme", "r1", "COMPLETED", field, load);
    expect(cache.fieldCount).toBe(3);
    expect(await cache.read("acme", "r1", "COMPLETED", "a", load)).toBe(1);
    expect(await cache.read("acme", "r1", "COMPLETED", "e", load)).toBe(6);
    await cache.whenTerminal("acme", "r1", "run", async () => ({ status: "COMPLETED" }));
    expect(cache.fieldCount).toBe(3);
  });
});
