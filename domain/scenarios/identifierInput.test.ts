// Every door a scenario key, group or tool name comes in by refuses one a reader cannot tell
// from another (support/identifierText), naming where, before anything is built.
import { describe, expect, it } from "vitest";
import { Catalog, InvalidDocument, ParseError, Scenario, ScenarioParser, Suite } from "./index.js";

const ZWSP = "U+200B ZERO WIDTH SPACE";
const catalogWith = (scenarios: string, productKey = "triage") =>
  `catalog: desk\nproducts:\n  - key: ${productKey}\n    sets:\n      - key: smoke\n        scenarios:\n${scenarios}`;
const scenario = (key: string, extra = "") => `          - key: ${JSON.stringify(key)}\n            prompt: Where is my order?\n${extra}`;

describe("catalog YAML", () => {
  it.each([
    ["U+0007 BELL (at character 5)", "ring\u0007"],
    ["U+202E RIGHT-TO-LEFT OVERRIDE (at character 5)", "left\u202eright"],
    ["U+2028 LINE SEPARATOR (at character 4)", "one\u2028two"],
    [`${ZWSP} (at character 2)`, "a\u200bb"],
    // The title names the character, not the key: a title holding it would hide or reverse itself.
  ])("refuses a scenario key holding %s, naming its path and the character", (named, key) => {
    expect(() => Catalog.parse(catalogWith(scenario(key)))).toThrow(
      new InvalidDocument(`must not contain ${named}: control, bidi and invisible characters are refused in keys, labels and tool names`, { path: "products[0].sets[0].scenarios[0].key" }),
    );
  });

  it("refuses a product key and an expected tool so written", () => {
    expect(() => Catalog.parse(catalogWith(scenario("a"), '"tri\\u200bage"'))).toThrow(/^products\[0\]\.key: must not contain U\+200B ZERO WIDTH SPACE \(at character 4\)/);
    expect(() => Catalog.parse(catalogWith(scenario("a", "            tools: [\"look\\u202eup\"]\n")))).toThrow(/^products\[0\]\.sets\[0\]\.scenarios\[0\]\.tools\[0\]: must not contain U\+202E/);
  });

  it("refuses a key not in NFC, naming the composed form", () => {
    expect(() => Catalog.parse(catalogWith(scenario("cafe\u0301")))).toThrow('products[0].sets[0].scenarios[0].key: is not in Unicode NFC (a character is written decomposed): write "caf\u00e9" instead');
  });

  it("refuses two keys of one set that read alike, naming both by code point", () => {
    expect(() => Catalog.parse(catalogWith(scenario("a") + scenario("\u0430")))).toThrow(
      'products[0].sets[0].scenarios[1].key: scenario keys "a" and "\u0430" read alike (character 1 is U+0061 in one and U+0430 in the other): rename one',
    );
  });
});

describe("suites and pasted lists", () => {
  it("refuses a suite's scenario key and group key so written", () => {
    expect(() => Suite.fromDocuments({ groups: [{ key: "g", scenarios: [{ key: "a\u200bb", prompt: "p" }] }] })).toThrow(`groups[0].scenarios[0].key: must not contain ${ZWSP}`);
    expect(() => Suite.fromDocuments({ groups: [{ key: "g\u2066", scenarios: [{ key: "a", prompt: "p" }] }] })).toThrow("groups[0].key: must not contain U+2066 LEFT-TO-RIGHT ISOLATE");
    expect(() => Suite.fromDocuments({ groups: [{ key: "g", scenarios: [{ key: "ab", prompt: "p" }, { key: "\u0430b", prompt: "q" }] }] })).toThrow("groups[0].scenarios[1].key: scenario keys");
  });

  it("refuses a pasted line's key, group or tool, with its line", () => {
    const paste = (text: string) => () => ScenarioParser.parse(text);
    expect(paste("Where is my order?\nRefund please | key: a\u200bb")).toThrow(new ParseError(`key: must not contain ${ZWSP} (at character 2): control, bidi and invisible characters are refused in keys, labels and tool names`, { line: 2 }));
    expect(paste("Refund please | group: bill\u00ading")).toThrow("line 1: group: must not contain U+00AD SOFT HYPHEN");
    expect(paste("Refund please | tools: look\u202eup")).toThrow("line 1: tools: must not contain U+202E");
    expect(paste('[{"prompt": "p", "key": "a\u200bb"}]')).toThrow(`[0].key: must not contain ${ZWSP}`);
  });

  it("takes a pasted heading with an emoji as keyboards type it (⚠️: U+26A0 U+FE0F) as its group", () => {
    const [scenario] = ScenarioParser.scenarios("## \u26a0\ufe0f Edge cases\nRefund an order twice");
    expect(scenario.group).toBe("\u26a0\ufe0f Edge cases");
  });
});

describe("new Scenario", () => {
  it("refuses a key, group or expected tool so written, naming the field", () => {
    expect(() => new Scenario({ key: "a\u200bb", prompt: "p" })).toThrow(`key: must not contain ${ZWSP}`);
    expect(() => new Scenario({ key: "a", prompt: "p", group: "g\u0007" })).toThrow("group: must not contain U+0007 BELL");
    expect(() => new Scenario({ key: "a", prompt: "p", expectedTools: ["ok", "t\u200f"] })).toThrow("expected_tools[1]: must not contain U+200F RIGHT-TO-LEFT MARK");
    expect(() => new Scenario({ key: "cafe\u0301", prompt: "p" })).toThrow(InvalidDocument);
  });

  it("reads a recorded scenario back as it was stored (fromJSON)", () => {
    const stored = { key: "cafe\u0301\u200b", prompt: "p", expected_tools: [], expected_patterns: [], forbidden_patterns: [], production_only: false, tags: [], params: {} };
    expect(Scenario.fromJSON(stored).key).toBe("cafe\u0301\u200b");
  });
});

describe("a catalog set's judge model", () => {
  it("is refused as a model name is, with its path", () => {
    const yaml = `catalog: desk\nproducts:\n  - key: triage\n    sets:\n      - key: smoke\n        judge: { model: "gpt\\u200b-5" }\n        scenarios:\n${scenario("a")}`;
    expect(() => Catalog.parse(yaml)).toThrow("products[0].sets[0].judge.model: must not contain U+200B ZERO WIDTH SPACE (at character 4)");
  });
});
