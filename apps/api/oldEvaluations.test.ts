// Evaluations an older Verdict created, before names were reserved and catalog sets followed:
// their log holds EvaluationCreated (and the suite) on `evaluation-<id>` and nothing else — no
// EvaluationNameReserved, no CatalogSetMaterialized. They are adopted: they hold their name
// (createEvaluation answers CONFLICT), a catalog set's is answered and re-synced by
// createEvaluation(fromCatalogSet), and a re-import of its catalog syncs it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogSetSuite, evaluationAggregate, evaluationStream, handleCommand, lastCatalogImport } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra";
import { CATALOG_YAML, startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;

async function ok<T = any>(key: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const { status, body } = await p.gql<T>(key, query, variables);
  if (body.errors) throw new Error(`${status}: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

const IMPORT = `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { digest syncedEvaluations } }`;
const CREATE = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId } }`;
const SCENARIOS = `query ($id: ID!) { evaluation(id: $id) { scenarios { edges { node { key prompt enabled } } } } }`;
const SET = "support_desk/triage/smoke";
const CHANGED_YAML = CATALOG_YAML.replace("prompt: Hello there", "prompt: Hello there, again").replace(/\n\s+- key: refund[\s\S]*$/, "\n");
const options = { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant: "acme", actor: "older-verdict" } };

/** As createEvaluation wrote before 43c48db: the evaluation's stream alone, no reservation. */
async function oldEvaluation(input: Record<string, unknown>): Promise<string> {
  const id = randomUUID();
  const command = { type: "CreateEvaluation", evaluation_id: id, tenant: "acme", ...input };
  const handled = await handleCommand(p.store, evaluationAggregate, evaluationStream(id), command, options);
  await p.projector.waitFor(handled.position!, 10_000);
  return id;
}

/** As an older createEvaluation(fromCatalogSet) wrote it: the set's suite and its catalog reference. */
async function oldSetEvaluation(): Promise<string> {
  const imported = (await lastCatalogImport(p.store, "acme", "support_desk"))!;
  const suite = catalogSetSuite(imported.products, "triage", "smoke", false)!;
  const catalog = { catalog_key: "support_desk", product_key: "triage", set_key: "smoke", digest: imported.digest };
  return oldEvaluation({ agent: "SupportAgent", name: SET, scenarios: suite.scenarios, judge: suite.judge, criteria: suite.criteria, catalog });
}

beforeAll(async () => {
  p = await startPlatform();
  await ok(p.keys.acmeWrite, IMPORT, { yaml: CATALOG_YAML });
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe("an evaluation created before names were reserved", () => {
  it("holds its name: createEvaluation of the agent under it answers CONFLICT and writes no second evaluation", async () => {
    const old = await oldEvaluation({ agent: "A", name: "Orders", scenarios: [{ key: "a", prompt: "Where is my order?" }] });
    const again = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "A", name: "Orders", scenariosText: "Where is my order?" } });
    expect(again.body.errors?.[0]).toMatchObject({ message: 'input.name: an evaluation named "Orders" already exists for agent "A"', extensions: { code: "CONFLICT" } });
    const named = (await p.store.readAll({ filter: { eventTypes: ["EvaluationCreated"] } })).filter((e) => e.data.agent === "A" && e.data.name === "Orders");
    expect(named.map((e) => e.data.evaluation_id)).toEqual([old]);
    // The name is now reserved for it, as its creation would reserve it today.
    const reserved = await p.store.readAll({ filter: { eventTypes: ["EvaluationNameReserved"] } });
    expect(reserved.filter((e) => e.data.name === "Orders").map((e) => e.data.evaluation_id)).toEqual([old]);
  });

  it("of several under one name, the oldest holds it", async () => {
    const oldest = await oldEvaluation({ agent: "B", name: "Twice", scenarios: [{ key: "a", prompt: "First" }] });
    await oldEvaluation({ agent: "B", name: "Twice", scenarios: [{ key: "a", prompt: "Second" }] });
    expect((await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "B", name: "Twice", scenariosText: "x" } })).body.errors?.[0].extensions.code).toBe("CONFLICT");
    const reserved = await p.store.readAll({ filter: { eventTypes: ["EvaluationNameReserved"] } });
    expect(reserved.filter((e) => e.data.name === "Twice").map((e) => e.data.evaluation_id)).toEqual([oldest]);
  });
});

describe("a catalog set's evaluation created before sets were followed", () => {
  let old: string;

  it("is answered by createEvaluation(fromCatalogSet), not duplicated", async () => {
    old = await oldSetEvaluation();
    expect((await ok(p.keys.acmeWrite, CREATE, { input: { fromCatalogSet: SET } })).createEvaluation.evaluationId).toBe(old);
    const created = await p.store.readAll({ filter: { eventTypes: ["EvaluationCreated"] } });
    expect(created.filter((e) => e.data.name === SET).map((e) => e.data.evaluation_id)).toEqual([old]);
    const catalog = await p.store.readStream("catalog-acme.support_desk");
    expect(catalog.map((e) => e.type)).toEqual(["CatalogImported", "CatalogSetMaterialized"]);
    expect(catalog[1].data).toMatchObject({ evaluation_id: old, judge: null, criteria: null, include_production_only: false });
  });

  it("is synced when its catalog is imported again", async () => {
    const imported = await ok(p.keys.acmeWrite, IMPORT, { yaml: CHANGED_YAML });
    expect(imported.importCatalog.syncedEvaluations).toEqual([old]);
    const { evaluation } = await ok(p.keys.acmeRead, SCENARIOS, { id: old });
    expect(nodes(evaluation.scenarios).map((s: any) => [s.key, s.prompt, s.enabled])).toEqual([
      ["order_status", "Where is order 4821?", true],
      ["greeting", "Hello there, again", true],
      ["refund", "Refund my order", false],
    ]);
  });

  it("is synced by a re-import alone, never asked for by createEvaluation", async () => {
    await ok(p.keys.acmeWrite, IMPORT, { yaml: CATALOG_YAML });
    const other = await oldSetEvaluation();
    const imported = await ok(p.keys.acmeWrite, IMPORT, { yaml: CHANGED_YAML });
    expect(imported.importCatalog.syncedEvaluations).toContain(other);
    const { evaluation } = await ok(p.keys.acmeRead, SCENARIOS, { id: other });
    expect(nodes(evaluation.scenarios).find((s: any) => s.key === "refund")).toMatchObject({ enabled: false });
  });
});

describe("an evaluation recorded with an agent name past 255 characters", () => {
  const LONG = `Agent${"x".repeat(295)}`;

  it("createEvaluation now refuses such a name, naming input.agent, as recordAgentRelease does", async () => {
    const refused = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: `A${"a".repeat(255)}`, name: "Too long", scenariosText: "Hi" } });
    expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringContaining("must be at most 255 characters"), extensions: { code: "VALIDATION", field: "input.agent" } });
    const taken = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "a".repeat(255), name: "Long enough", scenariosText: "Hi" } });
    expect(taken.body.errors).toBeUndefined();
  });

  it("still reads back, lists under its agent and starts runs: events are not held to the command's limit", async () => {
    // Its events as an earlier createEvaluation wrote them (EvaluationCreated's schema has no such limit).
    const id = randomUUID();
    const earlier = createMemoryEventStore();
    await handleCommand(earlier, evaluationAggregate, evaluationStream(id), { type: "CreateEvaluation", evaluation_id: id, tenant: "acme", agent: "Short", name: "Long agent", compare_models: ["gpt-5-mini"], scenarios: [{ key: "a", prompt: "Hi" }] }, options);
    const events = (await earlier.readStream(evaluationStream(id))).map(({ id: eventId, type, schemaVersion, data, metadata }) => ({
      id: eventId, type, schemaVersion, metadata, data: type === "EvaluationCreated" ? { ...data, agent: LONG } : data,
    }));
    const { position } = await p.store.append(evaluationStream(id), events, { expectedVersion: "noStream" });
    await p.projector.waitFor(position, 10_000);
    const read = await ok(p.keys.acmeRead, `query ($id: ID!, $a: String!) { evaluation(id: $id) { agent standing } agent(name: $a) { name standings { none } } }`, { id, a: LONG });
    expect(read).toEqual({ evaluation: { agent: LONG, standing: "NONE" }, agent: { name: LONG, standings: { none: 1 } } });
    const started = await ok(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { run { number release { digest } } } }`, { id });
    expect(started.startRun.run).toEqual({ number: 1, release: null });
  });
});
