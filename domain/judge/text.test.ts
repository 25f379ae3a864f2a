import { describe, expect, it } from "vitest";
import { humanize, isBlank, rubyFloat, rubyInteger, truncate } from "./text.js";

describe("judge text helpers", () => {
  it("truncates to exactly n characters with three ASCII dots", () => {
    expect(truncate("abcdefghij", 10)).toBe("abcdefghij");
    expect(truncate("abcdefghijk", 10)).toBe("abcdefg...");
    expect(truncate("abcdefghijk", 10)).toHaveLength(10);
  });

  it("counts characters, not UTF-16 units", () => {
    const emoji = "😀".repeat(6); // 12 UTF-16 units, 6 characters
    expect(truncate(emoji, 8)).toBe(emoji);
    expect(truncate("😀".repeat(9), 8)).toBe(`${"😀".repeat(5)}...`);
  });

  it("truncates a 1 MB string without trouble", () => {
    expect(truncate("x".repeat(1_000_000), 4000)).toHaveLength(4000);
  });

  it("knows blank as Ruby does for text", () => {
    expect([null, undefined, "", "  \n\t"].every(isBlank)).toBe(true);
    expect(isBlank("a")).toBe(false);
  });

  it("humanizes criterion keys", () => {
    expect(humanize("response_length")).toBe("Response length");
    expect(humanize("task_completion")).toBe("Task completion");
  });

  it("prints numbers as Ruby does", () => {
    expect(rubyFloat(100)).toBe("100.0");
    expect(rubyFloat(33.3)).toBe("33.3");
    expect(rubyFloat(1)).toBe("1.0");
    expect(rubyFloat(0)).toBe("0.0");
    expect(rubyFloat(0.00001)).toBe("1.0e-05");
    expect(rubyFloat(0.000015)).toBe("1.5e-05");
    expect(rubyFloat(0.0001)).toBe("0.0001");
    expect(rubyFloat(0.001234)).toBe("0.001234");
    expect(rubyFloat(1e16)).toBe("1.0e+16");
    expect(rubyFloat(1e15)).toBe("1000000000000000.0");
    expect(rubyInteger(1234)).toBe("1234");
  });
});
