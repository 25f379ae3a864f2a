import { describe, expect, it } from "vitest";
import { nearestRank, nearestRanks } from "./nearestRank.js";

describe("nearestRank", () => {
  it("takes the value at rank ceil(p/100 × n) of the ascending values", () => {
    const values = [50, 10, 40, 20, 30];
    expect(nearestRank(values, 50)).toBe(30); // rank ceil(2.5) = 3
    expect(nearestRank(values, 95)).toBe(50); // rank ceil(4.75) = 5
    expect(nearestRank(values, 20)).toBe(10); // rank exactly 1
    expect(nearestRank(values, 100)).toBe(50);
  });

  it("lands on the exact rank where p / 100 × n is whole, whatever binary floats make of it", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    for (const p of [7, 14, 28, 55, 56, 95]) expect(nearestRank(hundred, p)).toBe(p);
    expect(nearestRanks(hundred, [7, 57])).toEqual([7, 57]);
  });

  it("rounds a fractional rank up, never to the nearest: p95 of 1..11 is rank ceil(10.45) = 11", () => {
    const eleven = Array.from({ length: 11 }, (_, i) => i + 1);
    expect(nearestRank(eleven, 95)).toBe(11);
  });

  it("always answers a value that occurred, never an interpolation", () => {
    expect(nearestRank([100, 200], 50)).toBe(100);
    expect(nearestRank([100, 200, 300, 400], 50)).toBe(200);
  });

  it("ignores null, undefined and non-finite values; null when none is left", () => {
    expect(nearestRank([null, 7, undefined, Number.NaN, 3], 50)).toBe(3);
    expect(nearestRank([], 50)).toBeNull();
    expect(nearestRank([null, undefined], 95)).toBeNull();
  });

  it("p = 0 gives the smallest value", () => {
    expect(nearestRank([5, 1, 9], 0)).toBe(1);
  });

  it("refuses a percentile outside 0..100, naming the rule", () => {
    expect(() => nearestRank([1], 101)).toThrow(/p must be a number from 0 to 100/);
    expect(() => nearestRank([1], Number.NaN)).toThrow(/p must be a number from 0 to 100/);
  });
});

describe("nearestRanks", () => {
  it("answers each percentile as nearestRank does, from one sort", () => {
    const values = [50, 10, null, 40, 20, Number.NaN, 30];
    const ps = [0, 20, 50, 95, 100];
    expect(nearestRanks(values, ps)).toEqual(ps.map((p) => nearestRank(values, p)));
    expect(nearestRanks(values, ps)).toEqual([10, 10, 30, 50, 50]);
  });

  it("answers null for each percentile when no value is finite", () => {
    expect(nearestRanks([null, undefined], [50, 95])).toEqual([null, null]);
  });

  it("refuses any percentile outside 0..100, naming the rule", () => {
    expect(() => nearestRanks([1], [50, 101])).toThrow(/p must be a number from 0 to 100/);
  });
});
