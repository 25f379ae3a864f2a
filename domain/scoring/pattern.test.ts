import { describe, expect, it } from "vitest";
import { compilePattern, matchesPattern, patternProblem } from "./pattern.js";
import { patternShape, REGEX_INPUT_LIMIT, WIDE_REGEX_INPUT_LIMIT } from "./patternSafety.js";

describe("matchesPattern", () => {
  it("matches a case-insensitive substring first", () => {
    expect(matchesPattern("Your REFUND was approved.", "refund")).toBe(true);
    expect(matchesPattern("The fee is $5 per month.", "$5")).toBe(true);
    expect(matchesPattern("Roughly (approx 3 days)", "(approx")).toBe(true);
    expect(matchesPattern("We took 40 (sample) tickets", "40 (sample)")).toBe(true);
  });

  it("falls back to a case-insensitive regex", () => {
    expect(matchesPattern("Assigned to Bob.", "alice|bob")).toBe(true);
    expect(matchesPattern("Invoice INV-2041 is attached", "inv-\\d{4}")).toBe(true);
    expect(matchesPattern("Assigned to Carol.", "alice|bob")).toBe(false);
  });

  it("never matches a blank pattern", () => {
    expect(matchesPattern("anything", "")).toBe(false);
    expect(matchesPattern("anything", "   ")).toBe(false);
    expect(matchesPattern("anything", null)).toBe(false);
  });

  it("treats an invalid regex as no match", () => {
    expect(matchesPattern("refund (pending", "refund (pending]")).toBe(false);
    expect(matchesPattern("abc", "a(b")).toBe(false);
  });

  it("reads the /body/flags form as a regex with exactly those flags", () => {
    expect(matchesPattern("Order #4821 shipped", "/#\\d{4}/")).toBe(true);
    expect(matchesPattern("refund approved", "/Refund/")).toBe(false);
    expect(matchesPattern("refund approved", "/Refund/i")).toBe(true);
    expect(compilePattern("/refund/i").literal).toBeNull();
  });

  it("translates Ruby anchors, and ^ matches at any line as in Ruby", () => {
    expect(matchesPattern("Hello there", "\\AHello")).toBe(true);
    expect(matchesPattern("Oh. Hello there", "\\AHello")).toBe(false);
    expect(matchesPattern("done\n", "done\\Z")).toBe(true);
    expect(matchesPattern("done!", "done\\z")).toBe(false);
    expect(matchesPattern("Summary\nRefund: yes", "^refund:")).toBe(true);
    expect(matchesPattern("ID cafe12", "\\h{6}")).toBe(true);
    expect(matchesPattern("REFUNDED", "(?i)refund(ed)?$")).toBe(true);
  });
});

describe("catastrophic patterns", () => {
  it("refuses nested quantifiers and repeated alternations without running them", () => {
    const answer = `${"a".repeat(5_000)}!`;
    const started = performance.now();
    expect(matchesPattern(answer, "(a+)+b")).toBe(false);
    expect(matchesPattern(answer, "(a|aa)*c")).toBe(false);
    expect(matchesPattern(answer, "(\\w*\\s?){2,}x")).toBe(false);
    expect(matchesPattern(answer, ".*.*.*=")).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("classifies shapes", () => {
    expect(patternShape("(a+)+b").unsafe).toBe(true);
    expect(patternShape("(refund|return)+").unsafe).toBe(true);
    expect(patternShape("(refund|return)s?").unsafe).toBe(false);
    expect(patternShape("(refund|return){2}").unsafe).toBe(false);
    expect(patternShape("\\d+\\s*orders").inputLimit).toBe(REGEX_INPUT_LIMIT);
    expect(patternShape("refund.*order.*shipped").inputLimit).toBe(WIDE_REGEX_INPUT_LIMIT);
    expect(patternShape("[^)]+").inputLimit).toBe(REGEX_INPUT_LIMIT);
    expect(patternShape("a[(]+b").unsafe).toBe(false);
  });

  it("bounds how much of a long answer a wide regex scans", () => {
    const answer = "ab".repeat(4_000);
    const started = performance.now();
    expect(matchesPattern(answer, "a.*b.*c")).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
    // the substring check still sees the whole answer
    expect(matchesPattern(`${"x".repeat(20_000)} refund`, "refund")).toBe(true);
  });
});

describe("patternProblem", () => {
  it("accepts literals, plain regexes and compiling /regex/ forms", () => {
    expect(patternProblem("refund")).toBeNull();
    expect(patternProblem("$5")).toBeNull();
    expect(patternProblem("(approx")).toBeNull(); // not a regex, still a literal
    expect(patternProblem("alice|bob")).toBeNull();
    expect(patternProblem("/order #\\d+/i")).toBeNull();
  });

  it("names a /regex/ that does not compile and any catastrophic shape", () => {
    expect(patternProblem("/order (\\d+/i")).toMatch(/^\/order \(\\d\+\/i is not a valid regular expression \(/);
    expect(patternProblem("(a+)+b")).toMatch(/^\(a\+\)\+b can take exponential time/);
    expect(patternProblem("/(\\w|\\s)*$/")).toMatch(/can take exponential time/);
  });
});
