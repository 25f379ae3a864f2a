import { describe, expect, it } from "vitest";
import { WeightedLru } from "./weightedLru.js";

describe("WeightedLru", () => {
  it("forgets the least recently used entry beyond its entry limit", () => {
    const lru = new WeightedLru<number>({ maxEntries: 2, maxWeight: Infinity });
    lru.set("a", 1, 0);
    lru.set("b", 2, 0);
    lru.get("a");
    lru.set("c", 3, 0);
    expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual([1, undefined, 3]);
  });

  it("forgets the oldest entries while over its weight, never the newest", () => {
    const lru = new WeightedLru<string>({ maxEntries: 10, maxWeight: 5 });
    lru.set("a", "a", 3);
    lru.set("b", "b", 1);
    lru.set("c", "c", 3);
    expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual([undefined, "b", "c"]);
    lru.set("huge", "huge", 50);
    expect(lru.size).toBe(1);
    expect(lru.get("huge")).toBe("huge");
  });

  it("counts a replaced entry once and a raised weight by the difference", () => {
    const lru = new WeightedLru<number>({ maxEntries: 10, maxWeight: 5 });
    lru.set("a", 1, 2);
    lru.set("a", 1, 2);
    lru.set("b", 2, 2);
    expect(lru.size).toBe(2);
    lru.weighAtLeast("b", 1); // lighter than known: no change
    lru.weighAtLeast("a", 3); // 3 + 2 = 5: still within
    expect(lru.size).toBe(2);
    lru.weighAtLeast("a", 4); // 6 > 5: a, the least recently used, goes
    expect([lru.get("a"), lru.get("b")]).toEqual([undefined, 2]);
  });
});
