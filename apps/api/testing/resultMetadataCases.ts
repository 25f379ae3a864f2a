// A result's replay metadata and a run's metadata, served by GraphQL as `Result.metadata` and
// `Run.metadata` (reference-platform §1 #13; the evaluations guide's "exposed separately as
// metadata in result API responses"), equal to what the run's report.json gives for them: an
// external run's replays as its host recorded them (with the judge usage the report adds once a
// pair is judged), an engine run's (with the price table's cost_source and cost_rate), an imported
// report's results and run metadata; to its tenant only.
// Shared by resultMetadata.test.ts (PGlite read models) and resultMetadata.int.test.ts (PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PriceTable, type EventStore } from "@verdict/domain";
import { ScriptedJudge } from "@verdict/infra/judges";
import { JUDGE_SCRIPT, sampleEvaluation, startPlatform, type Platform } from "./harness.js";
import { nodes } from "./nodes.js";

const PRICES = PriceTable.from({ models: { "gpt-5-mini": { input: 0.25, output: 2 } } }, "prices.yaml");
const RESULTS = `query ($r: ID!) { run(id: $r) { status metadata results { edges { node { scenarioKey modelLabel status metadata } } } } }`;

type Doc = Record<string, any>;

export function resultMetadataCases(options: { open?: () => Promise<{ readUrl?: string; store?: EventStore; close?: () => Promise<void> }> } = {}): void {
  let p: Platform;
  let judged: string;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const opened = (await options.open?.()) ?? {};
    close = opened.close;
    p = await startPlatform({ readUrl: opened.readUrl, store: opened.store, prices: PRICES, judge: ScriptedJudge.fromYaml(JUDGE_SCRIPT) });
    await sampleEvaluation(p, ["gpt-5-mini"]);
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", name: "metadata (judged)", judgeKind: LLM, judgeModel: "scripted-judge", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    judged = created.body.data.createEvaluation.evaluationId;
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    await close?.();
  });

  async function untilEnded(runId: string): Promise<void> {
    for (let i = 0; i < 400; i += 1) {
      const status = (await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status } }`, { r: runId })).body.data.run.status;
      if (status === "COMPLETED") return;
      expect(status).not.toBe("FAILED");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`run ${runId} did not complete`);
  }

  async function reportJson(evaluationId: string, runId: string): Promise<Doc> {
    const response = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.json`);
    expect(response.status).toBe(200);
    return ((await response.json()) as Doc).report;
  }

  async function runOf(runId: string, key = p.keys.acmeRead): Promise<{ status: string; metadata: unknown; results: Doc[] }> {
    const res = await p.gql(key, RESULTS, { r: runId });
    expect(res.body.errors).toBeUndefined();
    return { ...res.body.data.run, results: nodes(res.body.data.run.results) };
  }

  /** Each pair's Result.metadata beside report.json's results[i].metadata for it (the report's order). */
  function pairedWithReport(run: { results: Doc[] }, report: Doc): Array<{ graphql: unknown; report: unknown }> {
    const byPair = new Map(run.results.map((r) => [`${r.scenarioKey} × ${r.modelLabel}`, r.metadata]));
    return (report.results as Doc[]).map((r) => ({ graphql: byPair.get(`${r.scenario_key} × ${r.label}`), report: r.metadata }));
  }

  describe("Result.metadata and Run.metadata", () => {
    it("serves an external run's replay metadata as its host recorded it, null until replayed, equal to report.json's results[i].metadata", async () => {
      const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { keys: ["greeting", "refund"], models: ["gpt-5-mini"] }) { runId } }`, { id: judged });
      const runId: string = started.body.data.startRun.runId;
      const record = (key: string, metadata: Doc) =>
        p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $k: String!, $replay: JSON!) { recordReplay(runId: $r, scenarioKey: $k, modelLabel: "gpt-5-mini", replay: $replay) { duplicate } }`, {
          r: runId, k: key, replay: { answer: "I can help with that. Here is what I found for you today.", input_tokens: 20, output_tokens: 12, cost: 0.0001, metadata },
        });
      const greeting = {
        host_run_id: "ci-run-77", host_result_id: "res-1", trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
        judge_trace_ids: ["00f067aa0ba902b7"], release: { tags: ["canary", "eu"] }, nested: { deep: { list: [1, "two", null, true] } },
      };
      expect((await record("greeting", greeting)).body.errors).toBeUndefined();
      // refund is not replayed yet: its metadata is null.
      const going = await runOf(runId);
      expect(going.results.find((r) => r.scenarioKey === "refund")).toMatchObject({ status: "PENDING", metadata: null });
      expect((await record("refund", { host_run_id: "ci-run-77", host_result_id: "res-2", judge_usage: { calls: 2, input_tokens: 7, output_tokens: 3, cost: 0.5 } })).body.errors).toBeUndefined();
      await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { scored } }`, { r: runId });
      await untilEnded(runId);

      const run = await runOf(runId);
      const report = await reportJson(judged, runId);
      expect(report.results).toHaveLength(2);
      for (const pair of pairedWithReport(run, report)) expect(pair.graphql).toEqual(pair.report);
      const byKey = new Map(run.results.map((r) => [r.scenarioKey, r.metadata as Doc]));
      // As the host gave it, and the judge's usage for this pair added as the report adds it.
      expect(byKey.get("greeting")).toMatchObject(greeting);
      expect(byKey.get("greeting")).toHaveProperty("judge_usage.calls");
      // A replay that carried its own judge_usage keeps it (the report's rule).
      expect(byKey.get("refund")).toEqual({ host_run_id: "ci-run-77", host_result_id: "res-2", judge_usage: { calls: 2, input_tokens: 7, output_tokens: 3, cost: 0.5 } });
      // A run started here with no metadata: {} (report.json leaves the key out).
      expect(run.metadata).toEqual(report.metadata ?? {});
      expect(run.metadata).toEqual({});
    });

    it("serves an engine run's replay metadata with the platform's own keys (cost_source, cost_rate, judge_usage), as report.json does", async () => {
      const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: judged });
      const runId: string = started.body.data.startRun.runId;
      await untilEnded(runId);
      const run = await runOf(runId);
      const report = await reportJson(judged, runId);
      expect(report.results.length).toBeGreaterThan(0);
      for (const pair of pairedWithReport(run, report)) {
        expect(pair.graphql).toEqual(pair.report);
        expect(pair.graphql).toMatchObject({ cost_source: "estimated", cost_rate: expect.objectContaining({ source: "price table" }), judge_usage: expect.objectContaining({ calls: expect.any(Number) }) });
      }
      expect(run.metadata).toEqual(report.metadata ?? {});
    });

    it("serves an imported report's per-result metadata and its run metadata as its report.json gives them, to its tenant only", async () => {
      const runMetadata = { host: "ci", build: 42, release: { tags: ["v2.3", "stable"] }, instructions: "Be brief." };
      const judgeUsage = { calls: 1, input_tokens: 100, output_tokens: 10, cost: 0.001 };
      const results = [
        { scenario_key: "a", label: "gpt-5-mini", status: "passed", score: 1, cost: 0.01, metadata: { trace_id: "trace-a", host_result_id: "h-a", cost_source: "reported", judge_usage: judgeUsage } },
        { scenario_key: "b", label: "gpt-5-mini", status: "passed", score: 1, metadata: { trace_id: "trace-b", judge_trace_ids: ["j-1", "j-2"] } },
        // No metadata at all: report.json gives none, the read model {}.
        { scenario_key: "c", label: "gpt-5-mini", status: "passed", score: 1 },
      ];
      const envelope = { version: 1, run_id: "metadata-import-1", source: "ci", agent_name: "SupportAgent", suite: "support", report: { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, metadata: runMetadata, results } };
      const imported = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: judged, e: envelope });
      expect(imported.body.errors).toBeUndefined();
      const runId: string = imported.body.data.importReport.runId;

      const run = await runOf(runId);
      const report = await reportJson(judged, runId);
      expect(run.metadata).toEqual(runMetadata);
      expect(run.metadata).toEqual(report.metadata);
      expect(run.results.map((r) => r.metadata)).toEqual([results[0].metadata, results[1].metadata, {}]);
      for (const pair of pairedWithReport(run, report)) expect(pair.graphql).toEqual(pair.report ?? {});

      // Another tenant: NOT_FOUND, and none of it in the answer.
      const foreign = await p.gql(p.keys.globexWrite, RESULTS, { r: runId });
      expect(foreign.body.data?.run ?? null).toBeNull();
      expect(foreign.body.errors[0].extensions.code).toBe("NOT_FOUND");
      const answered = JSON.stringify(foreign.body);
      for (const secret of ["trace-a", "h-a", "v2.3", "Be brief."]) expect(answered).not.toContain(secret);
    });
  });
}
