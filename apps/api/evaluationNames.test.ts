// createEvaluation keeps an evaluation name unique per agent of a tenant (reference-platform §1),
// whichever way the evaluation is made: scenarios given, or a catalog set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_YAML, startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
const CREATE = `mutation ($agent: String, $name: String, $set: String, $text: String) {
  createEvaluation(input: { agent: $agent, name: $name, fromCatalogSet: $set, scenariosText: $text }) { evaluationId }
}`;

// Scenarios as text, unless a catalog set brings its own (both together are refused).
const create = (key: string, variables: Record<string, unknown>) => p.gql(key, CREATE, { text: variables.set ? null : "Where is my order?", ...variables });
const names = async (key: string) =>
  (await p.gql(key, "{ evaluations(first: 20) { edges { node { agent name } } } }")).body.data.evaluations.edges.map((e: any) => `${e.node.agent}/${e.node.name}`).sort();

beforeAll(async () => {
  p = await startPlatform();
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
  expect(imported.body.errors).toBeUndefined();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe("createEvaluation: a name is unique per agent", () => {
  it("answers a second evaluation of the agent under a taken name CONFLICT naming `input.name`, and writes nothing", async () => {
    const first = await create(p.keys.acmeWrite, { agent: "A", name: "Orders" });
    expect(first.body.errors).toBeUndefined();
    const logBefore = (await p.store.readAll()).length;
    const again = await create(p.keys.acmeWrite, { agent: "A", name: "Orders" });
    expect(again.body.errors[0]).toMatchObject({
      message: 'input.name: an evaluation named "Orders" already exists for agent "A"',
      extensions: { code: "CONFLICT", field: "input.name" },
    });
    expect((await p.store.readAll()).length).toBe(logBefore);
    expect(await names(p.keys.acmeWrite)).toEqual(["A/Orders"]);
  });

  it("refuses a catalog set made into an evaluation twice for the same agent", async () => {
    const set = "support_desk/triage/smoke";
    expect((await create(p.keys.acmeWrite, { set })).body.errors).toBeUndefined();
    const again = await create(p.keys.acmeWrite, { set });
    expect(again.body.errors[0]).toMatchObject({ message: `input.name: an evaluation named "${set}" already exists for agent "SupportAgent"`, extensions: { code: "CONFLICT", field: "input.name" } });
    // Named otherwise, or for another agent, the set makes a second evaluation.
    expect((await create(p.keys.acmeWrite, { set, name: `${set} (nightly)` })).body.errors).toBeUndefined();
    expect((await create(p.keys.acmeWrite, { set, agent: "BillingAgent" })).body.errors).toBeUndefined();
  });

  it("lets another agent, and another tenant, use the name; the other tenant learns nothing of the first", async () => {
    expect((await create(p.keys.acmeWrite, { agent: "B", name: "Orders" })).body.errors).toBeUndefined();
    const globex = await create(p.keys.globexWrite, { agent: "A", name: "Orders" });
    expect(globex.body.errors).toBeUndefined();
    expect(await names(p.keys.globexWrite)).toEqual(["A/Orders"]);
  });
});
