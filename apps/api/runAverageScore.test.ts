// Run.averageScore: reference-platform §1 #25's average_score, by §2.2's rule (the mean of each
// criterion's headline score, a headline over several models the mean of its per-model means,
// skipped criteria and `_` keys left out, 3 decimals, null when nothing is scorable).
import { afterAll, beforeAll, expect, it } from "vitest";
import { finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
let evaluationId: string;
beforeAll(async () => {
  p = await startPlatform();
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "Averages", compareModels: ["m1"] }) { evaluationId } }`);
  evaluationId = created.body.data.createEvaluation.evaluationId;
}, 60_000);
afterAll(async () => {
  await p?.close();
});

const IMPORT = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`;
const AVERAGE = `query ($r: ID!) { run(id: $r) { averageScore } }`;

async function importedAverage(runId: string, results: Array<[string, string, Record<string, number | null>]>): Promise<unknown> {
  const models = { m1: { provider: "openai", model: "m1" }, m2: { provider: "anthropic", model: "m2" } };
  const report = { models, results: results.map(([key, label, scores]) => ({ scenario_key: key, label, status: "passed", scores })) };
  const envelope = { version: 1, run_id: runId, source: "ci", agent_name: "SupportAgent", suite: "averages", report };
  const imported = await p.gql(p.keys.acmeWrite, IMPORT, { id: evaluationId, e: envelope });
  expect(imported.body.errors).toBeUndefined();
  const read = await p.gql(p.keys.acmeRead, AVERAGE, { r: imported.body.data.importReport.runId });
  expect(read.body.errors).toBeUndefined();
  return read.body.data.run.averageScore;
}

it("averages each criterion's per-model means, leaving out a criterion nothing scored, to 3 decimals", async () => {
  // a: m1 0.5, m2 1 → 0.75. b: m1 0.75, m2 0.25 (its one scored result) → 0.5, where pooling
  // b's three scores would give 0.583. c: never scored, left out. (0.75 + 0.5) / 2 = 0.625.
  const average = await importedAverage("avg-1", [
    ["s1", "m1", { a: 1, b: 0.5, c: null }],
    ["s2", "m1", { a: 0, b: 1, c: null }],
    ["s1", "m2", { a: 1, b: null }],
    ["s2", "m2", { a: 1, b: 0.25 }],
  ]);
  expect(average).toBe(0.625);
  expect(await importedAverage("avg-2", [["s1", "m1", { a: 1 / 3 }]])).toBe(0.333);
});

it("is null when nothing is scorable", async () => {
  expect(await importedAverage("avg-none", [["s1", "m1", { a: null }], ["s2", "m1", {}]])).toBeNull();
});

it("answers for a run the workers scored, as its results' criterion scores give it", async () => {
  const { runId } = await finishedSampleRun(p, ["gpt-5-mini"]);
  const read = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { averageScore results { edges { node { scores } } } } }`, { r: runId });
  const scores: Array<Record<string, number | null>> = read.body.data.run.results.edges.map((e: { node: { scores: Record<string, number | null> } }) => e.node.scores);
  const criteria = [...new Set(scores.flatMap((s) => Object.keys(s)))].filter((c) => !c.startsWith("_"));
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const means = criteria
    .map((c) => scores.map((s) => s[c]).filter((v): v is number => typeof v === "number"))
    .filter((values) => values.length > 0)
    .map(mean);
  expect(means.length).toBeGreaterThan(0);
  expect(read.body.data.run.averageScore).toBe(Math.round(mean(means) * 1000) / 1000);
});
