// A run's usage says how its agent cost was arrived at (reference-platform #23's priced,
// unpriced, reported, estimated and cost_basis), counted as the run's report counts it: a reported
// cost, one the worker's price table estimated, $0 for a replay of no tokens (no_usage) and none.
// Shared by runUsage.test.ts (PGlite read models) and runUsage.int.test.ts (PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventStore } from "@verdict/domain";
import { PriceTable } from "@verdict/domain";
import { CATALOG_YAML, startPlatform, type Platform } from "./harness.js";

// Every scenario the same way per model: reported by the agent, priced by the table, no tokens, unpriced.
const AGENT_SCRIPT = `
agent: SupportAgent
default: { answer: "I can help with that. Here is what I found for you today." }
replies:
  - { prompt: "/./", models: [gpt-5-mini], answer: "Reported.", input_tokens: 100, output_tokens: 20, cost: 0.0004 }
  - { prompt: "/./", models: [claude-sonnet-5], answer: "Estimated.", input_tokens: 1000, output_tokens: 200 }
  - { prompt: "/./", models: ["llama3:8b"], answer: "No tokens.", input_tokens: 0, output_tokens: 0 }
  - { prompt: "/./", models: [gpt-4o], answer: "Unpriced.", input_tokens: 500, output_tokens: 50 }
`;
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
    p = await startPlatform({ agentScript: AGENT_SCRIPT, prices: PRICES, readUrl: opened.readUrl, store: opened.store });
    await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    evaluationId = created.body.data.createEvaluation.evaluationId;
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    await close?.();
  });

  /** A run of the three scenarios on `models`, followed until it ends. */
  async function finishedRun(models: string[]): Promise<string> {
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $m: [String!]) { startRun(evaluationId: $id, selection: { models: $m }) { runId } }`, { id: evaluationId, m: models });
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

    it("counts a running run's replays as they are scored (an external run: a host's replays keep the cost source they give)", async () => {
      const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { models: ["gpt-5-mini"] }) { runId } }`, { id: evaluationId });
      const runId: string = started.body.data.startRun.runId;
      const record = (key: string, replay: Record<string, unknown>) =>
        p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $k: String!, $replay: JSON!) { recordReplay(runId: $r, scenarioKey: $k, modelLabel: "gpt-5-mini", replay: $replay) { duplicate } }`, { r: runId, k: key, replay });
      // Nothing replayed yet: the selected pairs are not unpriced replays.
      expect((await usageOf(runId)).agent).toEqual({ cost: null, priced: 0, unpriced: 0, reported: 0, estimated: 0, costBasis: null });
      await record("greeting", { answer: "Hello! How can I help you today?", cost: 0.001 });
      expect(await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status } }`, { r: runId })).toMatchObject({ body: { data: { run: { status: "RUNNING" } } } });
      await expect.poll(async () => (await usageOf(runId)).agent, { timeout: 5000 }).toEqual({ cost: 0.001, priced: 1, unpriced: 0, reported: 1, estimated: 0, costBasis: "REPORTED" });
      await record("refund", { answer: "I refunded order 4821.", cost: 0.002, metadata: { cost_source: "estimated", cost_rate: { input: 1, output: 2 } } });
      await expect.poll(async () => (await usageOf(runId)).agent, { timeout: 5000 }).toEqual({ cost: 0.003, priced: 2, unpriced: 0, reported: 1, estimated: 1, costBasis: "MIXED" });
      await record("order_status", { answer: "Order 4821 shipped yesterday." });
      // Counted once scored, as the report counts them (the worker scores each replay after it is recorded).
      await expect.poll(async () => (await usageOf(runId)).agent, { timeout: 5000 }).toEqual({ cost: 0.003, priced: 2, unpriced: 1, reported: 1, estimated: 1, costBasis: "MIXED" });
      const finished = await usageOf(runId);
      const { cost: _cost, costBasis: _basis, ...counts } = finished.agent;
      expect(counts).toEqual(await reportCounts(runId));
    });
  });
}
