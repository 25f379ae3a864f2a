// The largest inputs the API documents it takes are taken, on the embedded event store: a
// catalog of 2,000 scenarios and a report of 1,000 results. Both were refused once (their events
// over a 1 MB limit the edge never mentioned).
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createPgliteEventStore } from "@verdict/infra";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ store: await createPgliteEventStore() });
}, 60_000);
afterAll(async () => {
  await p?.close();
});

const sentence = "Where is order 4821, and can you refund it to the card it was paid with, or as store credit if that is faster? ";

it("imports a catalog of 2,000 scenarios (its event over 1 MB)", async () => {
  const scenarios = Array.from({ length: 2000 }, (_, i) => `          - key: scenario_${i}\n            prompt: "${sentence.repeat(2)}(${i})"\n            expect: { tools: [lookup_order, refund_order], contains: [refund] }`);
  const yaml = `catalog: big_catalog\nproducts:\n  - key: support\n    agent: SupportAgent\n    sets:\n      - key: all\n        scenarios:\n${scenarios.join("\n")}\n`;
  expect(yaml.length).toBeGreaterThan(500_000);
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key scenarioCount } }`, { yaml });
  expect(imported.body).toEqual({ data: { importCatalog: { key: "big_catalog", scenarioCount: 2000 } } });
}, 60_000);

it("imports a report of 1,000 results (its event over 1 MB)", async () => {
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "Big imports", compareModels: ["gpt-5-mini", "claude-sonnet-5"] }) { evaluationId } }`);
  const evaluationId = created.body.data.createEvaluation.evaluationId;
  const labels = ["gpt-5-mini", "claude-sonnet-5"];
  const models = { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" }, "claude-sonnet-5": { provider: "anthropic", model: "claude-sonnet-5" } };
  const results = Array.from({ length: 500 }, (_, i) => labels.map((label) => ({ scenario_key: `s${i}`, label, status: "passed", score: 1, prompt: `${sentence}(${i})`, answer: sentence.repeat(8) }))).flat();
  const envelope = { version: 1, run_id: "big-1", source: "ci", agent_name: "SupportAgent", suite: "support", report: { models, results } };
  expect(JSON.stringify(envelope).length).toBeGreaterThan(1_048_576);
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope });
  expect(imported.body.errors).toBeUndefined();
  const run = await p.gql(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { status results { totalCount } } }`, { id: imported.body.data.importReport.runId });
  expect(run.body.data.run).toEqual({ status: "COMPLETED", results: { totalCount: 1000 } });
}, 60_000);

it("refuses a model name or an imported scenario key over 200 characters, before anything is written (a 3,000-character label made a run no query could find)", async () => {
  const long = `m${"x".repeat(2999)}`;
  const create = await p.gql(p.keys.acmeWrite, `mutation ($m: [String!]) { createEvaluation(input: { agent: "SupportAgent", name: "Long labels", compareModels: $m, scenariosText: "Where is order 4821?" }) { evaluationId } }`, { m: [long] });
  expect(create.body.errors[0]).toMatchObject({ message: expect.stringContaining("must be at most 200 characters"), extensions: { code: "VALIDATION", field: "input.compareModels[0]" } });

  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "Short labels", compareModels: ["gpt-5-mini"], scenariosText: "Where is order 4821?" }) { evaluationId } }`);
  const evaluationId = created.body.data.createEvaluation.evaluationId;
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $m: [String!]) { startRun(evaluationId: $id, selection: { models: $m }) { runId } }`, { id: evaluationId, m: [long] });
  expect(started.body.errors[0]).toMatchObject({ message: expect.stringContaining("must be at most 200 characters"), extensions: { code: "VALIDATION" } });

  const envelope = { version: 1, run_id: "long-label-1", source: "ci", agent_name: "SupportAgent", suite: "support", report: { models: { [long]: { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: long, status: "passed", score: 1, prompt: "Q" }] } };
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope });
  expect(imported.body.errors[0]).toMatchObject({ message: "envelope.report.models: a label must be at most 200 characters (one has 3000)", extensions: { code: "VALIDATION", field: "envelope.report.models" } });

  const longKey = { ...envelope, run_id: "long-key-1", report: { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "k".repeat(10_000), label: "gpt-5-mini", status: "passed", score: 1, prompt: "Q" }] } };
  const keyed = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: longKey });
  expect(keyed.body.errors[0]).toMatchObject({ message: expect.stringContaining("results[0].scenario_key must be at most 200 characters (it has 10000)"), extensions: { code: "VALIDATION", field: "envelope.report.results[0].scenario_key" } });

  const runs = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runCount } }`, { id: evaluationId });
  expect(runs.body.data.evaluation.runCount).toBe(0);
});

it("answers a suite of 2,000 scenarios whole in one read, and refuses its whole list aliased before reading it", async () => {
  const prompt = sentence.repeat(8);
  const scenarios = Array.from({ length: 2000 }, (_, i) => ({ key: `s${i}`, prompt: `${prompt}(${i})` }));
  const created = await p.gql(p.keys.acmeWrite, `mutation ($s: JSON) { createEvaluation(input: { agent: "SupportAgent", name: "Big suite", scenarios: $s }) { evaluationId } }`, { s: scenarios });
  const evaluationId: string = created.body.data.createEvaluation.evaluationId;

  const whole = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { scenarios { totalCount edges { node { key prompt } } } } }`, { id: evaluationId });
  expect(whole.body.errors).toBeUndefined();
  expect(whole.body.data.evaluation.scenarios.edges).toHaveLength(2000);
  expect(whole.body.data.evaluation.scenarios.edges[1999].node).toEqual({ key: "s1999", prompt: `${prompt}(1999)` });

  // A default page's price let 100 of these through: 169 MB answered, the API stalled for everyone.
  const listScenarios = vi.spyOn(p.read.readModels, "listScenarios");
  const aliases = Array.from({ length: 100 }, (_, i) => `a${i}: scenarios { edges { node { prompt } } }`).join(" ");
  const aliased = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { ${aliases} } }`, { id: evaluationId });
  expect(aliased.status).toBe(400);
  expect(aliased.body).toEqual({ errors: [{ message: expect.stringMatching(/^query costs \d+; the limit is 5000$/), extensions: { code: "VALIDATION" } }] });
  expect(listScenarios).not.toHaveBeenCalled();
  listScenarios.mockRestore();
}, 60_000);
