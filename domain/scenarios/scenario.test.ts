import { describe, expect, it } from "vitest";
import { InvalidDocument, Scenario } from "./index.js";

describe("Scenario.fromHash", () => {
  it("reads nested expectations over top-level ones and strips the prompt", () => {
    const scenario = Scenario.fromHash({ key: 7, prompt: "  Where?  ", expect: { tools: "lookup" }, tools: ["other"], contains: "30" });
    expect(scenario.key).toBe("7");
    expect(scenario.prompt).toBe("Where?");
    expect(scenario.expectedTools).toEqual(["lookup"]);
    expect(scenario.expectedPatterns).toEqual(["30"]);
  });

  it("prefers `expectations` to `expect` and drops blank list items", () => {
    const scenario = Scenario.fromHash({ prompt: "p", expectations: { contains: ["a", " ", null] }, expect: { contains: ["b"] } });
    expect(scenario.expectedPatterns).toEqual(["a"]);
  });

  it("falls back to the given group and name, and keys a missing key as an empty string", () => {
    const scenario = Scenario.fromHash({ prompt: "p" }, { group: "orders", groupName: "Orders" });
    expect([scenario.key, scenario.group, scenario.groupName]).toEqual(["", "orders", "Orders"]);
    expect(Scenario.fromHash({ prompt: "p", group: "own" }, { group: "orders" }).group).toBe("own");
  });

  it("is production-only only for boolean true; notes use presence", () => {
    expect(Scenario.fromHash({ prompt: "p", production_only: "true" }).productionOnly).toBe(false);
    expect(Scenario.fromHash({ prompt: "p", production_only: true }).productionOnly).toBe(true);
    expect(Scenario.fromHash({ prompt: "p", notes: "  " }).notes).toBeNull();
  });

  it("reads tags and params", () => {
    const scenario = Scenario.fromHash({ prompt: "p", tags: ["billing", 2], params: { locale: "en" } });
    expect(scenario.tags).toEqual(["billing", "2"]);
    expect(scenario.params).toEqual({ locale: "en" });
  });

  it("rejects a missing prompt with InvalidDocument", () => {
    expect(() => Scenario.fromHash({ key: "k" })).toThrowError(InvalidDocument);
    expect(() => Scenario.fromHash({ key: "k" })).toThrow("scenario.prompt: each evaluation scenario must contain a prompt");
  });

  it("refuses a key inside the expectations it does not read, and ignores one beside them", () => {
    expect(() => Scenario.fromHash({ prompt: "p", expect: { tool: "t" } })).toThrow(
      new InvalidDocument("unknown key; a scenario's expectations take tools, contains and not_contains (did you mean tools?)", { path: "scenario.expect.tool" }),
    );
    expect(Scenario.fromHash({ prompt: "p", contain: "x", expect: { contains: "y" } }).expectedPatterns).toEqual(["y"]);
  });
});

describe("Scenario serialization", () => {
  const scenario = new Scenario({ key: "k", prompt: "p", group: "g", expectedTools: ["t"], forbiddenPatterns: ["x"], position: 3 });

  it("expectations lists tools, contains, not_contains in order without empty ones", () => {
    expect(scenario.expectations).toEqual({ tools: ["t"], not_contains: ["x"] });
    expect(Object.keys(new Scenario({ key: "k", prompt: "p", expectedTools: ["t"], expectedPatterns: ["c"], forbiddenPatterns: ["n"] }).expectations)).toEqual(["tools", "contains", "not_contains"]);
  });

  it("toJSON keeps snake_case keys and drops null fields", () => {
    expect(scenario.toJSON()).toEqual({
      key: "k",
      prompt: "p",
      group: "g",
      expected_tools: ["t"],
      expected_patterns: [],
      forbidden_patterns: ["x"],
      production_only: false,
      position: 3,
      tags: [],
      params: {},
    });
  });

  it("fromJSON rebuilds an equal scenario", () => {
    const full = new Scenario({ key: "k", prompt: "p", groupName: "G", notes: "n", productionOnly: true, tags: ["t"], params: { a: 1 } });
    expect(Scenario.fromJSON(full.toJSON()).toJSON()).toEqual(full.toJSON());
    expect(Scenario.fromJSON(JSON.parse(JSON.stringify(scenario))).expectations).toEqual(scenario.expectations);
  });
});
