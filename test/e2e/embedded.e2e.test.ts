// The embedded default end to end: `verdict start` (npm start) as its own process, everything in
// one process on PGlite and the in-memory job bus under a fresh VERDICT_HOME, with no PostgreSQL
// or Kafka in its environment. After its own example run, the test drives it as a client would:
// GraphQL import, evaluation, a 3-model run followed over graphql-ws, the report over REST.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiClient, auditCounts, PROGRESS_SUBSCRIPTION, type ApiClient, type ProgressMessage } from "./support/apiClient.js";
import { nodes } from "../../apps/api/testing/nodes.js";
import { API_TSCONFIG, ROOT, spawnApp, stopApp, tail, type AppProcess } from "./support/processes.js";

const MODELS = ["gpt-5-mini", "claude-sonnet-4-5", "ollama/qwen3:8b"];
const PAIRS = 10 * MODELS.length;

let home: string;
let verdict: AppProcess;
let client: ApiClient;
let key: string;
let evaluationId: string;
let runId: string;

/** The embedded default: no service in the environment, the data under VERDICT_HOME. */
function embeddedEnv(): Record<string, string | undefined> {
  return { VERDICT_HOME: home, DATABASE_URL: undefined, VERDICT_READ_DATABASE_URL: undefined, KAFKA_BROKERS: undefined, TSX_TSCONFIG_PATH: API_TSCONFIG };
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "verdict-e2e-home-"));
  verdict = spawnApp("verdict start", ["apps/cli/main.ts", "start", "--port", "0"], embeddedEnv());
  const [, graphqlUrl] = await verdict.waitForOutput(/GraphQL:\s+(http:\/\/\S+\/graphql)/, 150_000);
  [, key] = await verdict.waitForOutput(/API key:\s+(\S+)/, 10_000);
  client = apiClient(graphqlUrl);
}, 180_000);

afterAll(async () => {
  await client?.close();
  if (verdict) await stopApp(verdict, 10_000);
  if (home) await rm(home, { recursive: true, force: true });
}, 60_000);

afterEach((context) => {
  if (context.task.result?.state === "fail") console.error(`--- verdict start (pid ${verdict.pid})\n${tail(verdict.output(), 30)}`);
});

describe("the embedded default (verdict start: PGlite + memory bus, one process)", () => {
  it("ran its own example and reports where it wrote the HTML report", async () => {
    const [, htmlPath] = await verdict.waitForOutput(/Report:\s+(\S+\.html)/, 5_000);
    expect(htmlPath.startsWith(home)).toBe(true);
    expect(await readFile(htmlPath, "utf8")).toContain("claude-sonnet-4-5");
  });

  it("imports a catalog over GraphQL, runs 3 models followed live until COMPLETED, and serves the report over REST", async () => {
    // The example catalog under another key: a new import for this tenant, the scripted agent's scenarios.
    const yaml = (await readFile(join(ROOT, "examples", "support", "catalog.yaml"), "utf8")).replace(/^catalog: support$/m, "catalog: e2e_support");
    const imported = await client.ok(key, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key changed scenarioCount } }`, { yaml });
    expect(imported.importCatalog).toEqual({ key: "e2e_support", changed: true, scenarioCount: 10 });
    const created = await client.ok(key, `mutation ($models: [String!]) { createEvaluation(input: { fromCatalogSet: "e2e_support/support/smoke", compareModels: $models }) { evaluationId evaluation { scenarioCount } } }`, { models: MODELS });
    evaluationId = created.createEvaluation.evaluationId;
    expect(created.createEvaluation.evaluation.scenarioCount).toBe(10);
    const started = await client.ok(key, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId number } }`, { id: evaluationId });
    runId = started.startRun.runId;
    expect(started.startRun.number).toBe(1);

    const progress = (await client.subscribe<ProgressMessage>(key, PROGRESS_SUBSCRIPTION, { runId })).map((m) => m.runProgress);
    const completed = progress.map((p) => p.completed);
    expect(completed).toEqual([...completed].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ status: "COMPLETED", total: PAIRS, completed: PAIRS });

    const base = `/api/evaluations/${evaluationId}/runs/${runId}`;
    const html = await client.get(key, `${base}/report`);
    expect(html.status).toBe(200);
    const page = await html.text();
    for (const label of MODELS) expect(page).toContain(label);
    const verdictMd = await client.get(key, `${base}/report.md?part=verdict`);
    expect(await verdictMd.text()).toContain("claude-sonnet-4-5");
    const json = (await (await client.get(key, `${base}/report.json`)).json()) as Record<string, unknown>;
    expect(JSON.stringify(json)).toContain("ollama/qwen3:8b");
    const download = await client.get(key, `${base}/report.md?download=1`);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="e2e_support-support-smoke-run-1\.md"$/);

    const data = await client.ok(key, `query ($id: ID!) { run(id: $id) { status results { totalCount edges { node { status fault modelLabel scenarioKey } } } matrix { totalCount } fixItems { edges { node { fault } } } verdict { winner } comparison } }`, { id: runId });
    expect(data.run).toMatchObject({ status: "COMPLETED", verdict: { winner: "claude-sonnet-4-5" } });
    expect(nodes(data.run.results)).toHaveLength(PAIRS);
    expect(data.run.results.totalCount).toBe(PAIRS);
    expect(data.run.matrix.totalCount).toBe(10);
    // examples/support/agent.yaml: no model has a refund tool.
    const refunds = nodes(data.run.results).filter((r: { scenarioKey: string }) => r.scenarioKey === "refund_damaged_item");
    expect(refunds.map((r: { fault: string }) => r.fault)).toEqual(["missing_capability", "missing_capability", "missing_capability"]);
    expect(nodes(data.run.fixItems).length).toBeGreaterThan(0);
    expect(data.run.comparison).not.toBeNull();
    const audit = await auditCounts(client, key, runId);
    expect([audit.count("ResultScored"), audit.distinctScored, audit.count("VerdictRecorded"), audit.count("RunCompleted")]).toEqual([PAIRS, PAIRS, 1, 1]);
  }, 120_000);

  it("a key for another tenant, made while it runs (verdict keys create), sees none of it", async () => {
    const maker = spawnApp("verdict keys create", ["apps/cli/main.ts", "keys", "create", "--tenant", "globex", "--role", "read"], embeddedEnv());
    const { code } = await maker.exited;
    expect(code, maker.output()).toBe(0);
    const other = maker.output().trim().split("\n").at(-1)!.trim();
    expect((await client.ok(other, `{ catalogs { totalCount } evaluations { totalCount } }`))).toEqual({ catalogs: { totalCount: 0 }, evaluations: { totalCount: 0 } });
    const run = await client.gql(other, `query ($id: ID!) { run(id: $id) { id } }`, { id: runId });
    expect(run.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect((await client.get(other, `/api/evaluations/${evaluationId}/runs/${runId}/report`)).status).toBe(404);
  }, 60_000);
});
