import { describe, expect, it } from "vitest";
import { fixture } from "./fixtures.testing.js";
import { ParseError, Scenario, ScenarioParser } from "./index.js";

const parse = ScenarioParser.parse;

describe("ScenarioParser output shape", () => {
  it("returns snake_case attribute objects in the reference key order", () => {
    const [entry] = parse("Where is my order? | tools: lookup_order");
    expect(Object.keys(entry)).toEqual(["prompt", "group", "group_name", "key", "notes", "expectations", "production_only", "position"]);
    expect(entry).toEqual({
      prompt: "Where is my order?",
      group: null,
      group_name: null,
      key: "scenario_1",
      notes: null,
      expectations: { tools: ["lookup_order"] },
      production_only: false,
      position: 0,
    });
  });

  it("returns [] for blank text and exposes ParseError on the parser", () => {
    expect(parse("  \n\t ")).toEqual([]);
    expect(ScenarioParser.ParseError).toBe(ParseError);
  });

  it("builds Scenario objects with scenarios()", () => {
    const [scenario] = ScenarioParser.scenarios("# Orders\nWhere is my order? | contains: 4821 | notes: checks");
    expect(scenario).toBeInstanceOf(Scenario);
    expect(scenario.key).toBe("orders_1");
    expect(scenario.group).toBe("Orders");
    expect(scenario.expectedPatterns).toEqual(["4821"]);
    expect(scenario.notes).toBe("checks");
    expect(scenario.position).toBe(0);
  });
});

describe("line reader", () => {
  const entries = parse(fixture("pastes/support_paste.md"));

  it("counts a colon heading's 80 characters as Ruby does, an emoji as one", () => {
    const heading = `${"a".repeat(78)}😀:`;
    expect(parse(`${heading}\nQuestion one`).map((entry) => [entry.group, entry.prompt])).toEqual([[heading.slice(0, -1), "Question one"]]);
    expect(parse(`${"a".repeat(79)}😀:\nQuestion one`)).toHaveLength(2);
  });

  it("reads a lone CR, CRLF, NEL and the Unicode line and paragraph separators as line breaks (a CR-only paste lost all but its last scenario)", () => {
    const lines = ["# Orders", "Where is my order? | key: a", "Cancel it | key: b"];
    const expected = [["a", "Orders", "Where is my order?"], ["b", "Orders", "Cancel it"]];
    for (const separator of ["\n", "\r\n", "\r", "\u0085", "\u2028", "\u2029"]) {
      const read = parse(`${lines.join(separator)}${separator}`).map((entry) => [entry.key, entry.group, entry.prompt]);
      expect(read, JSON.stringify(separator)).toEqual(expected);
    }
    // Line numbers count each break once, a CRLF too, and the breaks above the first scenario.
    for (const separator of ["\r\n", "\r", "\u2028"]) {
      const text = ["", "", "# A", "Fine", "B | contains: /(/"].join(separator);
      expect(() => parse(text), JSON.stringify(separator)).toThrow("line 5: contains: /(/ is not a valid regular expression");
    }
  });

  it("reads every line form of the support paste", () => {
    expect(entries.map((entry) => [entry.key, entry.group, entry.prompt])).toEqual([
      ["orders_1", "Orders", "Where is my order 4821?"],
      ["orders_2", "Orders", "Cancel my subscription"],
      ["orders_3", "Orders", "Refund order 1042"],
      ["reset_email", "Account", "I never got the password reset email"],
      ["billing_1", "Billing", "Change my billing address"],
      ["shipping_and_customs_1", "Shipping and customs", "My parcel is stuck in customs"],
    ]);
  });

  it("takes a leading backticked prompt and the rest, minus one dash, as notes", () => {
    expect(entries[2].notes).toBe("customer bought it 40 days ago");
    expect(entries[2].expectations).toEqual({ tools: ["lookup_order", "refund_policy"], contains: ["refund"] });
  });

  it("splits tool lists on commas or semicolons and keeps regex patterns", () => {
    expect(entries[5].expectations).toEqual({ tools: ["track_shipment", "customs_status"], contains: ["/customs?/i"] });
    expect(entries[1].expectations).toEqual({ not_contains: ["I cannot"] });
  });

  it("a group option does not change the current heading", () => {
    const [first, second] = parse("# Orders\nA | group: Billing\nB");
    expect([first.group, second.group]).toEqual(["Billing", "Orders"]);
    expect([first.key, second.key]).toEqual(["billing_1", "orders_1"]);
  });

  it("recognizes the three heading forms and only them", () => {
    const out = parse([
      "## Sign-in issues",
      "Reset my password",
      "#1 priority: fix my account",
      "**Billing** — invoices",
      "Copy of invoice",
      "Account settings:",
      "Change my email",
      "What about refunds?:",
      "- Not a heading:",
    ].join("\n"));
    expect(out.map((entry) => [entry.group, entry.prompt])).toEqual([
      ["Sign-in issues", "Reset my password"],
      ["Sign-in issues", "#1 priority: fix my account"],
      ["Billing", "Copy of invoice"],
      ["Account settings", "Change my email"],
      ["Account settings", "What about refunds?:"],
      ["Account settings", "Not a heading:"],
    ]);
  });

  it("does not treat a colon line longer than 80 characters or with a ' | ' as a heading", () => {
    const long = `${"x".repeat(80)}:`;
    expect(parse(long)[0].prompt).toBe(long);
    expect(parse("Ask this | or that:")[0].prompt).toBe("Ask this | or that:");
  });

  it("keeps unknown option segments in the prompt and lets a later duplicate win", () => {
    const [entry] = parse("Compare plan A | plan B | tools: a | tools: b, c");
    expect(entry.prompt).toBe("Compare plan A | plan B");
    expect(entry.expectations).toEqual({ tools: ["b", "c"] });
    // A pasted line has no expectation mapping to refuse a key in: an unknown option is prompt text.
    expect(parse("Say hi | contain: hello")[0]).toMatchObject({ prompt: "Say hi | contain: hello", expectations: {} });
  });

  it("strips markup from a prompt that does not start with a backtick", () => {
    expect(parse("Run **find__records** with `x`")[0].prompt).toBe("Run findrecords with x");
  });

  it("joins backtick notes and the notes option", () => {
    expect(parse("`Refund` - old order | notes: check policy")[0].notes).toBe("old order check policy");
  });

  it("numbers list markers away: -, *, •, 1., 2)", () => {
    expect(parse("- a\n* b\n• c\n1. d\n2) e").map((entry) => entry.prompt)).toEqual(["a", "b", "c", "d", "e"]);
  });
});

describe("JSON reader", () => {
  it("reads text that only looks like JSON as lines, whatever a later line says", () => {
    const out = parse("{draft} Where is my order?\ngroups: all of them");
    expect(out.map((entry) => [entry.key, entry.prompt])).toEqual([
      ["scenario_1", "{draft} Where is my order?"],
      ["scenario_2", "groups: all of them"],
    ]);
  });

  it("reads strings and objects, skipping other types", () => {
    const out = parse(fixture("pastes/triage_paste.json"));
    expect(out.map((entry) => [entry.key, entry.prompt, entry.production_only])).toEqual([
      ["scenario_1", "My invoice shows the wrong amount", false],
      ["engineering_1", "The app crashes when I upload a photo", false],
      ["lockout", "Our whole team is locked out", false],
      ["scenario_2", "Small typo on the pricing page", true],
    ]);
    expect(out[2]).toMatchObject({ expectations: { contains: ["urgent"] }, notes: "P1" });
  });

  it("lets a top-level expectation replace the nested one", () => {
    const [entry] = parse(JSON.stringify([{ prompt: "p", expect: { tools: ["a"], contains: ["x"] }, tools: "b" }]));
    expect(entry.expectations).toEqual({ tools: ["b"], contains: ["x"] });
  });

  it("reads { scenarios: [...] } and a single object", () => {
    expect(parse('{"scenarios": ["a", "b"]}').map((entry) => entry.prompt)).toEqual(["a", "b"]);
    expect(parse('{"input": "hello"}')[0].prompt).toBe("hello");
  });

  it("production_only is true only for boolean true", () => {
    expect(parse('[{"prompt": "a", "production_only": "true"}]')[0].production_only).toBe(false);
  });

  it("falls back to the line reader when the text is not JSON", () => {
    expect(parse("[draft] check the refund flow")[0].prompt).toBe("[draft] check the refund flow");
  });

  it("reads a grouped JSON suite", () => {
    const out = parse(JSON.stringify({ groups: [{ key: "orders", name: "Orders", scenarios: [{ prompt: "Where?" }] }] }));
    expect(out[0]).toMatchObject({ group: "orders", group_name: "Orders", key: "orders_1" });
  });
});

describe("grouped YAML suite", () => {
  it("strips keys and group names, as every scenario hash is read", () => {
    const [entry] = parse("suite: s\ngroups:\n  - key: g\n    name: ' Orders '\n    scenarios:\n      - key: ' a '\n        prompt: x");
    expect([entry.key, entry.group_name]).toEqual(["a", "Orders"]);
  });

  it("keeps keys, group keys and names, expectations, notes and production flags", () => {
    const out = parse(fixture("suites/support_bot.yml"));
    expect(out.map((entry) => [entry.key, entry.group, entry.group_name, entry.production_only])).toEqual([
      ["orders_1", "orders", "Orders", false],
      ["orders_2", "orders", "Orders", true],
      ["account_1", "account", "Account", false],
      ["account_2", "account", "Account", false],
    ]);
    expect(out[2].notes).toBe("Confirms the new address before changing it.");
    expect(out[1].expectations).toEqual({ not_contains: ["I cannot"] });
  });

  it("generates keys for keyless scenarios around the named ones", () => {
    const out = parse(fixture("suites/triage_agent.yml"));
    expect(out.map((entry) => entry.key)).toEqual(["routing_2", "routing_3", "routing_1", "priority_1", "priority_2"]);
  });

  it("detects a suite by a later `groups:` line as well", () => {
    expect(parse("description: x\ngroups:\n  - key: g\n    scenarios:\n      - prompt: p")[0].key).toBe("g_1");
  });

  it.each([
    ["suite: x\ngroups: 3", "groups: evaluation suite must contain a groups array"],
    ["suite: x", "evaluation suite must contain a groups array"],
    ["suite: x\ngroups:\n  - scenarios: 3", "groups[0].scenarios: each evaluation group must contain a scenarios array"],
    ["suite: x\ngroups:\n  - 3", "groups[0]: each evaluation group must contain a scenarios array"],
    ["suite: x\ngroups:\n  - scenarios:\n      - key: a", "groups[0].scenarios[0].prompt: each evaluation scenario must contain a prompt"],
    ["suite: x\ngroups:\n  - scenarios:\n      - prompt: a\n        expect: [x]", "groups[0].scenarios[0].expect: scenario expectations must be an object"],
    ["suite: x\ngroups:\n  - scenarios: [\n", "line 3: invalid evaluation suite YAML: "],
    ["suite: x\ngroups:\n  - scenarios:\n      - prompt: a\n        params: &p {self: *p}", "line 5: invalid evaluation suite YAML: alias *p is inside the node its anchor &p names"],
  ])("rejects %j", (text, message) => {
    expect(() => parse(text)).toThrowError(ParseError);
    expect(() => parse(text)).toThrow(message);
  });
});

describe("keys and positions", () => {
  it("generates <group>_<n>, skipping reserved keys case-insensitively", () => {
    const out = parse("# Orders\nA\nB", { reservedKeys: ["ORDERS_1", "orders_3"] });
    expect(out.map((entry) => entry.key)).toEqual(["orders_2", "orders_4"]);
  });

  it("keeps a named key even when it is reserved, and never reuses one", () => {
    const out = parse("A | key: orders_1\nB | key: orders_1\n# Orders\nC", { reservedKeys: ["orders_1"] });
    expect(out.map((entry) => entry.key)).toEqual(["orders_1", "scenario_1", "orders_2"]);
  });

  it("does not generate a key a later entry names", () => {
    expect(parse("A\nB | key: scenario_1").map((entry) => entry.key)).toEqual(["scenario_2", "scenario_1"]);
  });

  it("prefixes generated keys, not named ones", () => {
    const out = parse("# Orders\nA\nB | key: refund_window", { keyPrefix: "Batch 2!" });
    expect(out.map((entry) => entry.key)).toEqual(["batch_2_orders_1", "refund_window"]);
  });

  it("cuts the prefix to 40 and the group to 30 characters", () => {
    const [entry] = parse(`# ${"g".repeat(50)}\nA`, { keyPrefix: "p".repeat(60) });
    expect(entry.key).toBe(`${"p".repeat(40)}_${"g".repeat(30)}_1`);
  });

  it("rejects a prefix with no letters or digits, and ignores a blank one", () => {
    expect(() => parse("A", { keyPrefix: "!!!" })).toThrowError(ParseError);
    expect(() => parse("A", { keyPrefix: "---" })).toThrow(new ParseError('"---" has no letters or digits a key can use', { path: "keyPrefix" }));
    expect(() => parse("A", { keyPrefix: "!!" })).toThrow(/^keyPrefix: "!!" has no letters or digits a key can use$/);
    expect(parse("A", { keyPrefix: "  " })[0].key).toBe("scenario_1");
  });

  it("falls back to `scenario` when the group parameterizes to nothing", () => {
    expect(parse("# !!!\nA")[0].key).toBe("scenario_1");
  });

  it("filters production-only entries after keys and positions are assigned", () => {
    const text = '[{"prompt": "a"}, {"prompt": "b", "production_only": true}, {"prompt": "c"}]';
    const out = parse(text, { includeProductionOnly: false });
    expect(out.map((entry) => [entry.key, entry.position])).toEqual([["scenario_1", 0], ["scenario_3", 2]]);
  });
});

describe("bad input", () => {
  it.each([
    ["a line with no prompt", "`` — only notes", "line 1: each evaluation scenario must contain a prompt"],
    ["a JSON object with no prompt", '[{"key": "a"}]', "[0].prompt: each evaluation scenario must contain a prompt"],
    ["a repeated JSON key", fixture("invalid/repeated_key.json"), 'line 3: repeated key "key" in one object'],
    ["a repeated YAML key", "suite: s\ngroups:\n  - key: a\n    key: b\n    scenarios: []", "line 4: invalid evaluation suite YAML: repeated key"],
    ["a repeated scenario key in one group", "suite: s\ngroups:\n  - scenarios:\n    - {key: a, prompt: x}\n    - {key: a, prompt: y}", 'groups[0].scenarios[1].key: repeats key "a"'],
    ["a non-string tool name", '[{"prompt": "p", "expect": {"tools": ["a", {"b": 1}]}}]', "[0].expect.tools[1]: tool name must be a string"],
    ["a numeric tool name in YAML", "suite: s\ngroups:\n  - scenarios:\n    - {prompt: p, tools: [7]}", "groups[0].scenarios[0].tools[0]: tool name must be a string"],
    ["a regex that does not compile (line)", "# A\n\nB | not_contains: /(?<x/", "line 3: not_contains: /(?<x/ is not a valid regular expression"],
    ["a regex that does not compile (JSON)", '[{"prompt": "p", "contains": ["/[a-/"]}]', "[0].contains[0]: /[a-/ is not a valid regular expression"],
    ["a typo inside a JSON scenario's expect", '[{"prompt": "p", "expect": {"contain": "x"}}]', "[0].expect.contain: unknown key; a scenario's expectations take tools, contains and not_contains (did you mean contains?)"],
    ["a typo inside JSON expectations, even when a top-level key replaces them", '{"scenarios": [{"prompt": "p", "tools": ["a"], "expectations": {"Tools": ["b"]}}]}', "scenarios[0].expectations.Tools: unknown key; a scenario's expectations take tools, contains and not_contains (did you mean tools?)"],
    ["a typo inside a grouped JSON suite's expect", '{"groups": [{"scenarios": [{"prompt": "p", "expect": {"tool": "a"}}]}]}', "groups[0].scenarios[0].expect.tool: unknown key; a scenario's expectations take tools, contains and not_contains (did you mean tools?)"],
    ["a typo inside a grouped YAML suite's expect", "suite: s\ngroups:\n  - scenarios:\n    - {prompt: p, expect: {not-contains: x}}", "groups[0].scenarios[0].expect.not-contains: unknown key; a scenario's expectations take tools, contains and not_contains (did you mean not_contains?)"],
  ])("rejects %s", (_name, text, message) => {
    expect(() => parse(text)).toThrowError(ParseError);
    expect(() => parse(text)).toThrow(message);
  });

  it("refuses a JSON integer past 2^53 with its line and path, as YAML text does, and keeps every other number", () => {
    const rule = (source: string) => `the integer ${source} is beyond ±9007199254740991, past which numbers are not exact, so it would not be kept as written; quote it ("${source}") to keep it as text`;
    const text = '[\n  {"prompt": "a", "params": {"n": 12, "ids": [1, -9007199254740991]}},\n  {"prompt": "b", "params": {"ids": [3, -1234567890123456789]}}\n]';
    expect(() => parse(text)).toThrowError(ParseError);
    expect(() => parse(text)).toThrow(`line 3, [1].params.ids[1]: ${rule("-1234567890123456789")}`);
    expect(() => parse('{"scenarios": [{"prompt": "p", "params": {"user_id": 9007199254740993}}]}')).toThrow(rule("9007199254740993"));
    // Numbers in strings, safe integers, fractions and exponents read as before.
    const fine = parse('[{"prompt": "id 1234567890123456789", "params": {"a": 9007199254740991, "b": 1.5e300, "c": 12345678901234567890.5, "d": "1234567890123456789"}}]');
    expect(fine[0].prompt).toBe("id 1234567890123456789");
  });

  it("counts lines from the text's first line, blank lines pasted above the scenarios included", () => {
    expect(() => parse("\n\n  Where is it?\nB | contains: /(/")).toThrow("line 4: contains: /(/ is not a valid regular expression");
    expect(() => parse('\n[\n{"prompt": "a", "key": "k"},\n{"prompt": "b", "key": "k", "key": "j"}]')).toThrow('line 4: repeated key "key" in one object');
    expect(() => parse("\n\nsuite: s\ngroups:\n  - key: a\n    key: b\n    scenarios: []")).toThrow("line 6: invalid evaluation suite YAML: repeated key");
  });

  it("gives each scenario the line it was read from, none when read from JSON or YAML", () => {
    const located = ScenarioParser.located("\n# Orders\n\nWhere is it?\n- Cancel it | key: c\n", { keyPrefix: "p" });
    expect(located.map(({ scenario, line }) => [scenario.key, line])).toEqual([["p_orders_1", 4], ["c", 5]]);
    expect(ScenarioParser.located('[{"prompt": "a"}]').map(({ line }) => line)).toEqual([null]);
  });

  it("treats /path/like/text with unknown flags as a literal", () => {
    expect(parse("Where is /etc/hosts | contains: /etc/hosts")[0].expectations).toEqual({ contains: ["/etc/hosts"] });
  });

  it("rejects more than 2,000 scenarios and accepts exactly 2,000", () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `Question ${i}`).join("\n");
    expect(parse(lines(2000))).toHaveLength(2000);
    expect(() => parse(lines(2001))).toThrow("paste has 2,001 scenarios; at most 2,000 are allowed");
  });

  it("rejects a document over 2 MB before reading it", () => {
    const text = "x".repeat(2 * 1024 * 1024 + 1);
    expect(() => parse(text)).toThrow(/bytes; at most 2,097,152 \(2 MB\)/);
  });

  it("counts UTF-8 bytes, not characters, against the 2 MB limit", () => {
    const text = "é".repeat(1024 * 1024 + 1);
    expect(() => parse(text)).toThrowError(ParseError);
  });
});
