// Inputs that used to be accepted and then failed later, far from where they were given (an
// `internal error`, a refusal naming a field the caller never sent, a silently different run):
// each is refused where it is given, with VALIDATION naming the field and the rule, and nothing
// is appended.
import { beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;

beforeAll(async () => {
  p = await startPlatform();
  return () => p.close();
}, 60_000);

/** Sends `query` and expects one VALIDATION error with `message`, the event log left as it was. */
async function refused(query: string, variables: Record<string, unknown>, message: string | RegExp): Promise<{ message: string; extensions: Record<string, unknown> }> {
  const before = (await p.store.readAll({ limit: 10_000 })).length;
  const res = await p.gql(p.keys.acmeWrite, query, variables);
  expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(res.body)).toBe("VALIDATION");
  if (typeof message === "string") expect(res.body.errors[0].message).toBe(message);
  else expect(res.body.errors[0].message).toMatch(message);
  expect((await p.store.readAll({ limit: 10_000 })).length).toBe(before);
  return res.body.errors[0];
}

const IMPORT = `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`;

describe("importCatalog", () => {
  it("refuses a recursive alias with its line instead of an internal error, naming the argument `yaml`", async () => {
    const error = await refused(IMPORT, { yaml: "catalog: c8\na: &a [*a]" }, "line 2: the catalog is not valid YAML: alias *a is inside the node its anchor &a names, so the value would contain itself");
    expect(error.extensions.field).toBe("yaml");
  });

  it("refuses an integer no number holds exactly, with its line and path, instead of rounding it", async () => {
    const yaml = "catalog: big\nproducts:\n  - key: p\n    sets:\n      - key: s\n        scenarios:\n          - {key: a, prompt: hi, params: {user_id: 1234567890123456789}}\n";
    const error = await refused(IMPORT, { yaml }, 'line 7, products[0].sets[0].scenarios[0].params.user_id: the integer 1234567890123456789 is beyond ±9007199254740991, past which numbers are not exact, so it would not be kept as written; quote it ("1234567890123456789") to keep it as text');
    expect(error.extensions.field).toBe("yaml");
  });

  it("refuses a blank or comments-only document as empty (a comments-only one said the catalog has no key)", async () => {
    for (const yaml of ["  \n\n", "# catalog: later\n"]) {
      const error = await refused(IMPORT, { yaml }, "document is empty (nothing but blank lines or comments): there is no catalog in it");
      expect(error.extensions.field).toBe("yaml");
    }
  });

  // `prodcts:` kept as metadata imported an empty catalog: every evaluation made from it disabled.
  it("refuses a misspelt products: naming the key meant, appending nothing", async () => {
    const yaml = "catalog: typo\nprodcts:\n  - key: p\n    sets:\n      - key: s\n        scenarios:\n          - {key: a, prompt: hi}\n";
    const error = await refused(IMPORT, { yaml }, "prodcts: not a key catalogs read; did you mean products? (a catalog without products would remove every scenario it held)");
    expect(error.extensions.field).toBe("yaml");
  });

  it("refuses a second document saying one is expected, not with the yaml library's advice", async () => {
    const error = await refused(IMPORT, { yaml: "catalog: m1\nproducts: []\n---\ncatalog: m2\n" }, "line 3: the catalog is not valid YAML: one YAML document is expected, and a second one starts here (after a `---` or `...` line)");
    expect(error.extensions.field).toBe("yaml");
  });

  it("refuses a catalog key it cannot store naming the document's `catalog:` (it named `key`), and a set key too long for its scenarios' group naming the set's key", async () => {
    const rule = '1-100 ASCII letters (a-z, A-Z), digits, "_" or "-", starting with a letter or digit, without "--"';
    const dotted = await refused(IMPORT, { yaml: "catalog: acme.support\nproducts: []\n" }, `catalog: "acme.support" cannot key a stored catalog: a key is ${rule}`);
    expect(dotted.extensions.field).toBe("yaml");
    // A long one is shown by its start and length, not repeated whole.
    await refused(IMPORT, { yaml: `catalog: ${"k.".repeat(5000)}\nproducts: []\n` }, `catalog: "${"k.".repeat(50)}"… (10000 characters) cannot key a stored catalog: a key is ${rule}`);
    const longSet = "s".repeat(211);
    const yaml = `catalog: c6\nproducts:\n  - key: p\n    agent: A\n    sets:\n      - key: ${longSet}\n        scenarios:\n          - {key: a, prompt: hi}\n`;
    await refused(IMPORT, { yaml }, "products[0].sets[0].key: must be at most 200 characters (it has 211): a set's key is the group of its scenarios");
  });

  it("names a refusal of what the import would record as the document's: field `yaml`, the path in the document (it named the event's `data.metadata...`)", async () => {
    const scenario = (key: string) => `catalog: store1\nproducts:\n  - key: p\n    agent: A\n    sets:\n      - key: s\n        scenarios:\n          - {key: ${JSON.stringify(key)}, prompt: hi}\n`;
    // A NUL in a key is now refused before that, as a control character (README "Keys, labels and tool names").
    const nul = await refused(IMPORT, { yaml: scenario("a\u0000b") }, /^products\[0\]\.sets\[0\]\.scenarios\[0\]\.key: must not contain U\+0000 NULL \(at character 2\)/);
    expect(nul.extensions.field).toBe("yaml");
    const long = await refused(IMPORT, { yaml: scenario("k".repeat(300)) }, /^the catalog cannot be stored: products\[0\]\.sets\[0\]\.scenarios\[0\]\.key: Too big/);
    expect(long.extensions.field).toBe("yaml");
    const meta = await refused(IMPORT, { yaml: `catalog: store2\nextra: {"a\\0": 1}\nproducts: []\n` }, /^the catalog cannot be stored: extra/);
    expect(meta.extensions.field).toBe("yaml");
  });

  it("reaches a set whose product or set key holds a slash, and refuses two sets that would share one path", async () => {
    const yaml = "catalog: slash\nproducts:\n  - key: web/app\n    agent: A\n    sets:\n      - key: smoke\n        scenarios:\n          - {key: a, prompt: hi}\n      - key: nightly/full\n        scenarios:\n          - {key: b, prompt: hello}\n";
    expect((await p.gql(p.keys.acmeWrite, IMPORT, { yaml })).body.errors).toBeUndefined();
    const created = await p.gql(p.keys.acmeWrite, CREATED_SCENARIOS, { input: { fromCatalogSet: "slash/web/app/smoke" } });
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createEvaluation.evaluation).toMatchObject({ name: "slash/web/app/smoke", catalog: { product_key: "web/app", set_key: "smoke" } });
    const nightly = await p.gql(p.keys.acmeWrite, CREATED_SCENARIOS, { input: { fromCatalogSet: "slash/web/app/nightly/full" } });
    expect(nodes(nightly.body.data.createEvaluation.evaluation.scenarios).map((s: { key: string }) => s.key)).toEqual(["b"]);
    const missing = await p.gql(p.keys.acmeWrite, CREATED_SCENARIOS, { input: { fromCatalogSet: "slash/web/app/weekly" } });
    expect(missing.body.errors[0]).toMatchObject({ message: 'no set "weekly" in product "web/app" of catalog slash', extensions: { code: "NOT_FOUND", field: "input.fromCatalogSet" } });
    const noProduct = await p.gql(p.keys.acmeWrite, CREATED_SCENARIOS, { input: { fromCatalogSet: "slash/web/site/smoke" } });
    expect(noProduct.body.errors[0]).toMatchObject({ message: 'no product "web" or "web/site" in catalog slash', extensions: { code: "NOT_FOUND" } });
    const clash = "catalog: clash\nproducts:\n  - key: a/b\n    sets:\n      - key: c\n        scenarios: [{key: x, prompt: one}]\n  - key: a\n    sets:\n      - key: b/c\n        scenarios: [{key: y, prompt: two}]\n";
    const error = await refused(IMPORT, { yaml: clash }, 'products[1].sets[0].key: set "b/c" of product "a" and set "c" of product "a/b" are both clash/a/b/c, so that path could name either; rename one');
    expect(error.extensions.field).toBe("yaml");
  });

  it("layers two sets with one key in a product, so fromCatalogSet reaches what both hold (it reached the first only)", async () => {
    const yaml = "catalog: dup\nproducts:\n  - key: p\n    agent: A\n    sets:\n      - key: smoke\n        scenarios: [{key: a, prompt: one}]\n      - key: smoke\n        name: Smoke (local overrides)\n        scenarios: [{key: a, prompt: two}, {key: b, prompt: three}]\n";
    expect((await p.gql(p.keys.acmeWrite, IMPORT, { yaml })).body.errors).toBeUndefined();
    const created = await p.gql(p.keys.acmeWrite, CREATED_SCENARIOS, { input: { fromCatalogSet: "dup/p/smoke" } });
    expect(nodes(created.body.data.createEvaluation.evaluation.scenarios).map((s: { key: string; prompt: string }) => `${s.key}:${s.prompt}`)).toEqual(["a:two", "b:three"]);
  });

  it("keeps a suite's name and description on the catalog it is imported as", async () => {
    const yaml = "suite: support_bot\nname: Support bot\ndescription: The questions the support team fields every week\ngroups:\n  - key: orders\n    scenarios: [{key: o1, prompt: Where is my order?}]\n";
    expect((await p.gql(p.keys.acmeWrite, IMPORT, { yaml })).body.errors).toBeUndefined();
    const read = await p.gql(p.keys.acmeRead, `{ catalog(key: "support_bot") { name description } }`);
    expect(read.body.data.catalog).toEqual({ name: "Support bot", description: "The questions the support team fields every week" });
  });

  it("refuses a set whose judge no evaluation could take, naming the catalog path (createEvaluation refused it later, naming judge.kind)", async () => {
    const yaml = "catalog: c4\nproducts:\n  - key: p\n    sets:\n      - key: s\n        judge: {kind: weird}\n        scenarios:\n          - key: a\n            prompt: hi";
    await refused(IMPORT, { yaml }, "products[0].sets[0].judge.kind: must be rules, llm or judge_defined");
    const created = await p.gql(p.keys.acmeWrite, CREATE, { input: { fromCatalogSet: "c4/p/s", agent: "A" } });
    expect(created.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });
});

const CREATE = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId } }`;
const CREATED_SCENARIOS = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId evaluation { name catalog scenarios { edges { node { key prompt } } } } } }`;

describe("createEvaluation: scenariosText", () => {
  it("keeps every scenario of a paste whose lines end in a lone CR (all but the last were lost)", async () => {
    const res = await p.gql(p.keys.acmeWrite, CREATED_SCENARIOS, { input: { agent: "A", name: "cr-only", scenariosText: "# Orders\rWhere is my order? | key: a\rCancel it | key: b\r" } });
    expect(res.body.errors).toBeUndefined();
    expect(nodes(res.body.data.createEvaluation.evaluation.scenarios)).toEqual([{ key: "a", prompt: "Where is my order?" }, { key: "b", prompt: "Cancel it" }]);
  });
});

describe("createEvaluation: criteria", () => {
  it("refuses a criterion keyed as a built-in score, and a repeated key, naming the criterion", async () => {
    const input = (criteria: unknown[]) => ({ input: { agent: "A", name: `criteria-${Math.random()}`, scenariosText: "hello", criteria } });
    const reserved = await refused(CREATE, input([{ key: "task_completion", type: "max_latency_ms", config: { ms: 10 } }]), 'input.criteria[0].key: "task_completion" is reserved for the built-in score of the same name');
    expect(reserved.extensions.field).toBe("input.criteria[0].key");
    const repeated = await refused(CREATE, input([{ key: "a", type: "response_present" }, { key: "a", type: "min_length" }]), 'input.criteria[1].key: repeats "a" (first at criteria[0].key)');
    expect(repeated.extensions.field).toBe("input.criteria[1].key");
  });

  it("refuses a typo in a criterion's type or config, naming the input field (the criterion scored null or its rule's default, and answers passed)", async () => {
    const input = (criteria: unknown[]) => ({ input: { agent: "A", name: `criteria-${Math.random()}`, scenariosText: "hello", criteria } });
    const type = await refused(CREATE, input([{ key: "ok", type: "response_present" }, { key: "x", type: "contain", config: { pattern: "refund" } }]), /^input\.criteria\[1\]\.type: unknown criterion type contain; known types: response_present, .* \(did you mean contains\?\)$/);
    expect(type.extensions.field).toBe("input.criteria[1].type");
    const key = await refused(CREATE, input([{ key: "x", type: "min_length", config: { min: 5 } }]), "input.criteria[0].config.min: unknown key; min_length reads chars");
    expect(key.extensions.field).toBe("input.criteria[0].config.min");
  });

  it("refuses them in a catalog set at import, naming the catalog path", async () => {
    const yaml = "catalog: crit\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria: [{ key: expected_tools, type: min_length }]\n        scenarios: [{ key: a, prompt: hi }]";
    await refused(IMPORT, { yaml }, 'products[0].sets[0].criteria[0].key: "expected_tools" is reserved for the built-in score of the same name');
    const typo = "catalog: crit\nproducts:\n  - key: p\n    sets:\n      - key: s\n        criteria: [{ key: long, type: min_length, config: { chars: 5, min: 5 } }]\n        scenarios: [{ key: a, prompt: hi }]";
    await refused(IMPORT, { yaml: typo }, "products[0].sets[0].criteria[0].config.min: unknown key; min_length reads chars");
  });
});

describe("createEvaluation: compareModels", () => {
  const CREATED = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId evaluation { compareModels } } }`;

  it("refuses a blank model, naming its place (startRun then said no compare models were set)", async () => {
    for (const blank of ["", "  "]) {
      const error = await refused(CREATE, { input: { agent: "A", name: `blank-${blank.length}`, scenariosText: "hello", compareModels: ["gpt-5", blank] } }, "input.compareModels[1]: must not be blank");
      expect(error.extensions.field).toBe("input.compareModels[1]");
    }
  });

  it("keeps a model named twice once, as a run's selection.models does", async () => {
    const res = await p.gql(p.keys.acmeWrite, CREATED, { input: { agent: "A", name: "twice", scenariosText: "hello", compareModels: ["gpt-5", "claude-sonnet-5", "gpt-5"] } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createEvaluation.evaluation.compareModels).toEqual(["gpt-5", "claude-sonnet-5"]);
  });
});

describe("a command's rule names the argument the client sent, not the command's field", () => {
  it("in createEvaluation's input, startRun's selection and recordReplay's arguments", async () => {
    const models = Array.from({ length: 51 }, (_, i) => `model-${i}`);
    const tooMany = await refused(`mutation ($m: [String!]) { createEvaluation(input: { agent: "A", name: "Many", compareModels: $m }) { evaluationId } }`, { m: models }, /compare/);
    expect(tooMany.extensions.field).toBe("input.compareModels"); // was compare_models
    // An item of a list argument too (the field named its first part without the input's path).
    const blankModel = await refused(`mutation { createEvaluation(input: { agent: "A", name: "Blank model", compareModels: ["a", " "] }) { evaluationId } }`, {}, /./);
    expect(blankModel.extensions.field).toBe("input.compareModels[1]");
    const blankKey = await refused(`mutation { createEvaluation(input: { agent: "A", name: "Blank key", scenarios: [{ key: "", prompt: "p" }] }) { evaluationId } }`, {}, /./);
    expect(blankKey.extensions.field).toBe("input.scenarios[0].key");
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Arguments", scenarios: [{ key: "where", prompt: "Where is my order?" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const evaluationId = created.body.data.createEvaluation.evaluationId;
    const blank = await refused(`mutation ($id: ID!) { startRun(evaluationId: $id, selection: { models: [" "] }) { runId } }`, { id: evaluationId }, /model/i);
    expect(blank.extensions.field).toBe("selection.models"); // was models
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: evaluationId });
    const runId = started.body.data.startRun.runId;
    // A pair outside the selection is refused as VALIDATION too, though not a bad input alone:
    // it fails the external run (externalPairs.test.ts), so this one appends RunFailed.
    const before = (await p.store.readAll({ limit: 10_000 })).length;
    const outside = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "elsewhere", modelLabel: "gpt-5-mini", replay: { answer: "Hi" }) { runId } }`, { r: runId });
    expect(outside.body.errors[0]).toMatchObject({ message: expect.stringMatching(/elsewhere/), extensions: { code: "VALIDATION", field: "scenarioKey" } }); // was scenario_key
    expect((await p.store.readAll({ limit: 10_000 })).slice(before).map((e) => e.type)).toEqual(["RunFailed"]);
  });
});

// JavaScript reads `__proto__` on an object as its prototype, so the records keyed by scenario
// keys and model labels cannot hold it: such a run was stored, replayed and metered, and then its
// report answered 500 for good (a model so named failed the run after every pair was paid for).
describe("the name `__proto__` as a scenario key or model label", () => {
  const RULE = 'must not be "__proto__" (JavaScript objects cannot hold that name as a key)';

  it("is refused in createEvaluation's scenarios and compareModels, naming the field", async () => {
    const key = await refused(CREATE, { input: { agent: "A", name: "proto-key", scenarios: [{ key: "ok", prompt: "p" }, { key: " __proto__ ", prompt: "p" }] } }, `command is invalid: input.scenarios[1].key: ${RULE}`);
    expect(key.extensions.field).toBe("input.scenarios[1].key");
    const model = await refused(CREATE, { input: { agent: "A", name: "proto-model", scenariosText: "hello", compareModels: ["gpt-5", "__proto__"] } }, `command is invalid: input.compareModels[1]: ${RULE}`);
    expect(model.extensions.field).toBe("input.compareModels[1]");
    await refused(CREATE, { input: { agent: "A", name: "proto-paste", scenariosText: "Where is my order? | key: __proto__" } }, /__proto__.*JavaScript objects cannot hold that name/);
  });

  it("is refused in a run's selection of models", async () => {
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "proto-run", scenarios: [{ key: "a", prompt: "Hi" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const id = created.body.data.createEvaluation.evaluationId;
    const error = await refused(`mutation ($id: ID!) { startRun(evaluationId: $id, selection: { models: ["__proto__"] }) { runId } }`, { id }, /__proto__.*JavaScript objects cannot hold that name/);
    expect(error.extensions.field).toBe("selection.models[0].label");
  });

  it("is refused in an imported catalog, naming its path, for a product, a set or a scenario", async () => {
    const doc = (product: string, set: string, scenario: string) => `catalog: proto\nproducts:\n  - key: ${product}\n    sets:\n      - key: ${set}\n        scenarios: [{ key: ${scenario}, prompt: hi }]\n`;
    await refused(IMPORT, { yaml: doc("__proto__", "s", "a") }, `products[0].key: ${RULE}`);
    await refused(IMPORT, { yaml: doc("p", "__proto__", "a") }, `products[0].sets[0].key: ${RULE}`);
    await refused(IMPORT, { yaml: doc("p", "s", "__proto__") }, `products[0].sets[0].scenarios[0].key: ${RULE}`);
    const suite = (group: string, scenario: string) => `suite: proto_suite\ngroups:\n  - key: ${group}\n    scenarios: [{key: ${scenario}, prompt: hi}]\n`;
    await refused(IMPORT, { yaml: suite("g", "__proto__") }, /__proto__.*JavaScript objects cannot hold that name/);
    await refused(IMPORT, { yaml: suite("__proto__", "a") }, /__proto__.*JavaScript objects cannot hold that name/);
  });

  it("is refused in an imported report's models and results", async () => {
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "proto-import", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const id = created.body.data.createEvaluation.evaluationId;
    const IMPORT_REPORT = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`;
    const envelope = (label: string, key: string) => ({
      version: 1, run_id: `proto-${label}-${key}`, source: "ci", agent_name: "A", suite: "s",
      report: { models: JSON.parse(`{${JSON.stringify(label)}: {"provider": "openai", "model": "m"}}`), results: [{ scenario_key: key, label, status: "passed", score: 1, prompt: "Hi" }] },
    });
    await refused(IMPORT_REPORT, { id, e: envelope("__proto__", "a") }, `envelope.report.models: a label ${RULE}`);
    await refused(IMPORT_REPORT, { id, e: envelope("gpt-5-mini", "__proto__") }, `report.results[0].scenario_key ${RULE}`);
  });
});
