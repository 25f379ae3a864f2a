// What createEvaluation, replaceScenarios and mergeScenarios select from the text or list they
// are given (guide "Suites": production-only questions are selected at import, create and
// replace leave them out unless asked, a selection with no scenarios is an import error that
// writes nothing), and that the suite they answer can be sent back as it is.
import { beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;

beforeAll(async () => {
  p = await startPlatform();
  return () => p.close();
}, 60_000);

const NOTHING_MATCHED = "No scenarios matched the import. Check the catalog or include_production_only selection.";
const SUITE = [
  "suite: s",
  "groups:",
  "  - key: orders",
  "    scenarios:",
  "      - key: o1",
  "        prompt: Which open tickets mention a refund?",
  "        production_only: true",
  "      - key: o2",
  "        prompt: Where is my order?",
].join("\n");
const PRODUCTION_ONLY = "suite: s\ngroups:\n  - key: orders\n    scenarios:\n      - key: o1\n        prompt: Which open tickets mention a refund?\n        production_only: true\n";

const CREATE = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId evaluation { scenarios { edges { node { key position } } } } } }`;
const REPLACE = `mutation ($id: ID!, $t: String, $s: JSON, $p: Boolean) { replaceScenarios(evaluationId: $id, scenariosText: $t, scenarios: $s, includeProductionOnly: $p) { added updated unchanged removed } }`;
const MERGE = `mutation ($id: ID!, $t: String, $s: JSON, $p: Boolean, $k: String) { mergeScenarios(evaluationId: $id, scenariosText: $t, scenarios: $s, includeProductionOnly: $p, keyPrefix: $k) { added updated unchanged } }`;
const SCENARIOS = `query ($id: ID!) { evaluation(id: $id) { scenarios { edges { node { key enabled } } } } }`;

const eventCount = async () => (await p.store.readAll({ limit: 100_000 })).length;

/** Sends `query` and expects VALIDATION with `message` on `field`, the event log left as it was. */
async function refused(query: string, variables: Record<string, unknown>, message: string, field: string): Promise<void> {
  const before = await eventCount();
  const res = await p.gql(p.keys.acmeWrite, query, variables);
  expect(res.body.errors?.[0], JSON.stringify(res.body)).toMatchObject({ message, extensions: { code: "VALIDATION", field } });
  expect(await eventCount()).toBe(before);
}

async function created(input: Record<string, unknown>): Promise<{ id: string; scenarios: Array<{ key: string; position: number }> }> {
  const res = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "A", ...input } });
  expect(res.body.errors, JSON.stringify(res.body)).toBeUndefined();
  return { id: res.body.data.createEvaluation.evaluationId, scenarios: nodes(res.body.data.createEvaluation.evaluation.scenarios) };
}

describe("createEvaluation: a given source must select scenarios", () => {
  it("refuses text whose scenarios are all production-only, writing nothing and reserving no name", async () => {
    await refused(CREATE, { input: { agent: "A", name: "Production", scenariosText: PRODUCTION_ONLY } }, NOTHING_MATCHED, "input.scenariosText");
    const list = [{ key: "o1", prompt: "Which open tickets mention a refund?", production_only: true }];
    await refused(CREATE, { input: { agent: "A", name: "Production", scenarios: list } }, NOTHING_MATCHED, "input.scenarios");
    // The name was not taken: the same request with includeProductionOnly makes it.
    expect((await created({ name: "Production", scenariosText: PRODUCTION_ONLY, includeProductionOnly: true })).scenarios).toEqual([{ key: "o1", position: 0 }]);
  });

  it("refuses blank text and an empty list; with neither, the evaluation starts with no scenarios", async () => {
    await refused(CREATE, { input: { agent: "A", name: "Blank", scenariosText: "  \n " } }, "No scenarios found in the pasted text", "input.scenariosText");
    await refused(CREATE, { input: { agent: "A", name: "Blank", scenarios: [] } }, "No scenarios found in the list", "input.scenarios");
    // An evaluation with no scenarios yet is one a suite is merged into, or reports imported into.
    expect((await created({ name: "Blank" })).scenarios).toEqual([]);
  });

  it("refuses scenarios given beside fromCatalogSet, naming both (they were silently ignored)", async () => {
    for (const [field, value] of [["scenariosText", "An extra question | key: extra"], ["scenarios", [{ key: "extra", prompt: "An extra question" }]]] as const) {
      const message = `give fromCatalogSet or ${field}, not both: a catalog set brings its own scenarios`;
      await refused(CREATE, { input: { fromCatalogSet: "support_desk/triage/smoke", name: `mixed ${field}`, [field]: value } }, message, `input.${field}`);
    }
  });

  it("names the argument a malformed text or keyPrefix came in", async () => {
    const yaml = "suite: s\ngroups:\n  - key: g\n    scenarios: [ {prompt: a";
    const res = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "A", name: "Bad YAML", scenariosText: yaml } });
    expect(res.body.errors[0].extensions).toEqual({ code: "VALIDATION", field: "input.scenariosText" });
    expect(res.body.errors[0].message).toMatch(/^line \d+: invalid evaluation suite YAML: /);
    const { id } = await created({ name: "Prefixed", scenariosText: "Hello" });
    await refused(MERGE, { id, t: "# Orders\nWhere is it?", k: "!!" }, 'keyPrefix: "!!" has no letters or digits a key can use', "keyPrefix");
  });
});

// A scenario of the text that the suite cannot hold is refused naming the argument the text came
// in and the line it sits on: it named `input.scenarios[0].prompt`, a field the request never sent.
describe("a scenario the text holds that the suite cannot store", () => {
  const longKey = "k".repeat(201);

  it("createEvaluation names input.scenariosText and the scenario's line", async () => {
    const long = "x".repeat(70_000);
    await refused(CREATE, { input: { agent: "A", name: "longline", scenariosText: long } }, "line 1: prompt: Too big: expected string to have <=65535 characters", "input.scenariosText");
    const text = `\nFirst question\n\nSecond | key: ${longKey}`;
    await refused(CREATE, { input: { agent: "A", name: "longkey", scenariosText: text } }, "line 4: key: Too big: expected string to have <=200 characters", "input.scenariosText");
    // Read from JSON or YAML, the scenario has no line: it is named by its place in the text.
    const json = JSON.stringify([{ prompt: "a" }, { prompt: "b", key: longKey }]);
    await refused(CREATE, { input: { agent: "A", name: "jsonkey", scenariosText: json } }, "scenario 2: key: Too big: expected string to have <=200 characters", "input.scenariosText");
  });

  it("replaceScenarios and mergeScenarios name scenariosText, and records given as JSON keep their path", async () => {
    const { id } = await created({ name: "Stored", scenariosText: "Hello" });
    const text = `Hello\nSecond | key: ${longKey}`;
    const message = "line 2: key: Too big: expected string to have <=200 characters";
    await refused(REPLACE, { id, t: text }, message, "scenariosText");
    await refused(MERGE, { id, t: text }, message, "scenariosText");
    const records = [{ key: "a", prompt: "a" }, { key: longKey, prompt: "b" }];
    const res = await p.gql(p.keys.acmeWrite, REPLACE, { id, s: records });
    expect(res.body.errors?.[0].extensions).toEqual({ code: "VALIDATION", field: "scenarios[1].key" });
    const create = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "A", name: "jsonrecords", scenarios: records } });
    expect(create.body.errors?.[0].extensions).toEqual({ code: "VALIDATION", field: "input.scenarios[1].key" });
  });

  it("leaves out a production-only scenario the text does not select, whatever it holds", async () => {
    const text = `suite: s\ngroups:\n  - key: g\n    scenarios:\n      - {key: ${longKey}, prompt: p, production_only: true}\n      - {key: ok, prompt: q}`;
    expect((await created({ name: "unselected", scenariosText: text })).scenarios).toEqual([{ key: "ok", position: 1 }]);
  });
});

describe("replaceScenarios and mergeScenarios: includeProductionOnly", () => {
  it("replace takes includeProductionOnly at the top level: the document re-sent with it changes nothing", async () => {
    const { id, scenarios } = await created({ name: "Both", scenariosText: SUITE, includeProductionOnly: true });
    expect(scenarios).toEqual([{ key: "o1", position: 0 }, { key: "o2", position: 1 }]);
    const same = await p.gql(p.keys.acmeWrite, REPLACE, { id, t: SUITE, p: true });
    expect(same.body.data.replaceScenarios).toEqual({ added: [], updated: [], unchanged: ["o1", "o2"], removed: [] });
    // Without it the production-only scenario goes, and the one that stays keeps its position.
    const without = await p.gql(p.keys.acmeWrite, REPLACE, { id, t: SUITE });
    expect(without.body.data.replaceScenarios).toEqual({ added: [], updated: [], unchanged: ["o2"], removed: ["o1"] });
    expect(nodes((await p.gql(p.keys.acmeRead, SCENARIOS, { id })).body.data.evaluation.scenarios)).toEqual([{ key: "o2", enabled: true }]);
  });

  it("says a text whose scenarios were all filtered out selected none, rather than that it held none", async () => {
    const { id } = await created({ name: "Filtered", scenariosText: "Hello" });
    await refused(REPLACE, { id, t: PRODUCTION_ONLY }, NOTHING_MATCHED, "scenariosText");
    await refused(MERGE, { id, t: PRODUCTION_ONLY, p: false }, NOTHING_MATCHED, "scenariosText");
    await refused(REPLACE, { id, s: [] }, "No scenarios found in the list", "scenarios");
  });

  it("merge keeps production-only scenarios unless told not to, as the guide's parse does", async () => {
    const { id } = await created({ name: "Merged", scenariosText: "Hello | key: hello" });
    const merged = await p.gql(p.keys.acmeWrite, MERGE, { id, t: SUITE });
    expect(merged.body.data.mergeScenarios).toEqual({ added: ["o1", "o2"], updated: [], unchanged: [] });
    const again = await p.gql(p.keys.acmeWrite, MERGE, { id, t: SUITE });
    expect(again.body.data.mergeScenarios).toEqual({ added: [], updated: [], unchanged: ["o1", "o2"] });
  });
});

describe("the suite as answered goes back as it is", () => {
  it("answers a catalog scenario's tags and params, and replaceScenarios takes them back unchanged", async () => {
    const yaml = "catalog: tagged\nproducts:\n  - key: p\n    agent: A\n    sets:\n      - key: s\n        scenarios:\n          - {key: a, prompt: hi, tags: [vip, billing], params: {locale: en, order: {id: 42, items: [1, 2]}}}\n          - {key: b, prompt: hello}\n";
    expect((await p.gql(p.keys.acmeWrite, `mutation ($y: String!) { importCatalog(yaml: $y) { key } }`, { y: yaml })).body.errors).toBeUndefined();
    const res = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "tagged/p/s" }) { evaluationId evaluation { scenarios { edges { node { key prompt group groupName notes position enabled expectations tags params } } } } } }`);
    const id = res.body.data.createEvaluation.evaluationId;
    const answered = nodes(res.body.data.createEvaluation.evaluation.scenarios);
    expect(answered.map(({ key, tags, params }: Record<string, unknown>) => ({ key, tags, params }))).toEqual([
      { key: "a", tags: ["vip", "billing"], params: { locale: "en", order: { id: 42, items: [1, 2] } } },
      { key: "b", tags: [], params: {} },
    ]);
    const back = await p.gql(p.keys.acmeWrite, REPLACE, { id, s: answered });
    expect(back.body.data.replaceScenarios).toEqual({ added: [], updated: [], unchanged: ["a", "b"], removed: [] });
    // The run hands the agent the params the catalog gave.
    const read = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { scenarios { edges { node { key tags params } } } } }`, { id });
    expect(nodes(read.body.data.evaluation.scenarios)[0]).toEqual({ key: "a", tags: ["vip", "billing"], params: { locale: "en", order: { id: 42, items: [1, 2] } } });
  });

  it("keeps what was selected, not the production-only flag it was selected by, so a selected suite round-trips too", async () => {
    const { id } = await created({ name: "Selected", scenariosText: SUITE, includeProductionOnly: true });
    const answered = nodes((await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { scenarios { edges { node { key prompt group groupName notes position enabled expectations tags params } } } } }`, { id })).body.data.evaluation.scenarios);
    expect(answered.map((s: { key: string }) => s.key)).toEqual(["o1", "o2"]);
    const back = await p.gql(p.keys.acmeWrite, REPLACE, { id, s: answered });
    expect(back.body.data.replaceScenarios).toEqual({ added: [], updated: [], unchanged: ["o1", "o2"], removed: [] });
  });
});
