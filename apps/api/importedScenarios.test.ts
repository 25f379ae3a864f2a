// An imported report upserts its scenarios into the evaluation and is refused for another agent
// (reference-platform §1 #30): an evaluation made only to hold published reports held no
// scenario, so startRun refused it ("No scenarios selected"), and a report of any agent landed in it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";
import { nodes } from "./testing/nodes.js";

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
}, 60_000);
afterAll(async () => {
  await p?.close();
});

const IMPORT = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { number duplicate } }`;
const SCENARIOS = `query ($id: ID!) { evaluation(id: $id) { scenarios { totalCount edges { node { key prompt group expectations } } } } }`;
const LABELS = ["gpt-5-mini", "claude-sonnet-5", "llama3:8b"];
const KEYS = Array.from({ length: 10 }, (_, i) => `scenario_${i}`);

async function evaluationFor(agent: string, name: string): Promise<string> {
  const created = await p.gql(p.keys.acmeWrite, `mutation ($a: String!, $n: String!) { createEvaluation(input: { agent: $a, name: $n, compareModels: ["gpt-5-mini"] }) { evaluationId } }`, { a: agent, n: name });
  return created.body.data.createEvaluation.evaluationId;
}

/** 10 scenarios × 3 models, each result carrying its scenario's prompt, group and expectations. */
function envelope(runId: string, agentName = "SupportAgent") {
  const models = Object.fromEntries(LABELS.map((label) => [label, { provider: label === "gpt-5-mini" ? "openai" : "ollama", model: label }]));
  const results = KEYS.flatMap((key) =>
    LABELS.map((label) => ({ scenario_key: key, label, status: "passed", score: 1, prompt: `Question ${key}`, group: "support", expect: { tools: [], contains: ["order"], not_contains: [] } })),
  );
  return { version: 1, run_id: runId, source: "ci", agent_name: agentName, suite: "rp-import", report: { models, results } };
}

it("upserts the report's scenarios, so a run can then be started; a retry is a duplicate that changes no scenario", async () => {
  const evaluationId = await evaluationFor("SupportAgent", "rp-import");
  const imported = await p.gql(p.keys.acmeWrite, IMPORT, { id: evaluationId, e: envelope("host-1") });
  expect(imported.body.data.importReport).toEqual({ number: 1, duplicate: false });
  const read = await p.gql(p.keys.acmeRead, SCENARIOS, { id: evaluationId });
  expect(read.body.data.evaluation.scenarios.totalCount).toBe(10);
  expect(nodes(read.body.data.evaluation.scenarios)[0]).toEqual({ key: "scenario_0", prompt: "Question scenario_0", group: "support", expectations: { tools: [], contains: ["order"], not_contains: [] } });
  const events = (await p.store.readStream(`evaluation-${evaluationId}`)).length;
  const again = await p.gql(p.keys.acmeWrite, IMPORT, { id: evaluationId, e: envelope("host-1") });
  expect(again.body.data.importReport).toEqual({ number: 1, duplicate: true });
  expect(await p.store.readStream(`evaluation-${evaluationId}`)).toHaveLength(events);
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { number } }`, { id: evaluationId });
  expect(started.body.errors).toBeUndefined();
  expect(started.body.data.startRun.number).toBe(2);
});

it("refuses a report of another agent than the evaluation's, naming both, and writes nothing", async () => {
  const evaluationId = await evaluationFor("rp-agent", "rp-import-other");
  const before = (await p.store.readStream(`evaluation-${evaluationId}`)).length;
  const refused = await p.gql(p.keys.acmeWrite, IMPORT, { id: evaluationId, e: envelope("host-2") });
  expect(refused.body.errors[0]).toMatchObject({
    message: `the report is for agent "SupportAgent" but evaluation ${evaluationId} is for agent "rp-agent"`,
    extensions: { code: "CONFLICT" },
  });
  expect(await p.store.readStream(`evaluation-${evaluationId}`)).toHaveLength(before);
  const runs = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runCount scenarios { totalCount } } }`, { id: evaluationId });
  expect(runs.body.data.evaluation).toEqual({ runCount: 0, scenarios: { totalCount: 0 } });
});
