import { describe, expect, it } from "vitest";
import { isStorableJson, isStorableText, storableTextOf, unstorableTextPath } from "./storableText.js";

describe("storable text", () => {
  it("refuses NUL and unpaired surrogates, keeps pairs and every other character", () => {
    expect(isStorableText("Où 😀 \t\u0007")).toBe(true);
    for (const bad of ["\u0000", "a\ud83d", "\ude00b", "\ude00\ud83d"]) expect(isStorableText(bad)).toBe(false);
  });

  it("replaces each offending unit with U+FFFD and leaves the rest", () => {
    expect(storableTextOf("a\u0000b\ud83dc😀\ude00")).toBe("a\ufffdb\ufffdc😀\ufffd");
    const clean = "already fine 😀";
    expect(storableTextOf(clean)).toBe(clean);
  });

  it("names the first offending string or key in a JSON-like value", () => {
    expect(unstorableTextPath({ a: [{ b: "ok" }, { b: "x\u0000" }] }, "data")).toBe("data.a[1].b");
    expect(unstorableTextPath({ ["k\ud800"]: 1 }, "data")).toBe("data (a key)");
    expect(unstorableTextPath({ a: "ok", n: 1, z: null }, "data")).toBeNull();
  });

  it("reads JSON.stringify's escapes exactly: a doubled backslash before u is text, not an escape", () => {
    expect(isStorableJson(JSON.stringify({ s: "a\u0000" }))).toBe(false);
    expect(isStorableJson(JSON.stringify({ s: "\udbff" }))).toBe(false);
    expect(isStorableJson(JSON.stringify({ s: "\\u0000 \\\\ud800 typed" }))).toBe(true);
    expect(isStorableJson(JSON.stringify({ s: "\\\u0000" }))).toBe(false);
    expect(isStorableJson(JSON.stringify({ s: "\u0001 😀" }))).toBe(true);
  });
});
