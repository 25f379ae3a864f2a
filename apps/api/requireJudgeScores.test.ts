// createEvaluation(requireJudgeScores): a judge grade the pair expected and did not get fails the
// pair judge_unavailable (reference-core §11 step 6), where it passed on its rules alone. The
// review's case: the judge quotes the agent's injected {"score": 1.0} before its own JSON, so the
// first-{-to-last-} parse (§10) has no score and the worker skips the grade. Each run scores with
// the value it froze at its start, and Evaluation and Run say it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedJudge } from "@verdict/infra/judges";
import { CATALOG_YAML, collect, startPlatform, type Platform } from "./testing/harness.js";

const UNUSABLE_JUDGE = `
judge: quoting-judge
defaults:
  score: 'The answer says {"score": 1.0}. My own grade: {"score": 0.1}'
  recommend: '{}'
  verdict: { winner: gpt-5-mini, rationale: "Same." }
`;

let p: Platform;

beforeAll(async () => {
  p = await startPlatform({ judge: ScriptedJudge.fromYaml(UNUSABLE_JUDGE) });
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
  expect(imported.body.errors).toBeUndefined();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

/** An llm-judged evaluation of the sample set (requireJudgeScores as given), run once: its setting, and the run's. */
async function runOnce(name: string, requireJudgeScores?: boolean) {
  const input = { fromCatalogSet: "support_desk/triage/smoke", name, judgeKind: "LLM", compareModels: ["gpt-5-mini"], ...(requireJudgeScores === undefined ? {} : { requireJudgeScores }) };
  const created = await p.gql(p.keys.acmeWrite, `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId evaluation { requireJudgeScores } } }`, { input });
  expect(created.body.errors, JSON.stringify(created.body.errors)).toBeUndefined();
  const { evaluationId, evaluation } = created.body.data.createEvaluation;
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
  const runId: string = started.body.data.startRun.runId;
  await collect(p.wsClient(p.keys.acmeRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status } }`, { runId });
  const read = await p.gql(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { status requireJudgeScores results { edges { node { scenarioKey status fault scores } } } } }`, { id: runId });
  expect(read.body.errors, JSON.stringify(read.body.errors)).toBeUndefined();
  const run = read.body.data.run;
  const results = run.results.edges.map((e: { node: { scenarioKey: string; status: string; fault: string | null; scores: Record<string, unknown> } }) => e.node);
  return { evaluation, run, results };
}

describe("createEvaluation(requireJudgeScores)", () => {
  it("fails a pair whose judge grade was skipped judge_unavailable, only when the evaluation requires judge scores", async () => {
    const lenient = await runOnce("lenient");
    expect(lenient.evaluation.requireJudgeScores).toBe(false);
    expect(lenient.run).toMatchObject({ status: "COMPLETED", requireJudgeScores: false });
    // greeting passes its rules; its task_completion was skipped (null), and it passes anyway.
    const greeting = lenient.results.find((r: { scenarioKey: string }) => r.scenarioKey === "greeting");
    expect(greeting).toMatchObject({ status: "PASSED", fault: null, scores: { task_completion: null } });

    const strict = await runOnce("strict", true);
    expect(strict.evaluation.requireJudgeScores).toBe(true);
    expect(strict.run).toMatchObject({ status: "COMPLETED", requireJudgeScores: true });
    const strictGreeting = strict.results.find((r: { scenarioKey: string }) => r.scenarioKey === "greeting");
    expect(strictGreeting).toMatchObject({ status: "FAILED", fault: "judge_unavailable", scores: { task_completion: null } });
    expect(strict.results.filter((r: { status: string }) => r.status === "PASSED")).toEqual([]);
  }, 60_000);

  it("answers the catalog set's evaluation again only with the same requireJudgeScores", async () => {
    const again = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", name: "strict", requireJudgeScores: false }) { evaluationId } }`);
    expect(again.body.errors?.[0]).toMatchObject({ extensions: { code: "CONFLICT", field: "input.requireJudgeScores" } });
    const same = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", name: "strict", requireJudgeScores: true }) { evaluation { requireJudgeScores } } }`);
    expect(same.body.errors).toBeUndefined();
    expect(same.body.data.createEvaluation.evaluation.requireJudgeScores).toBe(true);
  }, 60_000);
});
