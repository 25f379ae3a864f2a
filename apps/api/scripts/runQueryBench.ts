// `tsx apps/api/scripts/runQueryBench.ts [scenarios=1000] [clients=20] [requests=10] [uncached]`: a
// scenarios x 3-model run with the scripted agent (embedded PGlite read models, memory event
// store, in-process worker and projector), then the `run` query with every result fetched by
// concurrent HTTP clients (in the same process as the server, so their own work counts too);
// prints wall time to completion and the queries' latency percentiles. `uncached` turns the
// API's kept answers off, to time the execution itself (every request resolves every field).
import "reflect-metadata";
import { ensureDecoratorTsconfig } from "../decoratorTsconfig.js";

const SUMMARY_QUERY = `query ($id: ID!) { run(id: $id) { status number progress { completed total passed failed errored }
  models { label summary { passRate avgScore } } verdict { winner judge } usage { agent { cost } judge { calls cost } } } }`;
const RESULTS_QUERY = `query ($id: ID!) { run(id: $id) { status results { edges { node { scenarioKey modelLabel status score fault } } } } }`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(scenarioCount: number, clients: number, requests: number, uncached: boolean): Promise<void> {
  const { startPlatform } = await import("../testing/harness.js");
  const { ResponseCache } = await import("../server/responseCache.js");
  const p = await startPlatform({ limits: { maxCost: 1_000_000 }, responseCache: uncached ? new ResponseCache(0) : undefined });
  try {
    const scenarios = Array.from({ length: scenarioCount }, (_, i) => ({ key: `s${i}`, prompt: `Question ${i}?`, forbidden_patterns: ["password"] }));
    const created = await p.gql(p.keys.acmeWrite, `mutation ($s: JSON!) { createEvaluation(input: { agent: "SupportAgent", name: "bench", scenarios: $s, compareModels: ["gpt-5-mini", "claude-sonnet-5", "llama3:8b"] }) { evaluationId } }`, { s: scenarios });
    const evaluationId = created.body.data.createEvaluation.evaluationId;
    const started = Date.now();
    const run = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
    const runId = run.body.data.startRun.runId;
    for (;;) {
      const res = await p.gql(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { status } }`, { id: runId });
      if (res.body.data?.run.status === "COMPLETED") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const wall = Date.now() - started;
    const measure = async (query: string, check: (data: any) => boolean) => {
      await p.gql(p.keys.acmeRead, query, { id: runId }); // warm: a finished run is read once, then served from memory
      const times: number[] = [];
      await Promise.all(Array.from({ length: clients }, async () => {
        for (let i = 0; i < requests; i++) {
          const t = performance.now();
          const res = await p.gql(p.keys.acmeRead, query, { id: runId });
          times.push(performance.now() - t);
          if (!check(res.body.data)) throw new Error(`unexpected answer: ${JSON.stringify(res.body).slice(0, 300)}`);
        }
      }));
      times.sort((a, b) => a - b);
      return { clients, requests: times.length, p50: Math.round(percentile(times, 50)), p95: Math.round(percentile(times, 95)), max: Math.round(times[times.length - 1]) };
    };
    const summary = await measure(SUMMARY_QUERY, (d) => d.run.progress.completed === scenarioCount * 3);
    const results = await measure(RESULTS_QUERY, (d) => d.run.results.edges.length === scenarioCount * 3);
    console.log(JSON.stringify({
      pairs: scenarioCount * 3, responseCache: !uncached, runWallMs: wall, resultsPerSecond: Math.round((scenarioCount * 3 * 1000) / wall),
      runSummaryQuery: summary, runWithAllResultsQuery: results,
    }));
  } finally {
    await p.close();
  }
}

if (ensureDecoratorTsconfig()) {
  const [scenarios = "1000", clients = "20", requests = "10", mode = ""] = process.argv.slice(2);
  main(Number(scenarios), Number(clients), Number(requests), mode === "uncached").then(() => process.exit(0), (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
