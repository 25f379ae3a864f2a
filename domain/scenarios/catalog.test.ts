import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { fixture, fixturePath } from "./fixtures.testing.js";
import { Catalog, InvalidDocument, NotFound, Suite } from "./index.js";

const supportDesk = () => Catalog.load(fixturePath("catalogs/support_desk.yml"));
const layered = () => Catalog.load(fixturePath("catalogs/support_desk.yml"), fixturePath("catalogs/support_desk.local.yml"));

describe("Catalog reading", () => {
  it("reads the guide's catalog: products, sets, scenarios", () => {
    const catalog = supportDesk();
    expect(catalog.key).toBe("support_desk");
    expect(catalog.name).toBe("Support Desk");
    expect(catalog.products.map((product) => product.key)).toEqual(["triage", "billing"]);
    expect(catalog.set("triage", "smoke").scenarios).toHaveLength(2);
    expect(catalog.scenarioCount).toBe(5);
  });

  it("keeps unknown keys as metadata on the catalog, product and set", () => {
    const catalog = supportDesk();
    expect(catalog.metadata).toEqual({ owner_team: "customer-experience", repository: "github.com/acme/support-agents" });
    expect(catalog.product("triage").metadata).toEqual({ escalation_channel: "#support-escalations" });
  });

  it("builds scenarios grouped by set key and set name, positioned within the set", () => {
    const [first, second] = supportDesk().set("triage", "smoke").scenarios;
    expect(first).toMatchObject({ key: "refund_request", group: "smoke", groupName: "Smoke", position: 0, tags: ["billing"], params: { locale: "en" } });
    expect(first.expectedTools).toEqual(["lookup_order"]);
    expect(second.position).toBe(1);
    expect(supportDesk().set("billing", "smoke").name).toBe("smoke");
  });

  it("reads a set's judge and criteria, {} and [] when absent", () => {
    const billing = Catalog.load(fixturePath("catalogs/billing_agent.yml"));
    expect(billing.set("billing", "invoices").judge).toEqual({ kind: "llm", model: "gpt-5-mini" });
    expect(billing.set("billing", "invoices").criteria.map((criterion) => criterion.type)).toEqual(["response_present", "token_budget"]);
    expect(billing.set("billing", "refunds").judge).toEqual({});
    expect(billing.set("billing", "refunds").criteria).toEqual([]);
  });

  it("narrows scenarios by product, set, keys and the production flag", () => {
    const catalog = supportDesk();
    expect(catalog.scenarios({ product: "triage", includeProductionOnly: false }).map((s) => s.key)).toEqual(["refund_request", "password_reset"]);
    expect(catalog.scenarios({ product: "triage", set: "production" }).map((s) => s.key)).toEqual(["open_tickets"]);
    expect(catalog.scenarios({ set: "smoke" }).map((s) => s.key)).toEqual(["refund_request", "password_reset", "invoice_copy", "vat_number"]);
    expect(catalog.scenarios({ keys: ["vat_number"] })).toHaveLength(1);
    expect(catalog.allScenarios()).toHaveLength(5);
  });

  it("raises NotFound naming the product, set and catalog", () => {
    expect(() => supportDesk().product("sales")).toThrow(new NotFound('no product "sales" in catalog support_desk'));
    expect(() => supportDesk().set("triage", "nightly")).toThrow('no set "nightly" in product "triage" of catalog support_desk');
    expect(() => Catalog.load("/nowhere.yml")).toThrow("no scenario catalog at /nowhere.yml");
  });

  it("ignores scenario keys the format does not define", () => {
    const catalog = new Catalog({ catalog: "c", products: [{ key: "p", sets: [{ key: "s", scenarios: [{ key: "k", prompt: "P", owner: "me" }] }] }] });
    expect(catalog.toYaml()).not.toContain("owner");
  });

  it("refuses a key inside expect it does not read, suggesting none when no key is close", () => {
    const doc = { catalog: "c", products: [{ key: "p", sets: [{ key: "s", scenarios: [{ key: "k", prompt: "P", expect: { contains: ["x"], must_say: "y" } }] }] }] };
    expect(() => new Catalog(doc)).toThrow(
      new InvalidDocument("unknown key; a scenario's expectations take tools, contains and not_contains", { path: "products[0].sets[0].scenarios[0].expect.must_say" }),
    );
  });
});

describe("YAML as Psych reads it", () => {
  const doc = [
    "catalog: c",
    "flag: on",
    "short: n",
    "when: 2026-01-01",
    "mode: 0777",
    "base: &base {locale: en}",
    "products:",
    "  - key: p",
    "    sets:",
    "      - key: s",
    "        scenarios:",
    "          - key: k",
    "            prompt: 42",
    "            production_only: yes",
    "            params:",
    "              <<: *base",
    "              plan: annual",
  ].join("\n");

  it("reads YAML 1.1 booleans, octals and merge keys; y/n and dates stay text", () => {
    const catalog = Catalog.parse(doc);
    expect(catalog.metadata).toEqual({ flag: true, short: "n", when: "2026-01-01", mode: 511, base: { locale: "en" } });
    const [scenario] = catalog.set("p", "s").scenarios;
    expect(scenario).toMatchObject({ prompt: "42", productionOnly: true, params: { locale: "en", plan: "annual" } });
  });

  it("writes text that reads back as text", () => {
    const catalog = Catalog.parse(doc);
    expect(catalog.toYaml()).toContain("prompt: '42'");
    expect(catalog.toYaml()).toContain("short: \"n\"");
    expect(catalog.toYaml()).toContain("when: '2026-01-01'");
    expect(Catalog.parse(catalog.toYaml()).toH()).toEqual(catalog.toH());
  });

  it("refuses a product agent over 255 characters, naming its path (its sets' evaluations could not be created for it)", () => {
    const withAgent = (agent: string) => `catalog: c\nproducts:\n  - key: p\n    agent: ${agent}\n    sets:\n      - key: s\n        scenarios:\n          - {key: a, prompt: hi}\n`;
    expect(() => Catalog.parse(withAgent("A".repeat(256)))).toThrow(/products\[0\]\.agent: must be at most 255 characters \(it has 256\)/);
    expect(Catalog.parse(withAgent("A".repeat(255))).products[0].agent).toBe("A".repeat(255));
  });

  it("keeps as text a plain scalar YAML 1.1's number patterns take but that holds no number (a key `e2` read as NaN)", () => {
    const doc = [
      "catalog: c",
      "odd: [e5, E10, e-5, +e5, .e5, ., -., 0x_, 0b_, 0_]",
      "numbers: [1e3, 1.5e3, .5, 0x1F, 0777, 1_000, -.inf]",
      "not_a_number: .nan",
      "products:",
      "  - key: p",
      "    sets:",
      "      - key: s",
      "        scenarios:",
      "          - key: e2",
      "            prompt: E10",
      "            expect:",
      "              contains: [e404]",
    ].join("\n");
    const catalog = Catalog.parse(doc);
    expect(catalog.metadata.odd).toEqual(["e5", "E10", "e-5", "+e5", ".e5", ".", "-.", "0x_", "0b_", "0_"]);
    expect(catalog.metadata.numbers).toEqual([1000, 1500, 0.5, 31, 511, 1000, -Infinity]);
    expect(catalog.metadata.not_a_number).toBeNaN();
    const [scenario] = catalog.set("p", "s").scenarios;
    expect(scenario).toMatchObject({ key: "e2", prompt: "E10", expectedPatterns: ["e404"] });
    // Written back, they still read as text.
    expect(Catalog.parse(catalog.toYaml()).toH()).toEqual(catalog.toH());
  });

  it("refuses class tags such as !!set", () => {
    expect(() => Catalog.parse("catalog: c\nteams: !!set {a: null}")).toThrow(/line 2: the catalog is not valid YAML: /);
  });

  it("refuses an integer no number holds exactly, naming its line, path and the fix (it was silently rounded)", () => {
    const doc = "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        scenarios:\n          - key: a\n            prompt: hi\n            params: {user_id: 1234567890123456789}\n";
    const rule = 'the integer 1234567890123456789 is beyond ±9007199254740991, past which numbers are not exact, so it would not be kept as written; quote it ("1234567890123456789") to keep it as text';
    expect(() => Catalog.parse(doc)).toThrow(new InvalidDocument(rule, { line: 9, path: "products[0].sets[0].scenarios[0].params.user_id" }));
    expect(() => Catalog.parse("catalog: c\nids: [1, -9007199254740993]")).toThrow(/^line 2, ids\[1\]: the integer -9007199254740993 is beyond/);
    // The largest exact integer, and the same digits quoted, are kept as written.
    const kept = Catalog.parse(`catalog: c\nmax: ${Number.MAX_SAFE_INTEGER}\nquoted: "1234567890123456789"\nhex: 0x1F`);
    expect(kept.metadata).toEqual({ max: Number.MAX_SAFE_INTEGER, quoted: "1234567890123456789", hex: 31 });
  });

  it("refuses a second document in the text, saying one is expected (it gave the yaml library's advice)", () => {
    expect(() => Catalog.parse("catalog: m1\nproducts: []\n---\ncatalog: m2\n")).toThrow(
      new InvalidDocument("the catalog is not valid YAML: one YAML document is expected, and a second one starts here (after a `---` or `...` line)", { line: 3 }),
    );
  });

  it("refuses an alias inside the node its anchor names (a value that would contain itself), with its line", () => {
    const rule = (name: string) => `the catalog is not valid YAML: alias *${name} is inside the node its anchor &${name} names, so the value would contain itself`;
    expect(() => Catalog.parse("catalog: c8\na: &a [*a]\n")).toThrow(new InvalidDocument(rule("a"), { line: 2 }));
    const inSet = "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        owner: &o\n          team: [*o]\n        scenarios:\n          - key: a\n            prompt: hi\n";
    expect(() => Catalog.parse(inSet)).toThrow(new InvalidDocument(rule("o"), { line: 7 }));
    expect(() => Catalog.parse("catalog: c\nbase: &b\n  <<: *b\n")).toThrow(new InvalidDocument(rule("b"), { line: 3 }));
    // An alias of a finished node, even one re-anchored with the same name later, is a copy.
    expect(Catalog.parse("catalog: c\nx: &a [1]\ny: [*a, &a [2], *a]\n").toH()).toMatchObject({ x: [1], y: [[1], [2], [2]] });
  });

  it("refuses a repeated key in any mapping with the first repeat's line: `1` and '1' are one key, as are two merges", () => {
    const repeated = (line: number) => new InvalidDocument("the catalog is not valid YAML: repeated key in one mapping", { line });
    expect(() => Catalog.parse("catalog: c\nmeta:\n  a: 1\n  b: 2\n  a: 3\n")).toThrow(repeated(5));
    expect(() => Catalog.parse("catalog: c\nmeta: {a: 1,\n  b: 2, a: 3}\n")).toThrow(repeated(3));
    expect(() => Catalog.parse("catalog: c\nmeta:\n  1: x\n  '1': y\n")).toThrow(repeated(4));
    expect(() => Catalog.parse("catalog: c\nx: &x {a: 1}\nmeta:\n  <<: *x\n  <<: *x\n")).toThrow(repeated(5));
    // The first repeat in the document, whichever mapping holds it.
    expect(() => Catalog.parse("catalog: c\nm1:\n  deep: {a: 1, a: 2}\nm2:\n  b: 1\n  b: 2\ncatalog: d\n")).toThrow(repeated(3));
    // Before a later syntax error and before an unknown tag, after an earlier syntax error, as the yaml library reported them.
    expect(() => Catalog.parse("catalog: c\na: 1\na: 2\nb: [\n")).toThrow(repeated(3));
    expect(() => Catalog.parse("catalog: c\nx: !!nope 1\na: 1\na: 2\n")).toThrow(repeated(4));
    expect(() => Catalog.parse("catalog: c\nb: [1, 2\na: 1\na: 2\n")).toThrow(/^line 3: the catalog is not valid YAML: Flow sequence/);
    // The same key in two mappings is no repeat.
    expect(Catalog.parse("catalog: c\nm1: {a: 1}\nm2: {a: 2}\n").metadata).toEqual({ m1: { a: 1 }, m2: { a: 2 } });
  });

  it("reads 80,000 keys in one mapping quickly (each key was compared with every earlier one: 58 s, blocking the process)", { timeout: 120_000 }, () => {
    const keys = 80_000;
    const block = "catalog: c\nmetadata:\n" + Array.from({ length: keys }, (_, i) => `  k${i}: ${i}`).join("\n") + "\nproducts: []\n";
    const flow = "catalog: c\nmetadata: {" + Array.from({ length: keys }, (_, i) => `k${i}: ${i}`).join(", ") + "}\nproducts: []\n";
    for (const text of [block, flow]) {
      const started = Date.now();
      expect(Object.keys(Catalog.parse(text).metadata.metadata as object)).toHaveLength(keys);
      expect(Date.now() - started).toBeLessThan(15_000);
    }
    // A repeat is still found, at its line.
    expect(() => Catalog.parse(block.replace(/\nproducts/, "\n  k0: again\nproducts"))).toThrow(
      new InvalidDocument("the catalog is not valid YAML: repeated key in one mapping", { line: keys + 3 }),
    );
  });

  it("refuses aliases that repeat more text than a document may hold, with the line, quickly (99 aliases of 1.9 MB took 1.2 GB and 4 s)", () => {
    const scenarios = (alias: string, count: number) => Array.from({ length: count }, (_, i) => `          - {key: k${i}, prompt: ${alias}}\n`).join("");
    const head = (big: string, list = "") => `catalog: c\nbig: &b "${big}"\n${list}products:\n  - key: p\n    agent: A\n    sets:\n      - key: s\n        scenarios:\n`;
    const started = Date.now();
    expect(() => Catalog.parse(head("x".repeat(1_900_000)) + scenarios("*b", 99))).toThrow(
      new InvalidDocument("the catalog is not valid YAML: aliases up to here repeat 3,800,000 characters, more than the document limit of 2,097,152", { line: 10 }),
    );
    // An anchor holding aliases stands for all they repeat: 2 x 300,000 characters each time.
    expect(() => Catalog.parse(head("x".repeat(300_000), "list: &l [*b, *b]\n") + scenarios("*l", 3))).toThrow(
      new InvalidDocument("the catalog is not valid YAML: aliases up to here repeat 2,400,000 characters, more than the document limit of 2,097,152", { line: 12 }),
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    // Within the limit, aliases still read as copies.
    expect(Catalog.parse(head("x".repeat(1_000)) + scenarios("*b", 99)).scenarioCount).toBe(99);
  });
});

describe("layering", () => {
  it("layers products, sets and scenarios by key", () => {
    const catalog = layered();
    expect(catalog.description).toBe("Support agents, with the Acme deployment's additions");
    expect(catalog.name).toBe("Support Desk");
    expect(catalog.products.map((product) => product.key)).toEqual(["triage", "billing", "onboarding"]);
    expect(catalog.product("triage").agent).toBe("TriageAgentV2");
    expect(catalog.product("triage").name).toBe("Triage agent");
    expect(catalog.product("triage").sets.map((set) => set.key)).toEqual(["smoke", "production", "escalations"]);
    expect(catalog.metadata).toMatchObject({ owner_team: "customer-experience", on_call: "ops-rotation" });
  });

  it("replaces a same-key scenario whole and in place, appending new keys", () => {
    const smoke = layered().set("triage", "smoke");
    expect(smoke.scenarios.map((scenario) => scenario.key)).toEqual(["refund_request", "password_reset", "shipping_delay"]);
    const refund = smoke.scenarios[0];
    expect(refund.prompt).toBe("A customer asks for a refund on order 1042, bought 40 days ago.");
    expect(refund.tags).toEqual([]);
    expect(refund.notes).toBeNull();
    expect(smoke.judge).toEqual({ kind: "llm", model: "claude-sonnet-5" });
    expect(smoke.name).toBe("Smoke");
  });

  it("a later catalog key wins; name falls back to the key", () => {
    const catalog = new Catalog("catalog: a\nproducts: []", { catalog: "b" });
    expect([catalog.key, catalog.name]).toEqual(["b", "b"]);
  });

  it("loads a suite document as a one-product catalog whose sets are its groups", () => {
    const catalog = Catalog.load(fixturePath("suites/support_bot.yml"));
    expect(catalog.key).toBe("support_bot");
    expect(catalog.product("support_bot").description).toBe("The questions the support team fields every week");
    expect(catalog.product("support_bot").sets.map((set) => [set.key, set.name])).toEqual([["orders", "Orders"], ["account", "Account"]]);
    expect(catalog.scenarios({ includeProductionOnly: false })).toHaveLength(3);
  });

  it("merges two sets with one key in the same new product, as two documents would (the second was unreachable)", () => {
    const doc = [
      "catalog: dup",
      "products:",
      "  - key: p",
      "    sets:",
      "      - key: smoke",
      "        scenarios: [{key: a, prompt: one}]",
      "      - key: smoke",
      "        name: Smoke (local overrides)",
      "        scenarios: [{key: a, prompt: two}, {key: b, prompt: three}]",
    ].join("\n");
    const catalog = Catalog.parse(doc);
    expect(catalog.product("p").sets.map((set) => set.key)).toEqual(["smoke"]);
    const smoke = catalog.set("p", "smoke");
    expect(smoke.name).toBe("Smoke (local overrides)");
    expect(smoke.scenarios.map((s) => `${s.key}:${s.prompt}`)).toEqual(["a:two", "b:three"]);
    expect(catalog.scenarioCount).toBe(2);
  });

  it("merges a suite's repeated group key into one set, as Suite does", () => {
    const doc = "suite: su\ngroups:\n  - key: g\n    scenarios: [{key: a, prompt: one}]\n  - key: g\n    name: G\n    scenarios: [{key: a, prompt: two}, {key: b, prompt: three}]\n";
    const catalog = Catalog.parse(doc);
    expect(catalog.product("su").sets.map((set) => [set.key, set.name])).toEqual([["g", "G"]]);
    expect(catalog.set("su", "g").scenarios.map((s) => `${s.key}:${s.prompt}`)).toEqual(["a:two", "b:three"]);
  });

  it("carries a suite's name and description to the catalog, as well as to its product", () => {
    const catalog = Catalog.parse("suite: support_bot\nname: Support bot\ndescription: The questions the support team fields every week\ngroups:\n  - key: orders\n    scenarios: [{key: o1, prompt: Where is my order?}]\n");
    expect([catalog.key, catalog.name, catalog.description]).toEqual(["support_bot", "Support bot", "The questions the support team fields every week"]);
    expect([catalog.product("support_bot").name, catalog.product("support_bot").description]).toEqual(["Support bot", "The questions the support team fields every week"]);
    expect(catalog.toYaml()).toMatch(/^---\ncatalog: support_bot\nname: Support bot\ndescription: The questions the support team fields every week\n/);
    // Without a name, the catalog is named by its key, as any catalog is.
    expect(Catalog.parse("suite: s\ngroups: []").name).toBe("s");
  });

  it("names a keyless suite from the name option, else `default`", () => {
    const doc = { groups: [{ key: "g", scenarios: [{ key: "k", prompt: "P" }] }] };
    expect(Catalog.parse("groups: []", { name: "named" }).key).toBe("named");
    expect(new Catalog(doc).key).toBe("default");
  });
});

describe("suiteFor", () => {
  it("returns a Suite named <catalog>/<product>/<set> with the set's scenarios", () => {
    const suite = supportDesk().suiteFor("triage", "smoke");
    expect(suite.name).toBe("support_desk/triage/smoke");
    expect(suite.description).toBe("What the support agents are expected to handle");
    expect(suite.allScenarios().map((scenario) => [scenario.key, scenario.group, scenario.groupName])).toEqual([
      ["refund_request", "smoke", "Smoke"],
      ["password_reset", "smoke", "Smoke"],
    ]);
    expect(suite.find("refund_request").tags).toEqual(["billing"]);
  });

  it("covers every set of a product without a set, with the product's description", () => {
    const catalog = new Catalog({ catalog: "c", products: [{ key: "p", description: "PD", sets: [{ key: "a", scenarios: [{ key: "x", prompt: "X" }] }, { key: "b", scenarios: [{ key: "y", prompt: "Y" }] }] }] });
    const suite = catalog.suiteFor("p");
    expect(suite.name).toBe("c/p");
    expect(suite.description).toBe("PD");
    expect(suite.groupKeys).toEqual(["a", "b"]);
  });
});

describe("canonical YAML and digest", () => {
  it("writes fixed key order, drops empty values and starts with ---", () => {
    const yaml = layered().toYaml();
    expect(yaml.startsWith("---\ncatalog: support_desk\nname: Support Desk\ndescription: ")).toBe(true);
    expect(yaml).toContain("\n- key: triage\n  name: Triage agent\n  agent: TriageAgentV2\n  sets:\n  - key: smoke\n");
    expect(yaml).toContain('  escalation_channel: "#support-escalations"\n');
    expect(yaml).not.toMatch(/: (?:\[\]|\{\}|''|null)$/m);
    expect(yaml).toContain("      production_only: true\n");
    expect(yaml).not.toContain("production_only: false");
  });

  it("quotes like Psych: single quotes for other types, double for a leading non-word character", () => {
    const yaml = Catalog.load(fixturePath("catalogs/billing_agent.yml")).toYaml();
    expect(yaml).toContain("renews_on: '2026-01-01'");
    expect(yaml).toContain('- "/INV-\\\\d{4}-\\\\d{4}/"');
    const odd = new Catalog({ catalog: "c", products: [{ key: "p", sets: [{ key: "s", scenarios: [{ key: "k", prompt: "true", tags: ["123", "yes", "n", "a: b", "line\nbreak"] }] }] }] });
    const text = odd.toYaml();
    expect(text).toContain("prompt: 'true'");
    expect(text).toContain("- '123'\n");
    expect(text).toContain("- 'yes'\n");
    expect(text).toContain('- "n"\n');
    expect(text).toContain("- 'a: b'\n");
    expect(text).toContain("- |-\n");
  });

  it("folds plain scalars longer than 80 columns", () => {
    const prompt = "word ".repeat(40).trim();
    const yaml = new Catalog({ catalog: "c", products: [{ key: "p", sets: [{ key: "s", scenarios: [{ key: "k", prompt }] }] }] }).toYaml();
    const lines = yaml.split("\n");
    const start = lines.findIndex((line) => line.startsWith("      prompt: word"));
    expect(lines[start + 1]).toMatch(/^ {8}word/);
    expect(lines.every((line) => line.length <= 90)).toBe(true);
    expect(Catalog.parse(yaml).set("p", "s").scenarios[0].prompt).toBe(prompt);
  });

  it.each(["catalogs/support_desk.yml", "catalogs/billing_agent.yml", "suites/support_bot.yml", "suites/support_bot.acme.yml"])(
    "re-parsing %s's canonical YAML gives the same document and digest",
    (path) => {
      const catalog = Catalog.parse(fixture(path), { name: "fixture" });
      const again = Catalog.parse(catalog.toYaml());
      expect(again.toH()).toEqual(catalog.toH());
      expect(again.toYaml()).toBe(catalog.toYaml());
      expect(again.digest).toBe(catalog.digest);
      expect(parseYaml(catalog.toYaml())).toEqual(catalog.toH());
    },
  );

  it("the digest is the SHA-256 hex of the canonical text, stable across layout and key order", async () => {
    const { createHash } = await import("node:crypto");
    const catalog = supportDesk();
    expect(catalog.digest).toBe(createHash("sha256").update(catalog.toYaml()).digest("hex"));
    expect(catalog.digest).toMatch(/^[0-9a-f]{64}$/);
    const reordered = "# comment\nproducts:\n  - sets:\n      - scenarios:\n          - prompt: P\n            key: k\n        key: s\n    key: p\ncatalog: c\n";
    const plain = "catalog: c\nproducts: [{key: p, sets: [{key: s, scenarios: [{key: k, prompt: '  P  '}]}]}]";
    expect(Catalog.parse(reordered).digest).toBe(Catalog.parse(plain).digest);
    expect(Catalog.parse(plain).digest).not.toBe(Catalog.parse(plain.replace("P", "Q")).digest);
  });

  it("serializes to JSON as the canonical document", () => {
    const catalog = supportDesk();
    expect(JSON.parse(JSON.stringify(catalog))).toEqual(parseYaml(catalog.toYaml()));
  });

  it("layering the same content twice does not change the digest", () => {
    const once = supportDesk();
    const twice = Catalog.load(fixturePath("catalogs/support_desk.yml"), fixturePath("catalogs/support_desk.yml"));
    expect(twice.digest).toBe(once.digest);
  });
});

describe("bad input", () => {
  it.each([
    ["invalid/invalid_yaml.yml", /invalid_yaml\.yml, line \d+: the catalog is not valid YAML: /],
    ["invalid/missing_prompt.yml", 'products[1].sets[0].scenarios[1].prompt: scenario "vat_number" has no prompt'],
    ["invalid/repeated_key.yml", "line 10: the catalog is not valid YAML: repeated key in one mapping"],
    ["invalid/repeated_scenario_key.yml", 'products[0].sets[0].scenarios[1].key: repeats key "refund_request" (first at products[0].sets[0].scenarios[0])'],
    ["invalid/non_string_tool.yml", "products[0].sets[0].scenarios[0].expect.tools[1]: tool name must be a string"],
    ["invalid/bad_regex.yml", "products[0].sets[0].scenarios[0].expect.contains[0]: /refund(ed/i is not a valid regular expression"],
  ])("rejects %s", (path, message) => {
    expect(() => Catalog.load(fixturePath(path))).toThrowError(InvalidDocument);
    expect(() => Catalog.load(fixturePath(path))).toThrow(message);
  });

  it.each([
    ["a non-mapping", "- a\n- b", "a scenario catalog is a YAML mapping"],
    ["no catalog key", "products: []", "catalog: the catalog has no key: set `catalog:` in the document"],
    ["a product with no key", "catalog: c\nproducts:\n  - name: P", "products[0].key: a product has no key"],
    ["a set with no key", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - name: S", 'products[0].sets[0].key: a set of product "p" has no key'],
    ["a scenario with no key", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        scenarios:\n          - prompt: x", 'products[0].sets[0].scenarios[0].key: a scenario in set "s" has no key'],
    ["products that are not a list", "catalog: c\nproducts: {a: 1}", "products: must be a list"],
    ["a judge that is not a mapping", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        judge: llm", "products[0].sets[0].judge: must be a mapping"],
    ["a judge of an unknown kind", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        judge: {kind: weird}", "products[0].sets[0].judge.kind: must be rules, llm or judge_defined"],
    ["a judge kind that is not text", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        judge: {kind: [llm]}", "products[0].sets[0].judge.kind: must be rules, llm or judge_defined"],
    ["a blank judge model", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        judge: {kind: llm, model: ' '}", "products[0].sets[0].judge.model: must be a model name: non-blank text of at most 200 characters"],
    ["a judge model that is not text", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        judge: {model: {name: gpt-5}}", "products[0].sets[0].judge.model: must be a model name"],
    ["a judge key an evaluation would drop", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        judge: {kind: llm, modle: gpt-5}", "products[0].sets[0].judge.modle: unknown key; a set's judge takes kind and model"],
    ["an unknown criterion type", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria:\n          - { key: x, type: bogus }", "products[0].sets[0].criteria[0].type: unknown criterion type bogus; known types: response_present, min_length, max_latency_ms, token_budget, contains, not_contains, llm_judge, trace_error_rate, trace_latency"],
    // A typo in a criterion dropped its check: the criterion scored null, or its rule's default.
    ["a typo in a criterion's type", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria:\n          - { key: x, type: contain, config: { pattern: refund } }", "products[0].sets[0].criteria[0].type: unknown criterion type contain; known types: response_present, min_length, max_latency_ms, token_budget, contains, not_contains, llm_judge, trace_error_rate, trace_latency (did you mean contains?)"],
    ["a config key its rule does not read", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria:\n          - { key: x, type: min_length, config: { min: 5 } }", "products[0].sets[0].criteria[0].config.min: unknown key; min_length reads chars"],
    ["a criterion with no type", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria:\n          - { key: x }", "products[0].sets[0].criteria[0].type: required, a non-blank string"],
    ["a criterion keyed as a built-in score", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria:\n          - { key: expected_content, type: min_length }", 'products[0].sets[0].criteria[0].key: "expected_content" is reserved for the built-in score of the same name'],
    ["a repeated criterion key", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria:\n          - { key: a, type: response_present }\n          - { key: a, type: min_length }", 'products[0].sets[0].criteria[1].key: repeats "a" (first at products[0].sets[0].criteria[0].key)'],
    ["a criterion config its rule cannot read", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria:\n          - { key: x, type: min_length, config: { chars: abc } }", "products[0].sets[0].criteria[0].config.chars: min_length chars must be a number, 0 or more"],
    ["a keyless suite scenario", "suite: s\ngroups:\n  - key: g\n    scenarios:\n      - prompt: x", 'groups[0].scenarios[0].key: a scenario in set "g" has no key'],
    // A typo inside expect was dropped: the scenario then checked nothing and passed any answer.
    ["a typo inside a scenario's expect", "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        scenarios:\n          - {key: a, prompt: hi, expect: {contain: [hello]}}", "products[0].sets[0].scenarios[0].expect.contain: unknown key; a scenario's expectations take tools, contains and not_contains (did you mean contains?)"],
    ["a typo inside a suite scenario's expectations", "suite: s\ngroups:\n  - key: g\n    scenarios:\n      - {key: a, prompt: x, expectations: {tools: [t], not_contain: [y]}}", "groups[0].scenarios[0].expectations.not_contain: unknown key; a scenario's expectations take tools, contains and not_contains (did you mean not_contains?)"],
  ])("rejects %s", (_name, text, message) => {
    expect(() => Catalog.parse(text)).toThrowError(InvalidDocument);
    expect(() => Catalog.parse(text)).toThrow(message);
  });

  it.each([
    ["catalog: c\nproducts:\n  - name: P", "a product has no key"],
    ["catalog: c\nproducts:\n  - key: p\n    sets:\n      - name: S", 'a set of product "p" has no key'],
    ["catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        scenarios:\n          - prompt: x", 'a scenario in set "s" has no key'],
    ["catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        scenarios:\n          - {key: k, prompt: ''}", 'scenario "k" has no prompt'],
  ])("names a missing key or prompt in reference-core §4's words, its rule exactly that text: %s", (text, rule) => {
    const error = (() => { try { Catalog.parse(text); } catch (caught) { return caught; } })();
    expect(error).toBeInstanceOf(InvalidDocument);
    expect((error as InvalidDocument).rule).toBe(rule);
  });

  it("keeps a judge of each kind, with or without a model", () => {
    const judged = (judge: string) => Catalog.parse(`catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        judge: ${judge}\n        scenarios: [{ key: a, prompt: hi }]`).set("p", "s").judge;
    for (const judge of ["{kind: rules}", "{kind: llm, model: gpt-5}", "{kind: judge_defined}", "{model: gpt-5}", "{kind: null}"]) expect(judged(judge), judge).toBeDefined();
    expect(judged("{kind: llm, model: gpt-5}")).toEqual({ kind: "llm", model: "gpt-5" });
  });

  it("rejects more than 2,000 scenarios in one document", () => {
    const scenarios = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, prompt: `P${i}` }));
    const doc = (n: number) => ({ catalog: "c", products: [{ key: "p", sets: [{ key: "s", scenarios: scenarios(n) }] }] });
    expect(new Catalog(doc(2000)).scenarioCount).toBe(2000);
    expect(() => new Catalog(doc(2001))).toThrow("catalog document has 2,001 scenarios; at most 2,000 are allowed");
  });

  it("rejects a document over 2 MB", () => {
    const text = `catalog: c\ndescription: ${"x".repeat(2 * 1024 * 1024)}`;
    expect(() => Catalog.parse(text)).toThrow(/at most 2,097,152 \(2 MB\)/);
  });

  it("refuses a file over 2 MB unread, naming it", () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-catalog-"));
    const path = join(dir, "huge.yml");
    try {
      // Sparse: 600 MB on paper, nothing on disk; reading it whole took 1.2 GB of memory.
      writeFileSync(path, "catalog: c\n");
      truncateSync(path, 600 * 1024 * 1024);
      expect(() => Catalog.load(path)).toThrowError(InvalidDocument);
      expect(() => Catalog.load(path)).toThrow(`${path}: document is 629,145,600 bytes; at most 2,097,152 (2 MB) are allowed`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a named pipe unopened, naming it (opening one with no writer waited forever); a device is read to the limit", () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-catalog-"));
    const path = join(dir, "pipe.yml");
    try {
      execFileSync("mkfifo", [path]);
      expect(() => Catalog.load(path)).toThrow(new InvalidDocument("not a regular file", { source: path }));
      expect(() => Suite.load(path)).toThrow(`${path}: not a regular file`);
      expect(() => Catalog.load("/dev/zero")).toThrow("/dev/zero: document is over 2,097,152 bytes (reading stopped there)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses mappings and lists nested past 64 levels with the line, where 800 levels was an internal error (a stack overflow)", () => {
    const catalogWith = (params: string) => `catalog: deep\nproducts:\n  - key: p\n    agent: A\n    sets:\n      - key: s\n        scenarios:\n          - key: k\n            prompt: hi\n            params: ${params}\n`;
    const nested = (depth: number) => "{a: ".repeat(depth) + "x" + "}".repeat(depth);
    // The catalog's own structure is 5 levels (catalog, products, product, sets, set...); params add theirs.
    expect(() => Catalog.parse(catalogWith(nested(50)))).not.toThrow();
    for (const depth of [70, 850, 5000]) {
      expect(() => Catalog.parse(catalogWith(nested(depth)))).toThrow("line 10: the catalog is not valid YAML: mappings and lists nest more than 64 levels deep; at most 64 are allowed");
    }
    // Anchors chained within the limit each, resolving past it: refused too (the stored catalog's
    // canonical YAML could not be read back).
    let chained = "catalog: deep\n";
    for (let i = 0; i < 6; i += 1) chained += `a${i}: &a${i} ${"[".repeat(62)}${i === 0 ? "x" : `*a${i - 1}`}${"]".repeat(62)}\n`;
    expect(() => Catalog.parse(chained)).toThrow("mappings and lists nest more than 64 levels deep; at most 64 are allowed (counting what aliases repeat)");
    let block = "catalog: deep\nx:\n";
    for (let i = 1; i <= 900; i += 1) block += `${" ".repeat(i)}a:\n`;
    expect(() => Catalog.parse(`${block}${" ".repeat(902)}b\n`)).toThrowError(InvalidDocument);
  });

  it("refuses a directory as InvalidDocument naming it, where a bare EISDIR named no file", () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-catalog-"));
    try {
      for (const load of [() => Catalog.load(dir), () => Suite.load(dir)]) {
        expect(load).toThrowError(InvalidDocument);
        expect(load).toThrow(`${dir}: cannot be read: it is a directory, not a file`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a file that is not UTF-8, naming its line, where its bytes became U+FFFD without a word", () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-catalog-"));
    const path = join(dir, "latin1.yml");
    try {
      writeFileSync(path, Buffer.concat([Buffer.from("catalog: c\ndescription: caf"), Buffer.from([0xe9]), Buffer.from(" au lait\n")]));
      expect(() => Catalog.load(path)).toThrow(`${path}, line 2: not UTF-8 text: the byte at offset 27 is not valid UTF-8 (save the file as UTF-8)`);
      writeFileSync(path, "catalog: c\ndescription: café ✓ 😀\n");
      expect(JSON.stringify(Catalog.load(path))).toContain("café ✓ 😀");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names which of several documents is wrong", () => {
    expect(() => new Catalog("catalog: c", "products: 3")).toThrow("documents[1], products: must be a list");
  });

  it("refuses an empty or comments-only document, naming the file (it loaded an empty catalog keyed by the file's name)", () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-catalog-"));
    const rule = "document is empty (nothing but blank lines or comments): there is no catalog in it";
    try {
      for (const text of ["", "\n\n", "# just a comment\n  # another\n", "---\n"]) {
        const path = join(dir, "small.yaml");
        writeFileSync(path, text);
        expect(() => Catalog.load(path), JSON.stringify(text)).toThrowError(InvalidDocument);
        expect(() => Catalog.load(path), JSON.stringify(text)).toThrow(`${path}: ${rule}`);
        expect(() => Catalog.parse(text, { name: "small" }), JSON.stringify(text)).toThrow(rule);
      }
      // Layered over a catalog, an empty file still reads as {} (reference-core §3).
      const empty = join(dir, "local.yml");
      writeFileSync(empty, "# nothing local yet\n");
      expect(Catalog.load(fixturePath("catalogs/support_desk.yml"), empty).digest).toBe(supportDesk().digest);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Catalog warnings", () => {
  // `expcet: { contains: [x] }` is an unknown key, ignored as the format says: every check of its
  // scenario vanished without a word. A key within 2 edits of one the format reads is now said.
  it("names a scenario key that looks like a typo of one the format reads, and keeps ignoring it", () => {
    const catalog = Catalog.parse(
      "catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        scenarios:\n" +
        "          - { key: a, prompt: hi, expcet: { contains: [x] }, owner: ops }\n" +
        "          - { key: b, prompt: hi, Prompts: other, expect: { contains: [y] } }\n",
    );
    expect(catalog.warnings).toEqual([
      "products[0].sets[0].scenarios[0].expcet: not a key scenarios read; did you mean expect? (ignored)",
      "products[0].sets[0].scenarios[1].Prompts: not a key scenarios read; did you mean prompt? (ignored)",
    ]);
    expect(catalog.set("p", "s").scenarios.map((scenario) => scenario.expectedPatterns)).toEqual([[], ["y"]]);
  });

  it("names the file and a suite's groups path", () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-catalog-warnings-"));
    try {
      const file = join(dir, "t.yaml");
      writeFileSync(file, "suite: t\ngroups:\n  - key: g\n    scenarios:\n      - { key: a, prompt: hi, contians: [x] }\n");
      expect(Catalog.load(file).warnings).toEqual([`${file}, groups[0].scenarios[0].contians: not a key scenarios read; did you mean contains? (ignored)`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Catalog keys likely meant at every level", () => {
  const scenario = "          - { key: a, prompt: hi }\n";
  const set = (extra: string, list = `        scenarios:\n${scenario}`) => `      - key: s\n${extra}${list}`;
  const product = (extra: string, sets = `    sets:\n${set("")}`) => `  - key: p\n${extra}${sets}`;

  // A one-letter typo of the list that holds a level's scenarios imported, exit 0, an empty
  // catalog or set: every scenario it held removed, every evaluation made from it disabled.
  it("refuses a catalog, product, set or suite group whose scenario list is under a key likely meant for it", () => {
    const cases: Array<[string, string]> = [
      [`catalog: c\nprodcts:\n${product("")}`, "prodcts: not a key catalogs read; did you mean products? (a catalog without products would remove every scenario it held)"],
      [`catalog: c\nproduct:\n${product("")}`, "product: not a key catalogs read; did you mean products?"],
      [`catalog: c\nproducts:\n${product("", `    stes:\n${set("")}`)}`, "products[0].stes: not a key products read; did you mean sets? (a product without sets would remove every scenario it held)"],
      [`catalog: c\nproducts:\n${product("", `    sets:\n${set("", `        scenarois:\n${scenario}`)}`)}`, "products[0].sets[0].scenarois: not a key sets read; did you mean scenarios? (a set without scenarios would remove every scenario it held)"],
      [`catalog: c\nproducts:\n${product("", `    sets:\n${set("", `        scenarios:\n${scenario}`)}${set("", `        Scenario:\n${scenario}`)}`)}`, "products[0].sets[1].Scenario: not a key sets read; did you mean scenarios?"],
      ["suite: t\ngrups:\n  - key: g\n    scenarios:\n      - { key: a, prompt: hi }\n", "grups: not a key catalogs read; did you mean groups? (a suite without groups would remove every scenario it held)"],
      ["suite: t\ngroups:\n  - key: g\n    scenarious:\n      - { key: a, prompt: hi }\n", "groups[0].scenarious: not a key groups read; did you mean scenarios? (a group without scenarios would remove every scenario it held)"],
    ];
    for (const [text, message] of cases) {
      expect(() => Catalog.parse(text), text).toThrowError(InvalidDocument);
      expect(() => Catalog.parse(text), text).toThrow(message);
    }
    const dir = mkdtempSync(join(tmpdir(), "verdict-catalog-emptied-"));
    try {
      const file = join(dir, "shop.yaml");
      writeFileSync(file, cases[0][0]);
      expect(() => Catalog.load(file)).toThrow(`${file}, ${cases[0][1]}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps reference behaviour otherwise: an unknown key is metadata, a near miss beside the real list is only named", () => {
    // Not near any key: metadata, no warning, as reference-core §4 reads it (even with no products).
    expect(Catalog.parse("catalog: c\nowner_team: ops\n").metadata).toEqual({ owner_team: "ops" });
    expect(Catalog.parse("catalog: c\nowner_team: ops\n").warnings).toEqual([]);
    expect(Catalog.parse(`catalog: c\nproducts:\n${product("    team: ops\n")}`).product("p").metadata).toEqual({ team: "ops" });
    // `products:` is there: `prodcts:` beside it empties nothing, so it is named and kept.
    const beside = Catalog.parse(`catalog: c\nprodcts: old\nproducts:\n${product("")}`);
    expect(beside.scenarioCount).toBe(1);
    expect(beside.metadata).toEqual({ prodcts: "old" });
    expect(beside.warnings).toEqual(["prodcts: not a key catalogs read; did you mean products? (kept as metadata)"]);
    // A host's own key near a list's name, holding no list, is metadata as before (it was refused).
    expect(Catalog.parse("catalog: c\ngroup: billing\nproduct: shop\n").metadata).toEqual({ group: "billing", product: "shop" });
    expect(Catalog.parse("catalog: c\ngrups: [1]\n").metadata).toEqual({ grups: [1] });
    const withSetup = Catalog.parse("catalog: c\nproducts:\n  - key: p\n    setup: true\n    steps: 3\n").product("p");
    expect(withSetup.metadata).toEqual({ setup: true, steps: 3 });
    const set = Catalog.parse("catalog: c\nproducts:\n  - key: p\n    sets:\n      - key: s\n        scenario: intro\n").set("p", "s");
    expect(set.metadata).toEqual({ scenario: "intro" });
  });

  it("names near-miss keys of a catalog, product, set and suite group as it does a scenario's, keeping them as before", () => {
    const catalog = Catalog.parse(
      `catalog: c\ndescripton: d\nproducts:\n${product("    agnet: SupportAgent\n", `    sets:\n${set("        juge: { kind: llm, model: m }\n        critera: [{ key: c1, type: contains }]\n")}`)}`,
    );
    expect(catalog.warnings).toEqual([
      "descripton: not a key catalogs read; did you mean description? (kept as metadata)",
      "products[0].agnet: not a key products read; did you mean agent? (kept as metadata)",
      "products[0].sets[0].juge: not a key sets read; did you mean judge? (kept as metadata)",
      "products[0].sets[0].critera: not a key sets read; did you mean criteria? (kept as metadata)",
    ]);
    expect(catalog.product("p").agent).toBeNull();
    expect(catalog.product("p").metadata).toEqual({ agnet: "SupportAgent" });
    expect(catalog.set("p", "s").metadata).toEqual({ juge: { kind: "llm", model: "m" }, critera: [{ key: "c1", type: "contains" }] });
    const suite = Catalog.parse("suite: t\ngroups:\n  - key: g\n    nmae: G\n    scenarios:\n      - { key: a, prompt: hi }\n");
    expect(suite.warnings).toEqual(["groups[0].nmae: not a key groups read; did you mean name? (ignored)"]);
  });

  // `date:` was named as "did you mean name?": two edits turn one short word into another.
  it("does not take a host's own short key for a typo of a key two edits away, and keeps it as before", () => {
    const catalog = Catalog.parse(
      `catalog: c\ndate: 2026-12-01\nnode: eu-1\nproducts:\n${product("    time: morning\n    age: 3\n", `    sets:\n${set("        note: nightly\n        lane: b\n", "        scenarios:\n          - { key: a, prompt: hi, task: refund, teams: [ops] }\n")}`)}`,
    );
    expect(catalog.warnings).toEqual([]);
    expect(catalog.metadata).toEqual({ date: "2026-12-01", node: "eu-1" });
    expect(catalog.product("p").metadata).toEqual({ time: "morning", age: 3 });
    expect(catalog.set("p", "s").metadata).toEqual({ note: "nightly", lane: "b" });
    // One edit from a short key is still a typo, and so are two letters swapped.
    const typos = Catalog.parse(`catalog: c\nnmae: C\nproducts:\n${product("    stes: []\n", `    sets:\n${set("        kye: s2\n", "        scenarios:\n          - { key: a, prompt: hi, tag: [x] }\n")}`)}`);
    expect(typos.warnings).toEqual([
      "nmae: not a key catalogs read; did you mean name? (kept as metadata)",
      "products[0].stes: not a key products read; did you mean sets? (kept as metadata)",
      "products[0].sets[0].kye: not a key sets read; did you mean key? (kept as metadata)",
      "products[0].sets[0].scenarios[0].tag: not a key scenarios read; did you mean tags? (ignored)",
    ]);
  });

  // `promt:` threw "has no prompt" before the near-miss pass could say what was meant.
  it("says the key likely meant when a scenario has no prompt, or a level no key", () => {
    expect(() => Catalog.parse(`catalog: c\nproducts:\n${product("", `    sets:\n${set("", "        scenarios:\n          - { key: a, promt: hi }\n")}`)}`)).toThrow(
      new InvalidDocument('scenario "a" has no prompt (it has promt:; did you mean prompt?)', { path: "products[0].sets[0].scenarios[0].prompt" }),
    );
    expect(() => Catalog.parse(`catalog: c\nproducts:\n${product("", `    sets:\n${set("", "        scenarios:\n          - { kye: a, prompt: hi }\n")}`)}`)).toThrow(
      'a scenario in set "s" has no key (it has kye:; did you mean key?)',
    );
    expect(() => Catalog.parse("catalog: c\nproducts:\n  - kye: p\n")).toThrow("a product has no key (it has kye:; did you mean key?)");
    // Without a near miss the error is as it was.
    expect(() => Catalog.parse(`catalog: c\nproducts:\n${product("", `    sets:\n${set("", "        scenarios:\n          - { key: a, ask: hi }\n")}`)}`)).toThrow(
      new InvalidDocument('scenario "a" has no prompt', { path: "products[0].sets[0].scenarios[0].prompt" }),
    );
  });

  // `expected_tools` is the product's own name for `expect.tools` (scenario JSON, events,
  // scoring), more than two edits from `expect`: the scenario imported with no checks.
  it("names a scenario's check written under the product's own field name", () => {
    const catalog = Catalog.parse(
      `catalog: c\nproducts:\n${product("", `    sets:\n${set("", "        scenarios:\n          - { key: a, prompt: hi, expected_tools: [t], expected_patterns: [x], Forbidden_Patterns: [y] }\n")}`)}`,
    );
    expect(catalog.warnings).toEqual([
      "products[0].sets[0].scenarios[0].expected_tools: not a key scenarios read; did you mean expect.tools? (ignored)",
      "products[0].sets[0].scenarios[0].expected_patterns: not a key scenarios read; did you mean expect.contains? (ignored)",
      "products[0].sets[0].scenarios[0].Forbidden_Patterns: not a key scenarios read; did you mean expect.not_contains? (ignored)",
    ]);
    expect(catalog.set("p", "s").scenarios[0].expectedTools).toEqual([]);
  });
});

// reference-core §3: suites and catalogs read as Psych reads them (YAML 1.1), so `prompt: no` was
// the prompt "false" and `key: 0012` the key "10", unsaid. The reading is kept, and said.
describe("values YAML 1.1 reads otherwise than they look", () => {
  const line = (path: string, written: string, read: string, core: string, orWrite = "") =>
    `${path}: ${written} is read as ${read} (YAML 1.1, as catalogs are read; YAML 1.2 reads ${core}); quote it (${JSON.stringify(written)}) to keep the text${orWrite}`;

  it("names each one with its path, as written and as read, and keeps the reading", () => {
    const catalog = Catalog.parse(
      "catalog: c\nwindow: 1:30\nbatch: 1_000\nmask: 0b11\nproducts:\n  - key: p\n    sets:\n      - key: s\n        nightly: On\n        scenarios:\n" +
        "          - { key: 0012, prompt: no, params: { code: 0755 } }\n          - { key: b, prompt: hi, production_only: yes }\n",
    );
    expect(catalog.warnings).toEqual([
      line("window", "1:30", "90", "text", ", or write 90 for the number"),
      line("batch", "1_000", "1000", "text", ", or write 1000 for the number"),
      line("mask", "0b11", "3", "text", ", or write 3 for the number"),
      line("products[0].sets[0].nightly", "On", "true", "text", ", or write true"),
      line("products[0].sets[0].scenarios[0].key", "0012", "10", "12", ", or write 10 for the number"),
      line("products[0].sets[0].scenarios[0].prompt", "no", "false", "text", ", or write false"),
      line("products[0].sets[0].scenarios[0].params.code", "0755", "493", "755", ", or write 493 for the number"),
    ]);
    // Read as the reference reads them, as before.
    expect(catalog.metadata).toEqual({ window: 90, batch: 1000, mask: 3 });
    const [first, second] = catalog.set("p", "s").scenarios;
    expect([first.key, first.prompt, first.params]).toEqual(["10", "false", { code: 493 }]);
    // `production_only: yes` is the boolean the field takes: nothing to say.
    expect(second.productionOnly).toBe(true);
  });

  it("says nothing of ordinary numbers and booleans, quoted text or tagged values", () => {
    const catalog = Catalog.parse(
      'catalog: c\nversion: 1.10\nlimit: 12\nratio: 0.5\nbig: 1e3\ncolor: 0x1F\nneg: -3\nzero: 0\nenabled: true\nTitle: False\nquoted: "no"\nkept: \'0012\'\ntagged: !!int 0012\nproducts: []\n',
    );
    expect(catalog.warnings).toEqual([]);
  });

  it("names the file, and a suite's own paths, before its near misses", () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-catalog-yaml11-"));
    try {
      const file = join(dir, "suite.yaml");
      writeFileSync(file, "suite: t\ngroups:\n  - key: g\n    scenarios:\n      - { key: 0012, prompt: hi, expcet: { tools: [x] } }\n");
      expect(Catalog.load(file).warnings).toEqual([
        `${file}, ${line("groups[0].scenarios[0].key", "0012", "10", "12", ", or write 10 for the number")}`,
        `${file}, groups[0].scenarios[0].expcet: not a key scenarios read; did you mean expect? (ignored)`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
