// The judge an evaluation asks for, and the label its runs carry. A judge model alone means an
// llm judge, from createEvaluation as from a catalog set (it gave a rules-only evaluation). An
// llm judge without a model is the worker's own, and the run, its verdict, its events and its
// report all name it alike, by the label its script declares or its file name: never by the
// deployment's path to the script (VERDICT_JUDGE=scripted:/srv/…/judge.yaml).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedJudge } from "@verdict/infra/judges";
import { CATALOG_YAML, collect, JUDGE_SCRIPT, startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-judge-"));
  const path = join(dir, "judge.yaml");
  // The harness's judge script without its `judge:` label: named by its file.
  await writeFile(path, JUDGE_SCRIPT.replace(/^judge: .*$/m, ""));
  p = await startPlatform({ judge: await ScriptedJudge.load(path) });
  const imported = await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
  expect(imported.body.errors).toBeUndefined();
}, 60_000);

afterAll(async () => {
  await p?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const CREATE = `mutation ($input: CreateEvaluationInput!) { createEvaluation(input: $input) { evaluationId evaluation { judge compareModels } } }`;

async function create(input: Record<string, unknown>) {
  const res = await p.gql(p.keys.acmeWrite, CREATE, { input });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.createEvaluation;
}

describe("createEvaluation: the judge", () => {
  it("takes a model alone as an llm judge, as a catalog set's `judge: {model: x}` is", async () => {
    expect((await create({ agent: "A", name: "model alone", scenariosText: "hello", judgeModel: "gpt-5" })).evaluation.judge).toEqual({ kind: "llm", model: "gpt-5" });
    const fromSet = await create({ fromCatalogSet: "support_desk/triage/smoke", name: "set, model alone", judgeModel: "claude-opus-5" });
    expect(fromSet.evaluation.judge).toEqual({ kind: "llm", model: "claude-opus-5" });
    expect((await create({ agent: "A", name: "kind and model", scenariosText: "hello", judgeKind: "RULES", judgeModel: "gpt-5" })).evaluation.judge).toEqual({ kind: "rules", model: "gpt-5" });
    expect((await create({ agent: "A", name: "neither", scenariosText: "hello" })).evaluation.judge).toEqual({ kind: "rules", model: null });
  });

  it("refuses an unknown kind or a blank model naming the input's field, writing nothing", async () => {
    const before = (await p.store.readAll({ limit: 10_000 })).length;
    const kind = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "A", name: "bad kind", scenariosText: "hello", judgeKind: "weird" } });
    expect(kind.body.errors[0]).toMatchObject({ message: expect.stringContaining('at "input.judgeKind"; Value "weird" does not exist in "JudgeKind" enum'), extensions: { code: "BAD_USER_INPUT" } });
    const model = await p.gql(p.keys.acmeWrite, CREATE, { input: { agent: "A", name: "blank model", scenariosText: "hello", judgeKind: "LLM", judgeModel: " " } });
    expect(model.body.errors[0]).toMatchObject({ extensions: { code: "VALIDATION", field: "input.judgeModel" } });
    expect((await p.store.readAll({ limit: 10_000 })).length).toBe(before);
  });
});

describe("an llm judge without a model", () => {
  it("labels the run, its verdict, its events and its report with the worker's judge, without the script's path", async () => {
    const { evaluationId, evaluation } = await create({
      fromCatalogSet: "support_desk/triage/smoke", name: "worker's judge", judgeKind: "LLM", compareModels: ["gpt-5-mini", "claude-sonnet-5"],
    });
    expect(evaluation.judge).toEqual({ kind: "llm", model: null });
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
    const runId = started.body.data.startRun.runId;
    await collect(p.wsClient(p.keys.acmeRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status } }`, { runId });
    const read = await p.gql(p.keys.acmeRead, `query ($id: ID!) {
      run(id: $id) { status judgeLabel verdict { judge judgeLabel } report { markdown json } }
      runAudit(id: $id) { events { type data } }
    }`, { id: runId });
    expect(read.body.errors).toBeUndefined();
    const { run, runAudit } = read.body.data;
    expect(run.status).toBe("COMPLETED");
    expect(run.judgeLabel).toBe("scripted:judge.yaml");
    expect(run.verdict).toEqual({ judge: "scripted:judge.yaml", judgeLabel: "scripted:judge.yaml" });
    expect(run.report.markdown).toContain("Judged by `scripted:judge.yaml`.");
    expect(run.report.json.judge).toBe("scripted:judge.yaml");
    const everything = JSON.stringify(read.body.data);
    expect(everything).not.toContain(dir);
    expect(runAudit.events.map((e: { type: string }) => e.type)).toContain("VerdictRecorded");
  });
});
