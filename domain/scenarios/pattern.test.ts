import { describe, expect, it } from "vitest";
import { patternProblem, regexPattern } from "./pattern.js";

describe("content patterns", () => {
  it("reads /source/flags as a regex only with the Scorer's flags (imsu)", () => {
    expect(regexPattern("/refund(ed)?/i")).toEqual({ source: "refund(ed)?", flags: "i" });
    expect(regexPattern("/a|b/")).toEqual({ source: "a|b", flags: "" });
    expect(regexPattern("/etc/hosts")).toBeNull();
    expect(regexPattern("/x/g")).toBeNull();
    expect(regexPattern("refund")).toBeNull();
    expect(regexPattern("//")).toBeNull();
  });

  it("names a regex that does not compile and accepts literals that would not", () => {
    expect(patternProblem("/refund(ed/i")).toMatch(/^\/refund\(ed\/i is not a valid regular expression \(Invalid regular expression/);
    expect(patternProblem("/[z-a]/")).not.toBeNull();
    expect(patternProblem("(approx")).toBeNull();
    expect(patternProblem("$5")).toBeNull();
  });

  it("accepts Ruby anchors the Scorer translates, even under the u flag", () => {
    expect(patternProblem("/\\Arefund\\z/u")).toBeNull();
    expect(patternProblem("/\\h+/u")).toBeNull();
    expect(patternProblem("/\\\\A/u")).toBeNull();
    expect(patternProblem("/\\q/u")).not.toBeNull();
  });
});
