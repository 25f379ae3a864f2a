// Result.metadata and Run.metadata on the embedded read models (PGlite): a replay's metadata and
// a run's, as report.json gives them (testing/resultMetadataCases.ts), and both weighed against
// the request's answer budget (maxAnswerBytes), as a result's other JSON fields are.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";
import { resultMetadataCases } from "./testing/resultMetadataCases.js";

resultMetadataCases();

describe("metadata and the answer budget", () => {
  let p: Platform;
  let runId: string;
  beforeAll(async () => {
    p = await startPlatform({ limits: { maxAnswerBytes: 200_000 } });
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "Big metadata", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const big = "x".repeat(300_000);
    const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, metadata: { big }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed", score: 1, metadata: { big } }] };
    const envelope = { version: 1, run_id: "metadata-big", source: "ci", agent_name: "SupportAgent", suite: "support", report };
    const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: created.body.data.createEvaluation.evaluationId, e: envelope });
    expect(imported.body.errors).toBeUndefined();
    runId = imported.body.data.importReport.runId;
  }, 60_000);
  afterAll(() => p?.close());

  it("refuses a Run.metadata past the budget at its path, answering the rest of the run", async () => {
    const answer = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { id metadata } }`, { r: runId });
    expect(answer.body.data.run).toEqual({ id: runId, metadata: null });
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0]).toMatchObject({ path: ["run", "metadata"], extensions: { code: "PAYLOAD_TOO_LARGE" } });
  });

  it("weighs Result.metadata with the results it is listed in: past the budget with it, within it without", async () => {
    const heavy = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { id results { edges { node { metadata } } } } }`, { r: runId });
    expect(heavy.body.data.run).toEqual({ id: runId, results: null });
    expect(heavy.body.errors[0]).toMatchObject({ path: ["run", "results"], extensions: { code: "PAYLOAD_TOO_LARGE" } });
    const light = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { results { edges { node { scenarioKey } } } } }`, { r: runId });
    expect(light.body.errors).toBeUndefined();
    expect(light.body.data.run.results.edges).toEqual([{ node: { scenarioKey: "a" } }]);
  });
});
