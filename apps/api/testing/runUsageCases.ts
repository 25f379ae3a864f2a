// A run's usage says how its agent cost was arrived at (reference-platform #23's priced,
// unpriced, reported, estimated and cost_basis), counted as the run's report counts it: a reported
// cost, one the worker's price table estimated, $0 for a replay of no tokens (no_usage) and none.
// It also says the rest of #23: replays, per_interaction, model_time_ms, runtime_ms, and the
// judge's model, calls by kind, run-level calls and source, on runs started here (a judged one
// comparing models, with score, recommend and verdict calls) and on an imported run.
// Shared by runUsage.test.ts (PGlite read models) and runUsage.int.test.ts (PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventStore } from "@verdict/domain";
import { PriceTable, Report, type ReportDocument } from "@verdict/domain";
import { ScriptedJudge } from "@verdict/infra/judges";
import { sampleEvaluation, startPlatform, type Platform } from "./harness.js";

// Every scenario the same way per model: reported by the agent, priced by the table, no tokens, unpriced.
const AGENT_SCRIPT = `
agent: SupportAgent
default: { answer: "I can help with that. Here is what I found for you today." }
replies:
  - { prompt: "/./", models: [gpt-5-mini], answer: "Reported.", input_tokens: 100, output_tokens: 20, cost: 0.0004, duration_ms: 120 }
  - { prompt: "/./", models: [claude-sonnet-5], answer: "Estimated.", input_tokens: 1000, output_tokens: 200, duration_ms: 250.5 }
  - { prompt: "/./", models: ["llama3:8b"], answer: "No tokens.", input_tokens: 0, output_tokens: 0, duration_ms: 40 }
  - { prompt: "/./", models: [gpt-4o], answer: "Unpriced.", input_tokens: 500, output_tokens: 50 }
  - { prompt: "/./", models: [gpt-4.1-nano], answer: "Seven decimals.", input_tokens: 10, output_tokens: 1, cost: 0.0000012, duration_ms: 10 }
`;
// Used only by evaluations that ask for an llm judge (the others are scored on rules alone).
const JUDGE_SCRIPT = `
judge: usage-judge
answers:
  - kind: score
    answer: '{"score": 0.9}'
    usage: { input_tokens: 400, output_tokens: 12, cost: 0.0006, model: judge-model-1 }
  - kind: recommend
    answer: '{"recommendation": "Call lookup_order before answering."}'
    usage: { input_tokens: 300, output_tokens: 30, cost: 0.0003, model: judge-model-1 }
  - kind: verdict
    answer: { winner: claude-sonnet-5, rationale: "Friendlier answers." }
    usage: { input_tokens: 900, output_tokens: 40, cost: 0.002, model: judge-model-1 }
`;
const FIGURES = `query ($r: ID!) { run(id: $r) { status startedAt completedAt usage {
  agent { cost priced unpriced replays perInteraction modelTimeMs model byKind { kind } run { calls } source }
  judge { calls inputTokens outputTokens cost source model byKind { kind calls inputTokens outputTokens cost } run { calls cost byKind { kind calls inputTokens outputTokens cost } }
    replays perInteraction modelTimeMs }
  runtimeMs } } }`;
const PRICES = PriceTable.from({ models: { "claude-sonnet-5": { input: 3, output: 15 } } }, "prices.yaml");
const USAGE = `query ($r: ID!) { run(id: $r) { status usage {
  agent { cost priced unpriced reported estimated costBasis }
  judge { priced unpriced reported estimated costBasis } } } }`;

/**
 * The cases, on the read models `options` opens (default an embedded PGlite): a run mixing
 * every cost source, runs of one source, nothing priced, and a run read while it goes on.
 */
export function runUsageCases(options: { open?: () => Promise<{ readUrl?: string; store?: EventStore; close?: () => Promise<void> }> } = {}): void {
  let p: Platform;
  let evaluationId: string;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const opened = (await options.open?.()) ?? {};
    close = opened.close;
    p = await startPlatform({ agentScript: AGENT_SCRIPT, prices: PRICES, readUrl: opened.readUrl, store: opened.store, judge: ScriptedJudge.fromYaml(JUDGE_SCRIPT) });
    evaluationId = await sampleEvaluation(p, ["gpt-5-mini"]);
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    await close?.();
  });

  /** A run of the three scenarios on `models`, followed until it ends. */
  async function finishedRun(models: string[], evaluation = evaluationId): Promise<string> {
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $m: [String!]) { startRun(evaluationId: $id, selection: { models: $m }) { runId } }`, { id: evaluation, m: models });
    const runId: string = started.body.data.startRun.runId;
    for (let i = 0; i < 200; i += 1) {
      const status = (await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status } }`, { r: runId })).body.data.run.status;
      if (status === "COMPLETED") return runId;
      expect(status).not.toBe("FAILED");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`run ${runId} did not complete`);
  }

  async function usageOf(runId: string) {
    const res = await p.gql(p.keys.acmeRead, USAGE, { r: runId });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.run.usage;
  }

  /** The report's own counts: summary_by_model's priced / reported / estimated summed over the models. */
  async function reportCounts(runId: string) {
    const res = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.json`);
    const { report } = (await res.json()) as { report: { summary_by_model: Record<string, { scenarios: number; priced: number; reported: number; estimated: number }> } };
    const summaries = Object.values(report.summary_by_model);
    const sum = (key: "scenarios" | "priced" | "reported" | "estimated") => summaries.reduce((total, summary) => total + summary[key], 0);
    return { priced: sum("priced"), unpriced: sum("scenarios") - sum("priced"), reported: sum("reported"), estimated: sum("estimated") };
  }

  const markdownOf = async (runId: string) => (await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.md`)).text();

  describe("a run's agent usage", () => {
    it("counts priced, unpriced, reported and estimated replays as the report does, and says MIXED for reported and estimated costs", async () => {
      const runId = await finishedRun(["gpt-5-mini", "claude-sonnet-5", "llama3:8b", "gpt-4o"]);
      const usage = await usageOf(runId);
      // 3 scenarios a model: 0.0004 reported, 0.006 estimated (1,000 x $3 + 200 x $15 per million), $0 for no tokens, none.
      expect(usage.agent).toEqual({ cost: 0.0192, priced: 9, unpriced: 3, reported: 3, estimated: 3, costBasis: "MIXED" });
      const { cost: _cost, costBasis: _basis, ...counts } = usage.agent;
      expect(counts).toEqual(await reportCounts(runId));
      // The judge's side has none of these.
      expect(usage.judge).toEqual({ priced: null, unpriced: null, reported: null, estimated: null, costBasis: null });
      // The report marks the agent's cost as an estimate.
      expect(await markdownOf(runId)).toContain("agent ~$0.0192");
      // Read again (the finished run's kept figures), the same.
      expect((await usageOf(runId)).agent).toEqual(usage.agent);
    });

    it("says ESTIMATED when every priced replay was estimated, and counts the $0 of a replay of no tokens as priced but not estimated (REPORTED)", async () => {
      expect((await usageOf(await finishedRun(["claude-sonnet-5", "gpt-4o"]))).agent).toMatchObject({ priced: 3, unpriced: 3, estimated: 3, reported: 0, costBasis: "ESTIMATED" });
      const noTokens = await finishedRun(["llama3:8b"]);
      const usage = (await usageOf(noTokens)).agent;
      expect(usage).toEqual({ cost: 0, priced: 3, unpriced: 0, reported: 0, estimated: 0, costBasis: "REPORTED" });
      expect(await reportCounts(noTokens)).toEqual({ priced: 3, unpriced: 0, reported: 0, estimated: 0 });
      expect(await markdownOf(noTokens)).not.toContain("~$");
    });

    it("says REPORTED for a run whose costs were all reported, as its report (no ~) does", async () => {
      const runId = await finishedRun(["gpt-5-mini"]);
      const usage = (await usageOf(runId)).agent;
      expect(usage).toEqual({ cost: 0.0012, priced: 3, unpriced: 0, reported: 3, estimated: 0, costBasis: "REPORTED" });
      const { cost: _cost, costBasis: _basis, ...counts } = usage;
      expect(counts).toEqual(await reportCounts(runId));
      expect(await markdownOf(runId)).not.toContain("~$");
    });

    it("says null, with a null cost, when nothing was priced", async () => {
      const runId = await finishedRun(["gpt-4o"]);
      const usage = (await usageOf(runId)).agent;
      expect(usage).toEqual({ cost: null, priced: 0, unpriced: 3, reported: 0, estimated: 0, costBasis: null });
      const { cost: _cost, costBasis: _basis, ...counts } = usage;
      expect(counts).toEqual(await reportCounts(runId));
    });

    it("keeps each side's cost in 6 decimals, as the report keeps a cost, so the parts add up to the total: engine and imported runs alike", async () => {
      const COSTS = `query ($r: ID!) { run(id: $r) { usage { agent { cost } judge { cost } totalCost } } }`;
      const costsOf = async (runId: string) => (await p.gql(p.keys.acmeRead, COSTS, { r: runId })).body.data.run.usage;
      // 3 replays of $0.0000012: $0.0000036 summed, $0.000004 in 6 decimals.
      const engine = await finishedRun(["gpt-4.1-nano"]);
      expect(await costsOf(engine)).toEqual({ agent: { cost: 0.000004 }, judge: { cost: null }, totalCost: 0.000004 });
      const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "cost decimals", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
      const results = [
        { scenario_key: "a", label: "gpt-5-mini", status: "passed", score: 1, cost: 0.4333336 },
        { scenario_key: "b", label: "gpt-5-mini", status: "passed", score: 1, cost: 0.002412 },
      ];
      const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results };
      const envelope = { version: 1, run_id: "cost-decimals-1", source: "ci", agent_name: "SupportAgent", suite: "support", report };
      const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: created.body.data.createEvaluation.evaluationId, e: envelope });
      // 0.4357456 summed: the report's summary says 0.435746, and so does every part.
      expect(Report.fromJSON(report as unknown as ReportDocument).summaryByModel["gpt-5-mini"].cost).toBe(0.435746);
      expect(await costsOf(imported.body.data.importReport.runId)).toEqual({ agent: { cost: 0.435746 }, judge: { cost: null }, totalCost: 0.435746 });
    });

    it("counts a running run's replays as they are scored (an external run: a host's replays keep the cost source they give)", async () => {
      const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { models: ["gpt-5-mini"] }) { runId } }`, { id: evaluationId });
      const runId: string = started.body.data.startRun.runId;
      const record = (key: string, replay: Record<string, unknown>) =>
        p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $k: String!, $replay: JSON!) { recordReplay(runId: $r, scenarioKey: $k, modelLabel: "gpt-5-mini", replay: $replay) { duplicate } }`, { r: runId, k: key, replay });
      // Nothing replayed yet: the selected pairs are not unpriced replays.
      expect((await usageOf(runId)).agent).toEqual({ cost: null, priced: 0, unpriced: 0, reported: 0, estimated: 0, costBasis: null });
      await record("greeting", { answer: "Hello! How can I help you today?", cost: 0.001, duration_ms: 30 });
      expect(await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status } }`, { r: runId })).toMatchObject({ body: { data: { run: { status: "RUNNING" } } } });
      await expect.poll(async () => (await usageOf(runId)).agent, { timeout: 5000 }).toEqual({ cost: 0.001, priced: 1, unpriced: 0, reported: 1, estimated: 0, costBasis: "REPORTED" });
      await record("refund", { answer: "I refunded order 4821.", cost: 0.002, duration_ms: 45.5, metadata: { cost_source: "estimated", cost_rate: { input: 1, output: 2 } } });
      await expect.poll(async () => (await usageOf(runId)).agent, { timeout: 5000 }).toEqual({ cost: 0.003, priced: 2, unpriced: 0, reported: 1, estimated: 1, costBasis: "MIXED" });
      await record("order_status", { answer: "Order 4821 shipped yesterday." });
      // Counted once scored, as the report counts them (the worker scores each replay after it is recorded).
      await expect.poll(async () => (await usageOf(runId)).agent, { timeout: 5000 }).toEqual({ cost: 0.003, priced: 2, unpriced: 1, reported: 1, estimated: 1, costBasis: "MIXED" });
      const finished = await usageOf(runId);
      const { cost: _cost, costBasis: _basis, ...counts } = finished.agent;
      expect(counts).toEqual(await reportCounts(runId));
      // Scored so far: three replays, two priced (0.003 over 2), two durations; no wall time while it runs.
      const run = await figuresOf(runId);
      expect(run.status).toBe("RUNNING");
      expect(run.usage.agent).toMatchObject({ replays: 3, perInteraction: 0.0015, modelTimeMs: 75.5 });
      expect(run.usage.runtimeMs).toBeNull();
    });
  });

  async function figuresOf(runId: string) {
    const res = await p.gql(p.keys.acmeRead, FIGURES, { r: runId });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.run;
  }

  /** What the run's recorded judge exchanges (its grades' and its verdict's) add up to, per kind, in first-seen order. */
  async function exchangesByKind(runId: string) {
    const res = await p.gql(p.keys.acmeRead, `query ($r: ID!) { runAudit(id: $r) { grades { judgeExchanges } verdict { judgeExchange } } }`, { r: runId });
    expect(res.body.errors).toBeUndefined();
    const audit = res.body.data.runAudit;
    const exchanges = [...audit.grades.flatMap((g: { judgeExchanges: unknown[] }) => g.judgeExchanges), ...(audit.verdict?.judgeExchange ? [audit.verdict.judgeExchange] : [])];
    const kinds = new Map<string, { kind: string; calls: number; inputTokens: number; outputTokens: number; cost: number }>();
    for (const exchange of exchanges as Array<{ kind: string; usage: { input_tokens: number; output_tokens: number; cost: number } }>) {
      const kind = kinds.get(exchange.kind) ?? { kind: exchange.kind, calls: 0, inputTokens: 0, outputTokens: 0, cost: 0 };
      kind.calls += 1;
      kind.inputTokens += exchange.usage.input_tokens;
      kind.outputTokens += exchange.usage.output_tokens;
      kind.cost = Math.round((kind.cost + exchange.usage.cost) * 1e6) / 1e6;
      kinds.set(exchange.kind, kind);
    }
    return [...kinds.values()];
  }

  async function reportJson(runId: string, evaluation: string) {
    const res = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluation}/runs/${runId}/report.json`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { report: Record<string, any> }).report;
  }

  const runtimeOf = (run: { startedAt: string; completedAt: string }) => Date.parse(run.completedAt) - Date.parse(run.startedAt);

  describe("a run's usage figures beyond the counts (#23)", () => {
    let judgedEvaluation: string;
    let importedRunId: string;
    let judgedRunId: string;

    beforeAll(async () => {
      const judged = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", name: "usage (judged)", judgeKind: LLM, judgeModel: "usage-judge" }) { evaluationId } }`);
      expect(judged.body.errors).toBeUndefined();
      judgedEvaluation = judged.body.data.createEvaluation.evaluationId;
    });

    it("says the replays scored, the cost per priced replay, the agent's time and the run's wall time; the judge never asked: no source, model, kinds or run part", async () => {
      const runId = await finishedRun(["gpt-5-mini", "claude-sonnet-5", "llama3:8b", "gpt-4o"]);
      const run = await figuresOf(runId);
      // 3 scenarios a model; priced: 3 x 0.0004 + 3 x 0.006 + 3 x $0 = 0.0192 over 9; durations 3 x (120 + 250.5 + 40 + 0).
      expect(run.usage.agent).toEqual({
        cost: 0.0192, priced: 9, unpriced: 3, replays: 12, perInteraction: 0.002133, modelTimeMs: 1231.5, model: null, byKind: null, run: null, source: null,
      });
      expect(run.usage.judge).toEqual({
        calls: 0, inputTokens: 0, outputTokens: 0, cost: null, source: null, model: null, byKind: [], run: null, replays: null, perInteraction: null, modelTimeMs: null,
      });
      expect(run.usage.runtimeMs).toBe(runtimeOf(run));
      expect(run.usage.runtimeMs).toBeGreaterThanOrEqual(0);
      // The report's results are the replays counted.
      const counts = await reportCounts(runId);
      expect(run.usage.agent.replays).toBe(counts.priced + counts.unpriced);
      // Read again (the finished run's kept figures), the same.
      expect((await figuresOf(runId)).usage).toEqual(run.usage);
    });

    it("says a judged comparison's calls by kind (score, recommend, and the verdict: the run's own), its model and METER, as its exchanges and its report's judge_usage add them up", async () => {
      judgedRunId = await finishedRun(["gpt-5-mini", "claude-sonnet-5"], judgedEvaluation);
      const run = await figuresOf(judgedRunId);
      const judge = run.usage.judge;
      const kinds = await exchangesByKind(judgedRunId);
      expect(kinds.map((k) => k.kind).sort()).toEqual(["recommend", "score", "verdict"]);
      expect(kinds.find((k) => k.kind === "score")).toEqual({ kind: "score", calls: 6, inputTokens: 2400, outputTokens: 72, cost: 0.0036 });
      expect(judge.byKind).toEqual(["score", "recommend", "verdict"].map((kind) => kinds.find((k) => k.kind === kind)));
      expect(judge.run).toEqual({ calls: 1, cost: 0.002, byKind: [{ kind: "verdict", calls: 1, inputTokens: 900, outputTokens: 40, cost: 0.002 }] });
      expect(judge).toMatchObject({ source: "METER", model: "judge-model-1" });
      // The kinds add up to the run's judge totals.
      expect(judge.calls).toBe(kinds.reduce((n, k) => n + k.calls, 0));
      expect(judge.inputTokens).toBe(kinds.reduce((n, k) => n + k.inputTokens, 0));
      expect(judge.cost).toBeCloseTo(kinds.reduce((n, k) => n + k.cost, 0), 9);
      // As the run's report sums its judge usage.
      const usage = (await reportJson(judgedRunId, judgedEvaluation)).judge_usage;
      expect(Object.fromEntries(judge.byKind.map((k: { kind: string; calls: number }) => [k.kind, k.calls]))).toEqual(usage.by_kind);
      expect({ calls: judge.calls, cost: judge.cost, model: judge.model }).toEqual({ calls: usage.calls, cost: usage.cost, model: usage.model });
      expect({ calls: judge.run.calls, cost: judge.run.cost, by_kind: { verdict: 1 } }).toEqual(usage.run);
      expect(run.usage.runtimeMs).toBe(runtimeOf(run));
    });

    it("has no run part for a judged run of one model (no verdict), its kinds all its results'", async () => {
      const runId = await finishedRun(["gpt-5-mini"], judgedEvaluation);
      const judge = (await figuresOf(runId)).usage.judge;
      expect(judge.run).toBeNull();
      expect(judge.byKind.map((k: { kind: string }) => k.kind)).not.toContain("verdict");
      const kinds = await exchangesByKind(runId);
      expect(judge.byKind).toEqual(["score", "recommend"].flatMap((kind) => kinds.filter((k) => k.kind === kind)));
      expect(judge).toMatchObject({ source: "METER", model: "judge-model-1" });
    });

    it("says an imported run's figures from its report: REPORTED, the host's judge model, calls per kind without tokens or cost by kind, no runtime", async () => {
      const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "usage imports", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
      const imports = created.body.data.createEvaluation.evaluationId;
      const judgeUsage = (calls: number, byKind: Record<string, number>) => ({ calls, input_tokens: 100 * calls, output_tokens: 10 * calls, cost: 0.001 * calls, model: "host-judge", by_kind: byKind });
      // As a report is written (this platform's, the reference's): the result's metadata holds
      // its judge_usage, which the report reads, and a copy is written out beside it. A result
      // with the top-level key alone (c) counts nothing, as its report counts nothing for it.
      const usageOf = (usage: ReturnType<typeof judgeUsage>) => ({ judge_usage: usage, metadata: { judge_usage: usage } });
      const results = [
        { scenario_key: "a", label: "gpt-5-mini", status: "passed", score: 1, cost: 0.01, duration_ms: 100, ...usageOf(judgeUsage(2, { score: 1, recommend: 1 })) },
        { scenario_key: "b", label: "gpt-5-mini", status: "failed", score: 0.2, fault: "low_quality", duration_ms: 50.25, ...usageOf(judgeUsage(1, { score: 1 })) },
        { scenario_key: "c", label: "gpt-5-mini", status: "passed", score: 1, cost: 0.02, judge_usage: { ...judgeUsage(5, { define: 5 }), model: "top-level-judge" } },
      ];
      const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results, run_judge_usage: { calls: 1, input_tokens: 420, output_tokens: 18, cost: 0.00011, by_kind: { verdict: 1 } } };
      const envelope = { version: 1, run_id: "usage-imported-1", source: "ci", agent_name: "SupportAgent", suite: "support", report };
      const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: imports, e: envelope });
      expect(imported.body.errors).toBeUndefined();
      importedRunId = imported.body.data.importReport.runId;
      const run = await figuresOf(importedRunId);
      expect(run.usage.agent).toMatchObject({ cost: 0.03, priced: 2, unpriced: 1, replays: 3, perInteraction: 0.015, modelTimeMs: 150.25 });
      const unsplit = (kind: string, calls: number) => ({ kind, calls, inputTokens: null, outputTokens: null, cost: null });
      expect(run.usage.judge).toEqual({
        calls: 4, inputTokens: 720, outputTokens: 48, cost: 0.00311, source: "REPORTED", model: "host-judge",
        byKind: [unsplit("score", 2), unsplit("recommend", 1), unsplit("verdict", 1)],
        run: { calls: 1, cost: 0.00011, byKind: [unsplit("verdict", 1)] },
        replays: null, perInteraction: null, modelTimeMs: null,
      });
      // The run's report says the same.
      const rebuilt = Report.fromJSON(report as unknown as ReportDocument).judgeUsage!;
      expect({ calls: rebuilt.calls, input_tokens: rebuilt.input_tokens, cost: rebuilt.cost, model: rebuilt.model, by_kind: rebuilt.by_kind })
        .toEqual({ calls: 4, input_tokens: 720, cost: 0.00311, model: "host-judge", by_kind: { score: 2, recommend: 1, verdict: 1 } });
      // Imported at one instant: how long the host's run took is not known.
      expect(run.usage.runtimeMs).toBeNull();
    });

    it("never counts another tenant's runs: their ids answer nothing, with the tenant's own", async () => {
      const readModels = p.read.readModels;
      expect(await readModels.runUsageFigures("globex", [judgedRunId, importedRunId])).toEqual([]);
      const own = await readModels.runUsageFigures("acme", [judgedRunId, importedRunId, "no-such-run"]);
      expect(own.map((f) => f.runId).sort()).toEqual([judgedRunId, importedRunId].sort());
      const judged = await p.gql(p.keys.globexWrite, `query ($r: ID!) { run(id: $r) { usage { judge { byKind { kind } } } } }`, { r: judgedRunId });
      expect(judged.body.errors[0].extensions.code).toBe("NOT_FOUND");
    });
  });
}
