// createEvaluation keeps an evaluation name unique per agent of a tenant (reference-platform §1),
// whichever way the evaluation is made: scenarios given, or a catalog set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import type { EventStore } from "@verdict/domain";
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

  it("answers the set's evaluation when a catalog set is made into one twice for the same agent (re-synced, not a second one)", async () => {
    const set = "support_desk/triage/smoke";
    const first = await create(p.keys.acmeWrite, { set });
    expect(first.body.errors).toBeUndefined();
    const again = await create(p.keys.acmeWrite, { set });
    expect(again.body).toEqual({ data: { createEvaluation: { evaluationId: first.body.data.createEvaluation.evaluationId } } });
    // A pasted suite under the set's name is not the set's evaluation: still a CONFLICT.
    const pasted = await create(p.keys.acmeWrite, { agent: "SupportAgent", name: `${set} (pasted)`, text: "Hello" });
    expect(pasted.body.errors).toBeUndefined();
    const clash = await create(p.keys.acmeWrite, { set, name: `${set} (pasted)` });
    expect(clash.body.errors[0]).toMatchObject({ message: `input.name: an evaluation named "${set} (pasted)" already exists for agent "SupportAgent"`, extensions: { code: "CONFLICT", field: "input.name" } });
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

describe("createEvaluation from a catalog set, several identical calls at once", () => {
  it("answers every call with the one evaluation they made", async () => {
    // An evaluation's creation lands a moment after its name's reservation (as on PostgreSQL
    // under load): the calls that lost the reservation answered CONFLICT "its creation has not
    // finished", where the same call a moment later answers the evaluation.
    const memory = createMemoryEventStore();
    const store: EventStore = {
      ...memory,
      append: async (streamId, events, options) => {
        if (streamId.startsWith("evaluation-")) await new Promise((resolve) => setTimeout(resolve, 100));
        return memory.append(streamId, events, options);
      },
    };
    const racing = await startPlatform({ store });
    try {
      expect((await racing.gql(racing.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML })).body.errors).toBeUndefined();
      const answers = await Promise.all([1, 2, 3].map(() => racing.gql(racing.keys.acmeWrite, CREATE, { set: "support_desk/triage/smoke" })));
      for (const answer of answers) expect(answer.body.errors).toBeUndefined();
      expect(new Set(answers.map((a) => a.body.data.createEvaluation.evaluationId)).size).toBe(1);
    } finally {
      await racing.close();
    }
  });
});
