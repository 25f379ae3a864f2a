import { describe, expect, it } from "vitest";
import { FinishedRunCache } from "./finishedRuns.js";
import type { Run } from "./types.js";

const run = (id: string, total: number, status = "COMPLETED") => ({ id, tenant: "acme", status, total }) as unknown as Run;

describe("FinishedRunCache", () => {
  it("keeps finished runs only, and forgets the least recently used beyond its size", () => {
    const cache = new FinishedRunCache(2);
    expect(cache.remember(run("going", 10, "RUNNING"))).toBeUndefined();
    cache.remember(run("r1", 10));
    cache.remember(run("r2", 10));
    cache.get("acme", "r1");
    cache.remember(run("r3", 10));
    expect(cache.get("acme", "r2")).toBeUndefined();
    expect(cache.get("acme", "r1")).toBeDefined();
    expect(cache.get("acme", "r3")).toBeDefined();
  });

  it("forgets older runs while the runs kept hold more results than the limit, never the newest", () => {
    const cache = new FinishedRunCache(4, 5_000);
    cache.remember(run("big-1", 3_000));
    cache.remember(run("small", 1_000));
    cache.remember(run("big-2", 3_000));
    expect(cache.get("acme", "big-1")).toBeUndefined();
    expect(cache.get("acme", "small")).toBeDefined();
    expect(cache.get("acme", "big-2")).toBeDefined();
    cache.remember(run("huge", 50_000));
    expect(cache.get("acme", "huge")).toBeDefined();
    expect(cache.get("acme", "small")).toBeUndefined();
    expect(cache.get("acme", "big-2")).toBeUndefined();
  });

  it("counts a run remembered twice once", () => {
    const cache = new FinishedRunCache(4, 5_000);
    cache.remember(run("r1", 2_000));
    cache.remember(run("r1", 2_000));
    cache.remember(run("r2", 2_000));
    expect(cache.get("acme", "r1")).toBeDefined();
    expect(cache.get("acme", "r2")).toBeDefined();
  });
});
