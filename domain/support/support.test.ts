import { describe, expect, it } from "vitest";
import {
  thrownText,
  countOf,
  floatSum,
  FloatSum,
  humanize,
  isBlank,
  likelyMeant,
  parameterize,
  pluralize,
  presence,
  roundHalfAwayFromZero,
  rubyNumber,
  characterLength,
  truncate,
  truncateBytes,
} from "./index.js";

describe("isBlank / presence", () => {
  it("treats nil, false, whitespace strings, empty arrays and hashes as blank", () => {
    for (const value of [null, undefined, false, "", "  \n\t", "\u00a0", [], {}]) expect(isBlank(value)).toBe(true);
    for (const value of [0, true, "x", [null], { a: 1 }, Number.NaN]) expect(isBlank(value)).toBe(false);
  });
  it("presence returns the value or null", () => {
    expect(presence("  ")).toBeNull();
    expect(presence("ok")).toBe("ok");
    expect(presence(0)).toBe(0);
  });
});

describe("characterLength", () => {
  it("counts code points as Ruby does: a surrogate pair once, a lone surrogate once", () => {
    expect(characterLength("abc")).toBe(3);
    expect(characterLength("😀😀")).toBe(2);
    expect(characterLength("a\ud83d")).toBe(2); // a lone high surrogate at the end
    expect(characterLength("\ud83db")).toBe(2); // a lone high surrogate before a letter
    expect(characterLength("\ude00x")).toBe(2); // a lone low surrogate
  });
});

describe("truncate", () => {
  it("keeps n - 3 characters plus three dots, exactly n long", () => {
    expect(truncate("abcdefghij", 8)).toBe("abcde...");
    expect(truncate("abcdefghij", 10)).toBe("abcdefghij");
    expect(truncate("😀😀😀😀😀", 4)).toBe("😀...");
  });
  it("truncateBytes keeps whole characters up to n - 3 bytes plus an ellipsis", () => {
    expect(truncateBytes("héllo wörld", 8)).toBe("héll…");
    expect(new TextEncoder().encode(truncateBytes("é".repeat(10), 9)).length).toBeLessThanOrEqual(9);
    expect(truncateBytes("short", 5)).toBe("short");
  });
});

describe("parameterize", () => {
  it.each([
    ["Sign-in issues", "sign-in_issues"],
    ["Find record(s)", "find_record_s"],
    ["History / audit", "history_audit"],
    ["Batch 2!", "batch_2"],
    ["Café Orders", "cafe_orders"],
    ["!!!", ""],
    ["__Already__key__", "already_key"],
    // ActiveSupport's transliteration table, not just accents dropped
    ["Straße", "strasse"],
    ["Smørrebrød", "smorrebrod"],
    ["Æble & Œuvre", "aeble_oeuvre"],
    ["Łódź", "lodz"],
    ["Cafe\u0301 decomposed", "cafe_decomposed"],
    ["Level² support", "level_support"],
    ["日本 orders", "orders"],
  ])("%s -> %s", (input, output) => expect(parameterize(input)).toBe(output));
});

describe("humanize and pluralize", () => {
  it("humanizes criterion keys", () => {
    expect(humanize("response_length")).toBe("Response length");
    expect(humanize("task_completion")).toBe("Task completion");
  });
  it("pluralizes the report nouns by count", () => {
    expect(countOf(1, "scenario")).toBe("1 scenario");
    expect(countOf(0, "fix item")).toBe("0 fix items");
    expect(countOf(2, "scenario run")).toBe("2 scenario runs");
    expect(pluralize("call")).toBe("calls");
    expect(pluralize("fault", 3)).toBe("faults");
    expect(pluralize("category")).toBe("categories");
  });
});

describe("likelyMeant", () => {
  it("names the closest known name a typo away (one edit, a swap as one, two between words of six letters or more), case ignored, else null", () => {
    expect(likelyMeant("contain", ["tools", "contains", "not_contains"])).toBe("contains");
    expect(likelyMeant("Not_Contain", ["tools", "contains", "not_contains"])).toBe("not_contains");
    expect(likelyMeant("min", ["chars"])).toBeNull();
    expect(likelyMeant("x", [])).toBeNull();
  });

  it("takes two edits only between words of six characters or more, one between shorter ones, a swap of two letters as one", () => {
    expect(likelyMeant("expcet", ["key", "prompt", "expect"])).toBe("expect");
    expect(likelyMeant("scenarois", ["key", "scenarios"])).toBe("scenarios");
    expect(likelyMeant("paterns", ["pattern"])).toBe("pattern");
    expect(likelyMeant("timeout", ["label", "timeoutMs"])).toBe("timeoutMs");
    expect(likelyMeant("juge", ["name", "judge"])).toBe("judge");
    expect(likelyMeant("kye", ["key", "name"])).toBe("key");
    expect(likelyMeant("nmae", ["key", "name"])).toBe("name");
    // A host's own short keys, two edits from a known one: other words, not typos.
    for (const [name, known] of [["date", "name"], ["time", "name"], ["node", "name"], ["note", "name"], ["age", "name"], ["task", "tags"], ["teams", "tags"], ["lane", "name"]]) {
      expect(likelyMeant(name, ["key", known]), name).toBeNull();
    }
  });
});

describe("floatSum", () => {
  it("sums as Ruby's Array#sum, compensating what each addition rounds away", () => {
    expect(floatSum([0.775, 0.867, 0.441, 0.715])).toBe(2.798);
    expect(floatSum([0.1, 0.2, 0.3])).toBe(0.6);
    expect(floatSum(Array(10).fill(0.1))).toBe(1);
    expect(floatSum([1e100, 1, -1e100])).toBe(1);
    expect(floatSum([])).toBe(0);
  });
  it("counts what it was given", () => {
    const sum = new FloatSum();
    sum.add(0.5);
    sum.add(0.25);
    expect([sum.value, sum.count]).toEqual([0.75, 2]);
  });
});

describe("roundHalfAwayFromZero", () => {
  it("rounds halves away from zero", () => {
    expect(roundHalfAwayFromZero(2.5)).toBe(3);
    expect(roundHalfAwayFromZero(-2.5)).toBe(-3);
    expect(roundHalfAwayFromZero(0.125, 2)).toBe(0.13);
    expect(roundHalfAwayFromZero(-0.125, 2)).toBe(-0.13);
  });
  it("rounds what a decimal reader sees, as Ruby's float.c does", () => {
    expect(roundHalfAwayFromZero(2.675, 2)).toBe(2.68);
    expect(roundHalfAwayFromZero(1.005, 2)).toBe(1.01);
    expect(roundHalfAwayFromZero(2 / 3, 3)).toBe(0.667);
    expect(roundHalfAwayFromZero(1234.5, -1)).toBe(1230);
  });
  it("prints numbers as Ruby floats", () => {
    expect(rubyNumber(100)).toBe("100.0");
    expect(rubyNumber(33.3)).toBe("33.3");
    expect(rubyNumber(0.00001)).toBe("1.0e-05");
    expect(rubyNumber(1.5e-7)).toBe("1.5e-07");
    expect(rubyNumber(42, { asFloat: false })).toBe("42");
  });
});

describe("thrownText", () => {
  it("reads what was thrown without throwing itself, and clips a large object's JSON", () => {
    class StoreError extends Error {}
    expect(thrownText(new StoreError("down"))).toBe("StoreError: down");
    const unreadable = new Error("x");
    Object.defineProperty(unreadable, "message", { get: () => { throw new Error("no"); } });
    expect(thrownText(unreadable)).toBe("Error: (its message could not be read)");
    expect(thrownText(Object.create(null) as object)).toBe("a non-Error value was thrown: {}");
    expect(thrownText({ blob: "x".repeat(5_000) })).toHaveLength("a non-Error value was thrown: ".length + 2_001);
    expect(thrownText(Symbol("s"))).toBe("Symbol(s)");
  });
});
