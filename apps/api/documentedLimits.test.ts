// The largest inputs the API documents it takes are taken, on the embedded event store: a
// catalog of 2,000 scenarios and a report of 1,000 results. Both were refused once (their events
// over a 1 MB limit the edge never mentioned).
import { afterAll, beforeAll, expect, it } from "vitest";
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
