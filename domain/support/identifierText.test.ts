import { describe, expect, it } from "vitest";
import { characterName, identifierTextProblem, lookAlikePair, skeletonOf, visibleText } from "./index.js";

describe("identifierTextProblem", () => {
  it.each([
    ["U+200B ZERO WIDTH SPACE (at character 2)", "a\u200bb"],
    ["U+202E RIGHT-TO-LEFT OVERRIDE (at character 4)", "モデル\u202e"],
    ["U+0007 BELL (at character 5)", "ring\u0007"],
    ["U+2028 LINE SEPARATOR (at character 4)", "one\u2028two"],
    ["U+200F RIGHT-TO-LEFT MARK (at character 1)", "\u200fkey"],
    ["U+061C ARABIC LETTER MARK (at character 2)", "a\u061cb"],
    ["U+2066 LEFT-TO-RIGHT ISOLATE (at character 2)", "x\u2066y\u2069"],
    ["U+00AD SOFT HYPHEN (at character 5)", "soft\u00adhyphen"],
    ["U+FEFF ZERO WIDTH NO-BREAK SPACE (at character 1)", "\ufeffbom"],
    ["U+180E MONGOLIAN VOWEL SEPARATOR (at character 2)", "m\u180ev"],
    ["U+007F DELETE (at character 4)", "del\u007f"],
    ["U+0085 NEXT LINE (at character 3)", "c1\u0085"],
    ["U+009B <C1 control> (at character 3)", "c1\u009b"],
    ["U+2060 WORD JOINER (at character 2)", "w\u2060j"],
    ["U+0009 CHARACTER TABULATION (at character 4)", "tab\there"],
  ])("refuses %s", (named, text) => {
    expect(identifierTextProblem(text)).toBe(`must not contain ${named}: control, bidi and invisible characters are refused in keys, labels and tool names`);
  });

  it("counts characters, not UTF-16 units, in where it says the character is", () => {
    expect(identifierTextProblem("😀\u200b")).toContain("(at character 2)");
  });

  it("takes emoji with their sequences' selectors and joiners, and refuses those anywhere else", () => {
    for (const text of ["💻-agent", "⚠\ufe0f Edge cases", "❤\ufe0f", "👩\u200d💻", "👩🏽\u200d💻 devs", "1\ufe0f\u20e3 first"]) expect(identifierTextProblem(text)).toBeNull();
    expect(identifierTextProblem("a\u200db")).toBe("must not contain U+200D ZERO WIDTH JOINER (at character 2): control, bidi and invisible characters are refused in keys, labels and tool names");
    expect(identifierTextProblem("v1\ufe0f2")).toContain("U+FE0F <variation selector> (at character 3)");
    expect(identifierTextProblem("💻\u200d")).toContain("U+200D ZERO WIDTH JOINER (at character 2)");
    expect(identifierTextProblem("⚠\ufe0f\u200b")).toContain("U+200B ZERO WIDTH SPACE (at character 3)");
  });

  it("refuses text not in NFC, naming the composed form, and takes it composed", () => {
    expect(identifierTextProblem("cafe\u0301")).toBe('is not in Unicode NFC (a character is written decomposed): write "caf\u00e9" instead');
    expect(identifierTextProblem("caf\u00e9")).toBeNull();
  });

  it("takes ordinary keys and labels in any script", () => {
    for (const text of ["billing_1", "anthropic/claude-sonnet-5", "qwen3:8b", "モデル", "а", "σενάριο", "a b"]) expect(identifierTextProblem(text)).toBeNull();
  });

  it("names a character by code point and name, and quotes text with the refused ones escaped", () => {
    expect(characterName(0x200b)).toBe("U+200B ZERO WIDTH SPACE");
    expect(visibleText("モデル\u202e")).toBe('"モデル\\u{202E}"');
  });
});

describe("look-alikes", () => {
  it("folds Cyrillic and Greek letters drawn like Latin ones, and fullwidth forms", () => {
    expect(skeletonOf("g\u0440t-5-mini")).toBe("gpt-5-mini");
    expect(skeletonOf("\u0430")).toBe("a");
    expect(skeletonOf("\u03bf3")).toBe("o3");
    expect(skeletonOf("\uff47pt")).toBe("gpt");
    expect(skeletonOf("❤\ufe0f")).toBe(skeletonOf("❤"));
  });

  it("finds the first two names of a list that read alike, and where they differ", () => {
    expect(lookAlikePair(["gpt-5-mini", "claude", "g\u0440t-5-mini"])).toEqual({
      first: "gpt-5-mini",
      second: "g\u0440t-5-mini",
      difference: "character 2 is U+0070 in one and U+0440 in the other",
    });
    expect(lookAlikePair(["a", "a", "b"])).toBeNull();
    expect(lookAlikePair(["model1", "modell", "modeI1"])).toBeNull();
  });
});
