import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturePath } from "./fixtures.testing.js";
import { InvalidDocument, NotFound, Suite } from "./index.js";

describe("Suite.load", () => {
  it("layers later files over earlier ones by key", () => {
    const suite = Suite.load(fixturePath("suites/support_bot.yml"), fixturePath("suites/support_bot.acme.yml"));
    expect(suite.name).toBe("support_bot");
    expect(suite.description).toBe("Acme's weekly support questions");
    expect(suite.groupKeys).toEqual(["orders", "account", "returns"]);
    expect(suite.groups[0].name).toBe("Orders and deliveries");
    expect(suite.allScenarios().map((scenario) => [scenario.key, scenario.position])).toEqual([
      ["orders_1", 0],
      ["orders_2", 1],
      ["orders_3", 2],
      ["account_1", 0],
      ["account_2", 1],
      ["returns_1", 0],
    ]);
  });

  it("replaces a same-key scenario whole, in place", () => {
    const suite = Suite.load(fixturePath("suites/support_bot.yml"), fixturePath("suites/support_bot.acme.yml"));
    const order = suite.find("orders_1");
    expect(order.prompt).toBe("Where is my Acme order 4821?");
    expect(order.expectedPatterns).toEqual(["4821"]);
    expect(order.groupName).toBe("Orders and deliveries");
  });

  it("skips missing files and names the suite after the first existing one", () => {
    const suite = Suite.load("/nowhere/a.yml", fixturePath("suites/triage_agent.yml"));
    expect(suite.name).toBe("triage_agent");
    expect(() => Suite.load("/nowhere/a.yml", "/nowhere/b.yml")).toThrow(new NotFound("no evaluation suite at /nowhere/a.yml, /nowhere/b.yml"));
  });

  it("names the file in a load error", () => {
    expect(() => Suite.load(fixturePath("invalid/repeated_key.yml"))).toThrow(/repeated_key\.yml, line 10: invalid evaluation suite YAML: repeated key/);
  });
});

describe("Suite.fromDocuments", () => {
  const base = { suite: "s", groups: [{ key: "g", name: "G", scenarios: [{ key: "a", prompt: "A" }, { key: "b", prompt: "B" }] }] };

  it("refuses a recursive alias in YAML text, with its line", () => {
    expect(() => Suite.fromDocuments("suite: s\nowner: &o [*o]\ngroups: []")).toThrow("line 2: invalid evaluation suite YAML: alias *o is inside the node its anchor &o names");
  });

  it("takes YAML text and objects, the last non-null suite name winning", () => {
    const suite = Suite.fromDocuments(base, "suite: renamed\ngroups:\n  - key: g\n    scenarios:\n      - key: b\n        prompt: B2\n      - key: c\n        prompt: C");
    expect(suite.name).toBe("renamed");
    expect(suite.allScenarios().map((scenario) => `${scenario.key}:${scenario.prompt}`)).toEqual(["a:A", "b:B2", "c:C"]);
  });

  it("merges two keyless groups and keeps a present name or description", () => {
    const suite = Suite.fromDocuments({ groups: [{ name: "One", scenarios: [{ prompt: "x" }] }] }, { groups: [{ description: "d", scenarios: [{ prompt: "y" }] }] });
    expect(suite.groups).toHaveLength(1);
    expect(suite.groups[0]).toMatchObject({ key: null, name: "One", description: "d" });
    expect(suite.allScenarios().map((scenario) => scenario.prompt)).toEqual(["x", "y"]);
  });

  it("filters by groups, then keys, then the production flag", () => {
    const suite = Suite.load(fixturePath("suites/support_bot.yml"));
    expect(suite.scenarios({ groups: ["orders"], includeProductionOnly: false }).map((scenario) => scenario.key)).toEqual(["orders_1"]);
    expect(suite.scenarios({ keys: ["account_2", "orders_2"] }).map((scenario) => scenario.key)).toEqual(["orders_2", "account_2"]);
    expect(suite.scenarios()).toHaveLength(4);
  });

  it("find raises NotFound naming the suite", () => {
    expect(() => Suite.fromDocuments(base).find("zzz")).toThrow('no scenario "zzz" in suite s');
  });

  it("a scenario's own group attribute wins over the group key", () => {
    const suite = Suite.fromDocuments({ groups: [{ key: "g", scenarios: [{ prompt: "x", group: "other" }] }] });
    expect(suite.allScenarios()[0].group).toBe("other");
  });

  it("reads an empty document as {}", () => {
    expect(Suite.fromDocuments("", base).allScenarios()).toHaveLength(2);
  });

  it("refuses to load only empty files, naming them, and reads one layered over a suite as {}", () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-suite-"));
    try {
      const empty = join(dir, "empty.yml");
      writeFileSync(empty, "# no groups yet\n");
      expect(() => Suite.load(empty)).toThrowError(InvalidDocument);
      expect(() => Suite.load(empty)).toThrow(`${empty}: document is empty (nothing but blank lines or comments): there is no suite in it`);
      expect(Suite.load(fixturePath("suites/support_bot.yml"), empty).allScenarios()).toHaveLength(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["a non-mapping", "[1, 2]", "evaluation suite must contain a groups array"],
    ["groups that are not a list", "groups: {a: 1}", "groups: evaluation suite must contain a groups array"],
    ["a scenario with no prompt", "groups:\n  - scenarios:\n      - key: a", "groups[0].scenarios[0].prompt: each evaluation scenario must contain a prompt"],
    ["params that are not a mapping", "groups:\n  - scenarios:\n      - {prompt: a, params: [1]}", "groups[0].scenarios[0].params: params must be a mapping"],
  ])("rejects %s with InvalidDocument", (_name, text, message) => {
    expect(() => Suite.fromDocuments(text)).toThrowError(InvalidDocument);
    expect(() => Suite.fromDocuments(text)).toThrow(message);
  });

  it("names the document of several that is wrong", () => {
    const bad = "groups:\n  - key: g\n    scenarios:\n      - key: a\n        prompt: A\n        contains: ['/refund(ed/i']";
    expect(() => Suite.fromDocuments(base, bad)).toThrow(
      "documents[1], groups[0].scenarios[0].contains[0]: /refund(ed/i is not a valid regular expression",
    );
  });
});
