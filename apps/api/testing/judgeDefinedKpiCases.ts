// Judge-defined KPIs end to end on a whole platform (in-process bus; the embedded default's PGlite
// read models and memory store, or PostgreSQL ones: judgeDefinedKpis.int.test.ts): the first run of a judge_defined evaluation asks its judge for KPIs before
// any pair is scored and scores with them; a later run reuses them without asking; the define
// call is in the run's audit trail and its judge usage (a call no result owns). When no KPIs can
// be authored (no judge, or an answer without usable KPIs) the run still completes, on the
// evaluation's own criteria, with the reference's message recorded and said once in its report.
import { afterEach, describe, expect, it } from "vitest";
import { Report, type EventStore, type JudgeRequest, type ReportDocument } from "@verdict/domain";
import type { JudgeBackend } from "@verdict/infra/judges";
import { CATALOG_YAML, collect, startPlatform, type Platform } from "./harness.js";

const KPIS = JSON.stringify({
  kpis: [
    { key: "accuracy", name: "Accuracy", description: "States facts the tools returned.", rubric: "1.0 all facts backed, 0.0 none." },
    { key: "tone", name: "Tone", description: "Polite and calm.", rubric: "1.0 warm, 0.5 neutral, 0.0 rude." },
    { key: "next_step", name: "Next step", description: "Says what happens next.", rubric: "1.0 a clear next step, 0.0 none." },
  ],
});
const NO_JUDGE = "Judge-defined KPIs need provider credentials (add a provider API key in Settings)";
const UNUSABLE = "Judge returned no usable KPIs — try again or add criteria manually";

/** A judge backend answering each kind from a script, recording every request. */
function scriptedBackend(define: string) {
  const requests: JudgeRequest[] = [];
  const backend: JudgeBackend = {
    name: "kpi-judge",
    async complete(request) {
      requests.push(request);
      if (request.kind === "define") return { text: define, usage: { input_tokens: 300, output_tokens: 120, cost: 0.004, model: "kpi-model" } };
      if (request.kind === "verdict") return '{"winner": "claude-sonnet-5", "rationale": "Friendlier."}';
      if (request.kind === "recommend") return '{"recommendation": "Call lookup_order first."}';
      // The KPIs' criterion prompts say which KPI is scored: each gets its own grade.
      if (request.prompt.includes("Criterion: Tone")) return '{"score": 0.4}';
      return '{"score": 0.9}';
    },
  };
  return { backend, requests };
}

let p: Platform | undefined;
let opened: Opened | undefined;

interface Opened {
  readUrl?: string;
  store?: EventStore;
  close?: () => Promise<void>;
}

/** The platform with `judge`, on the stores `open` gives (default: the embedded ones). */
async function platformWith(judge: JudgeBackend | null, open?: () => Promise<Opened>): Promise<Platform> {
  opened = (await open?.()) ?? {};
  return startPlatform({ judge, readUrl: opened.readUrl, store: opened.store });
}

async function judgeDefinedEvaluation(platform: Platform): Promise<string> {
  expect((await platform.gql(platform.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML })).body.errors).toBeUndefined();
  const created = await platform.gql(
    platform.keys.acmeWrite,
    `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", judgeKind: JUDGE_DEFINED, compareModels: ["gpt-5-mini", "claude-sonnet-5"] }) { evaluationId } }`,
  );
  expect(created.body.errors).toBeUndefined();
  return created.body.data.createEvaluation.evaluationId;
}

async function finishedRun(platform: Platform, evaluationId: string): Promise<string> {
  const started = await platform.gql(platform.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
  expect(started.body.errors).toBeUndefined();
  const runId: string = started.body.data.startRun.runId;
  await collect(platform.wsClient(platform.keys.acmeRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status } }`, { runId });
  return runId;
}

const RUN_QUERY = `query ($id: ID!) {
  run(id: $id) {
    status
    kpiAuthoring { outcome kpiKeys message reason }
    results(first: 10) { edges { node { scenarioKey modelLabel scores } } }
    usage { judge { calls byKind { kind calls } run { calls byKind { kind calls inputTokens outputTokens cost } } } }
    report { markdown json html }
  }
  runAudit(id: $id) { events { type streamId data } }
}`;

async function readRun(platform: Platform, runId: string) {
  const read = await platform.gql(platform.keys.acmeRead, RUN_QUERY, { id: runId });
  expect(read.body.errors, JSON.stringify(read.body.errors)).toBeUndefined();
  const data = read.body.data as { run: any; runAudit: { events: { type: string; streamId: string; data: any }[] } };
  data.run.results.nodes = data.run.results.edges.map((edge: { node: unknown }) => edge.node);
  return data;
}

/**
 * The report rebuilt by the API is the summary the completion recorded (results aside): byte for
 * byte where the store keeps the event's key order (the embedded default), value for value where
 * jsonb sorts it (PostgreSQL).
 */
function expectRebuiltAsRecorded(read: Awaited<ReturnType<typeof readRun>>) {
  const completed = read.runAudit.events.find((e) => e.type === "RunCompleted")!.data.summary;
  const { results: _results, ...rebuilt } = read.run.report.json;
  expect(rebuilt).toEqual(completed);
  if (keyOrderKept) expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(completed));
}
let keyOrderKept = true;

export function judgeDefinedKpiCases(options: { open?: () => Promise<Opened>; keyOrderKept?: boolean } = {}): void {
  keyOrderKept = options.keyOrderKept ?? true;
  afterEach(async () => {
    await p?.close();
    await opened?.close?.();
    p = undefined;
    opened = undefined;
  });

  describe("a judge_defined evaluation", () => {
    it("has its KPIs defined on its first run, scored with, counted and audited; its second run reuses them without asking", async () => {
      const { backend, requests } = scriptedBackend(KPIS);
      p = await platformWith(backend, options.open);
      const evaluationId = await judgeDefinedEvaluation(p);
      const first = await readRun(p, await finishedRun(p, evaluationId));

      expect(first.run.status).toBe("COMPLETED");
      expect(first.run.kpiAuthoring).toEqual({ outcome: "DEFINED", kpiKeys: ["accuracy", "tone", "next_step"], message: null, reason: null });
      const defines = requests.filter((r) => r.kind === "define");
      expect(defines).toHaveLength(1);
      expect(defines[0].prompt).toContain("Where is order 4821?");
      // Asked before any pair was scored: the define call is the judge's first.
      expect(requests[0].kind).toBe("define");
      // Every answered pair is scored on the KPIs too, each with its own grade.
      for (const result of first.run.results.nodes) {
        expect(Object.keys(result.scores)).toEqual(expect.arrayContaining(["accuracy", "tone", "next_step"]));
      }
      expect(first.run.results.nodes.some((r: any) => r.scores.tone === 0.4 && r.scores.accuracy === 0.9)).toBe(true);
      // The define call: a run-level judge call (by kind define), in the usage and the report alike.
      expect(first.run.usage.judge.run.byKind).toEqual(expect.arrayContaining([{ kind: "define", calls: 1, inputTokens: 300, outputTokens: 120, cost: 0.004 }]));
      expect(first.run.usage.judge.byKind).toEqual(expect.arrayContaining([{ kind: "define", calls: 1 }]));
      expect(first.run.report.json.judge_usage.run.by_kind.define).toBe(1);
      expect(first.run.report.json.kpi_failure).toBeUndefined();
      // The audit trail: KpisDefined on the evaluation, and the run's settlement with the judge's raw answer.
      const settled = first.runAudit.events.find((e) => e.type === "KpiAuthoringRecorded")!;
      expect(settled.data.judge_exchange).toMatchObject({ kind: "define", raw_answer: KPIS, error: null });
      expectRebuiltAsRecorded(first);

      const evaluation = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { criteria kpis { key prompt definedBy definedAt } kpiProvenance { judge definedAt } } }`, { id: evaluationId });
      expect(evaluation.body.errors).toBeUndefined();
      const { criteria, kpis, kpiProvenance } = evaluation.body.data.evaluation;
      expect(kpiProvenance).toEqual({ judge: "kpi-judge", definedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      expect(kpis.map((k: any) => [k.key, k.definedBy, k.definedAt])).toEqual(["accuracy", "tone", "next_step"].map((key) => [key, "kpi-judge", kpiProvenance.definedAt]));
      expect(kpis[1].prompt).toBe("Tone: Polite and calm.\nRubric: 1.0 warm, 0.5 neutral, 0.0 rude.");
      expect(criteria.filter((c: any) => c.defined_by).map((c: any) => c.key)).toEqual(["accuracy", "tone", "next_step"]);

      const second = await readRun(p, await finishedRun(p, evaluationId));
      expect(requests.filter((r) => r.kind === "define")).toHaveLength(1);
      expect(second.run.kpiAuthoring).toBeNull();
      expect(second.runAudit.events.map((e) => e.type)).not.toContain("KpiAuthoringRecorded");
      const started = second.runAudit.events.find((e) => e.type === "RunStarted")!;
      expect(started.data.criteria.filter((c: any) => c.defined_by === "kpi-judge").map((c: any) => c.key)).toEqual(["accuracy", "tone", "next_step"]);
      expect(Object.keys(second.run.results.nodes[0].scores)).toEqual(expect.arrayContaining(["accuracy", "tone", "next_step"]));
      expect(second.run.usage.judge.run.byKind.map((k: any) => k.kind)).not.toContain("define");
      expectRebuiltAsRecorded(second);
    }, 60_000);

    it("has its KPIs cleared by clearKpis: none shown, the next run asks the judge again, earlier runs rebuild as recorded", async () => {
      const { backend, requests } = scriptedBackend(KPIS);
      p = await platformWith(backend, options.open);
      const evaluationId = await judgeDefinedEvaluation(p);
      const firstId = await finishedRun(p, evaluationId);
      const before = await readRun(p, firstId);
      const CLEAR = `mutation ($id: ID!) { clearKpis(evaluationId: $id) { evaluationId cleared evaluation { criteria kpis { key } kpiProvenance { judge } } } }`;

      // Another tenant's evaluation answers as a missing one; a read key may not write.
      const missingId = "00000000-0000-4000-8000-00000000c1ea";
      const foreign = await p.gql(p.keys.globexWrite, CLEAR, { id: evaluationId });
      const missing = await p.gql(p.keys.acmeWrite, CLEAR, { id: missingId });
      expect(foreign.body.errors[0].message.replace(evaluationId, "<id>")).toBe(missing.body.errors[0].message.replace(missingId, "<id>"));
      expect(foreign.body.errors[0].extensions).toEqual(missing.body.errors[0].extensions);
      expect(foreign.body.errors[0].extensions).toMatchObject({ code: "NOT_FOUND", field: "evaluationId" });
      expect((await p.gql(p.keys.acmeRead, CLEAR, { id: evaluationId })).body.errors[0].extensions.code).toBe("FORBIDDEN");

      const cleared = await p.gql(p.keys.acmeWrite, CLEAR, { id: evaluationId });
      expect(cleared.body.errors).toBeUndefined();
      const { cleared: keys, evaluation } = cleared.body.data.clearKpis;
      expect(keys).toEqual(["accuracy", "tone", "next_step"]);
      expect(evaluation.kpis).toEqual([]);
      expect(evaluation.kpiProvenance).toBeNull();
      expect(evaluation.criteria.filter((c: any) => c.defined_by)).toEqual([]);
      // Cleared already: nothing recorded, nothing cleared.
      const again = await p.gql(p.keys.acmeWrite, CLEAR, { id: evaluationId });
      expect(again.body.data.clearKpis).toMatchObject({ cleared: [], evaluation: { kpis: [], kpiProvenance: null } });
      // The audit trail: one KpisCleared on the evaluation's stream, naming the key that asked.
      const stream = await p.store.readStream(`evaluation-${evaluationId}`);
      const clears = stream.filter((e) => e.type === "KpisCleared");
      expect(clears).toHaveLength(1);
      expect(clears[0].data).toMatchObject({ kpi_keys: ["accuracy", "tone", "next_step"], kpi_provenance: { judge: "kpi-judge" }, cleared_by: clears[0].metadata.actor });
      expect(clears[0].metadata.actor).toMatch(/^api-key:/);

      // The run that froze them keeps them, and its report is rebuilt exactly as before.
      const after = await readRun(p, firstId);
      expect(after.run.kpiAuthoring).toEqual(before.run.kpiAuthoring);
      expect(after.run.report.markdown).toBe(before.run.report.markdown);
      expect(JSON.stringify(after.run.report.json)).toBe(JSON.stringify(before.run.report.json));
      expectRebuiltAsRecorded(after);

      const nextId = await finishedRun(p, evaluationId);
      const next = await readRun(p, nextId);
      expect(requests.filter((r) => r.kind === "define")).toHaveLength(2);
      expect(next.run.kpiAuthoring).toEqual({ outcome: "DEFINED", kpiKeys: ["accuracy", "tone", "next_step"], message: null, reason: null });
      const redefined = (await p.store.readStream(`evaluation-${evaluationId}`)).filter((e) => e.type === "KpisDefined");
      expect(redefined.map((e) => (e.data as { run_id: string }).run_id)).toEqual([firstId, nextId]);
      const shown = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { kpis { key } kpiProvenance { judge } } }`, { id: evaluationId });
      expect(shown.body.data.evaluation).toEqual({ kpis: [{ key: "accuracy" }, { key: "tone" }, { key: "next_step" }], kpiProvenance: { judge: "kpi-judge" } });
    }, 90_000);

    it("without a judge, completes on its own criteria, recording the reference's message once; the next run tries again", async () => {
      p = await platformWith(null, options.open);
      const evaluationId = await judgeDefinedEvaluation(p);
      const runId = await finishedRun(p, evaluationId);
      const read = await readRun(p, runId);
      expect(read.run.status).toBe("COMPLETED");
      expect(read.run.kpiAuthoring).toEqual({ outcome: "FAILED", kpiKeys: [], message: NO_JUDGE, reason: null });
      expect(read.run.results.nodes.length).toBeGreaterThan(0);
      for (const result of read.run.results.nodes) expect(Object.keys(result.scores)).not.toContain("accuracy");
      expect(read.run.report.json.kpi_failure).toBe(NO_JUDGE);
      expect(read.run.report.markdown.split(NO_JUDGE)).toHaveLength(2);
      expect(read.run.report.markdown).toContain(`> **No judge-defined KPIs: scored on the evaluation's own criteria.** ${NO_JUDGE}`);
      expect(read.run.report.html.split(NO_JUDGE)).toHaveLength(2);
      expectRebuiltAsRecorded(read);
      // The library reads kpi_failure back: its Markdown of the route's JSON is the route's Markdown.
      if (keyOrderKept) expect(Report.fromJSON(read.run.report.json as ReportDocument).toMarkdown()).toBe(read.run.report.markdown);
      const next = await readRun(p, await finishedRun(p, evaluationId));
      expect(next.run.kpiAuthoring?.message).toBe(NO_JUDGE);
    }, 60_000);

    it("with a judge that answers without usable KPIs, completes on its own criteria, saying why, the raw answer audited", async () => {
      const garbage = JSON.stringify({ kpis: [{ key: "Good Tone", name: "x", description: "y", rubric: "z" }, { key: "<b>a</b>" }] });
      const { backend, requests } = scriptedBackend(garbage);
      p = await platformWith(backend, options.open);
      const evaluationId = await judgeDefinedEvaluation(p);
      const read = await readRun(p, await finishedRun(p, evaluationId));
      expect(read.run.status).toBe("COMPLETED");
      expect(read.run.kpiAuthoring).toMatchObject({ outcome: "FAILED", kpiKeys: [], message: UNUSABLE });
      expect(read.run.kpiAuthoring.reason).toContain("0 usable KPIs, at least 3 are needed");
      expect(read.run.kpiAuthoring.reason).toContain('kpis[0] "key" "Good Tone" is not lower-case snake_case');
      expect(read.run.report.markdown).toContain(UNUSABLE);
      // The call was made and paid for: it is counted and audited though it gave nothing.
      expect(read.run.usage.judge.run.byKind).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "define", calls: 1 })]));
      expect(read.runAudit.events.find((e) => e.type === "KpiAuthoringRecorded")!.data.judge_exchange).toMatchObject({ kind: "define", raw_answer: garbage });
      expectRebuiltAsRecorded(read);
      const evaluation = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { kpis { key } kpiProvenance { judge } } }`, { id: evaluationId });
      expect(evaluation.body.data.evaluation).toEqual({ kpis: [], kpiProvenance: null });
      // The next run asks again.
      await finishedRun(p, evaluationId);
      const defines = requests.filter((r) => r.kind === "define");
      expect(defines).toHaveLength(2);
      // The second ask reads the first run's outcome: its pass rate, from its RunCompleted.
      expect(defines[0].prompt).toContain("Recent runs (newest first):\n(none yet)");
      expect(defines[1].prompt).toMatch(/Recent runs \(newest first\):\n- run 1: pass rate [\d.]+% \(\d of 6 passed\)/);
    }, 60_000);
  });
}
