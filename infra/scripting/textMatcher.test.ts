import { describe, expect, it } from "vitest";
import { textMatcher } from "./textMatcher.js";

describe("textMatcher", () => {
  it("reads a plain pattern as a case-insensitive substring and /body/flags as a regex", () => {
    expect(textMatcher("Refund")("please refund me")).toBe(true);
    expect(textMatcher("/^refund/i")("Refund now")).toBe(true);
    expect(textMatcher("/^refund/")("Refund now")).toBe(false);
  });

  it("reads the whole text, however long (a judge's prompt carries the answer after its instructions)", () => {
    const prompt = `${"instructions ".repeat(2000)}answer: the order shipped`;
    expect(prompt.length).toBeGreaterThan(20_000);
    expect(textMatcher("/answer:.*shipped$/")(prompt)).toBe(true);
  });

  it("refuses an unbounded repeat inside an unbounded repeat, which can run for ever, and nothing milder", () => {
    expect(() => textMatcher("/^(\\w+\\s?)*$/")).toThrow(/^unsafe regex: a group repeated without bound holds a repeat without bound/);
    expect(() => textMatcher("/(a+)+b/")).toThrow(/^unsafe regex/);
    for (const pattern of ["/\\w+@\\w+\\.\\w+/", "/(hi|hello)+/i", "/(\\d{3}-)+/", "/(ab?)+/"]) expect(() => textMatcher(pattern), pattern).not.toThrow();
  });
});
