import { describe, expect, it } from "vitest";
import { compareJsonbKeys, inJsonbOrder } from "./jsonbOrder.js";

describe("inJsonbOrder", () => {
  it("lists keys as jsonb prints them: shorter in UTF-8 bytes first, then bytewise, nested too", () => {
    const value = inJsonbOrder(JSON.parse('{"zeta":1,"é":2,"z":3,"😀":4,"ab":{"bb":[{"y":1,"x":2}],"a":0},"10":5,"2":6}')) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["2", "10", "z", "ab", "é", "zeta", "😀"]);
    expect(Object.keys(value.ab as object)).toEqual(["a", "bb"]);
    expect(JSON.stringify(value)).toBe('{"2":6,"10":5,"z":3,"ab":{"a":0,"bb":[{"x":2,"y":1}]},"é":2,"zeta":1,"😀":4}');
  });

  it("orders each shape by its own keys, whichever shape came first", () => {
    expect(JSON.stringify(inJsonbOrder({ a: 1, bb: 2 }))).toBe('{"a":1,"bb":2}');
    expect(JSON.stringify(inJsonbOrder({ bb: 2, a: 1 }))).toBe('{"a":1,"bb":2}');
    expect(JSON.stringify(inJsonbOrder({ bb: 2, a: 1 }))).toBe('{"a":1,"bb":2}');
    expect(JSON.stringify(inJsonbOrder({ a: 1, bb: 2 }))).toBe('{"a":1,"bb":2}');
  });

  it("keeps a \"__proto__\" key as a key when it rebuilds the object, as JSON.parse does", () => {
    const value = inJsonbOrder(JSON.parse('{"__proto__":{"x":1},"b":2}')) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["b", "__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.stringify(value)).toBe('{"b":2,"__proto__":{"x":1}}');
  });

  it("leaves an object already in jsonb order as it is, and reorders the objects inside it", () => {
    const inner = { bb: 1, a: 2 };
    const outer = { b: inner, cc: [inner] };
    expect(inJsonbOrder(outer)).toBe(outer);
    expect(JSON.stringify(outer)).toBe('{"b":{"a":2,"bb":1},"cc":[{"a":2,"bb":1}]}');
  });

  it("compares keys by UTF-8 bytes, not UTF-16 code units", () => {
    // U+FF61 is 3 bytes, U+1F600 is 4: the shorter one first, though its code unit is larger.
    expect(compareJsonbKeys("\uff61", "😀")).toBeLessThan(0);
    expect(compareJsonbKeys("\uff61", "\uff62")).toBeLessThan(0);
    expect(compareJsonbKeys("b", "aa")).toBeLessThan(0);
  });
});
