// The platform distributed, end to end: the API, the projector and two workers as separate
// processes on PostgreSQL (a fresh database for this file) and the local Kafka broker (topics
// under a prefix of this file's own). Everything goes through the API as a client would: fetch
// for GraphQL and REST, graphql-ws for live progress. Needs `bash infra/services/postgres.sh`
// and `bash infra/services/kafka.sh start`.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openReadModels, readModelChecksum } from "@verdict/projector";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { nodes } from "../../apps/api/testing/nodes.js";
import { apiClient, auditCounts, PROGRESS_SUBSCRIPTION, type ApiClient, type ProgressMessage } from "./support/apiClient.js";
import { BROKERS, createApiKey, distributedEnv, rebuildChecksum, startApi, startProjector, startWorkerProcess, type DistributedEnv } from "./support/platformProcesses.js";
import { killApp, ROOT, stopApp, tail, waitFor, type AppProcess } from "./support/processes.js";

const MODELS = ["gpt-5-mini", "claude-sonnet-4-5", "ollama/qwen3:8b"];
const PAIRS = 10 * MODELS.length;

let db: TestDatabase;
let rebuildDb: TestDatabase;
let env: DistributedEnv;
let api: AppProcess;
let projector: AppProcess;
const workers: AppProcess[] = [];
const started: AppProcess[] = [];
let client: ApiClient;
let keyA: string;
let keyB: string;
let evaluationId: string;
let firstRunId: string;

async function startRun(): Promise<string> {
  const data = await client.ok(keyA, `mutation ($id: ID!, $models: [String!]) { startRun(evaluationId: $id, selection: { models: $models }) { runId } }`, { id: evaluationId, models: MODELS });
  return data.startRun.runId;
}

/** Follows runProgress until the server completes it; `onNext` may act mid-run (kill, restart). */
async function followRun(runId: string, onNext?: (p: ProgressMessage["runProgress"]) => void): Promise<ProgressMessage["runProgress"][]> {
  const messages = await client.subscribe<ProgressMessage>(keyA, PROGRESS_SUBSCRIPTION, { runId }, (m) => onNext?.(m.runProgress));
  return messages.map((m) => m.runProgress);
}

function expectCountsOnlyIncrease(progress: ProgressMessage["runProgress"][]): void {
  for (const field of ["completed", "passed", "failed", "errored"] as const) {
    const values = progress.map((p) => p[field]);
    expect(values, field).toEqual([...values].sort((a, b) => a - b));
  }
  const last = progress.at(-1)!;
  expect(last).toMatchObject({ status: "COMPLETED", total: PAIRS, completed: PAIRS });
  expect(last.passed + last.failed + last.errored).toBe(PAIRS);
}

/** One ReplayRecorded and one ResultScored per pair, one verdict, one completion. */
async function expectExactlyOncePerPair(runId: string): Promise<void> {
  const audit = await auditCounts(client, keyA, runId);
  expect(audit.status).toBe("COMPLETED");
  expect(audit.count("ResultScored")).toBe(PAIRS);
  expect(audit.distinctScored).toBe(PAIRS);
  expect(audit.count("ReplayRecorded")).toBe(PAIRS);
  expect(audit.count("VerdictRecorded")).toBe(1);
  expect(audit.count("ComparisonRecorded")).toBe(1);
  expect(audit.count("RunCompleted")).toBe(1);
  const run = await client.ok(keyA, `query ($id: ID!) { run(id: $id) { results { edges { node { status } } } } }`, { id: runId });
  expect(nodes(run.run.results)).toHaveLength(PAIRS);
  expect(nodes(run.run.results).filter((r: { status: string }) => r.status === "PENDING")).toEqual([]);
}

function dumpOutputs(): string {
  return started.map((app) => `--- ${app.name} (pid ${app.pid})\n${tail(app.output(), 15)}`).join("\n");
}

async function track(app: Promise<AppProcess>): Promise<AppProcess> {
  const running = await app;
  started.push(running);
  return running;
}

beforeAll(async () => {
  db = await createTestDatabase("verdict_e2e");
  rebuildDb = await createTestDatabase("verdict_e2e_rebuild");
  env = distributedEnv(db.url, join(ROOT, "test", "e2e", "fixtures", "slowAgent.yaml"));
  // The API first: it creates the event store's and the read models' tables the others use.
  const apiStarted = await startApi(env);
  api = apiStarted.app;
  started.push(api);
  client = apiClient(apiStarted.graphqlUrl);
  [keyA, keyB] = await Promise.all([createApiKey(env, "acme", "write"), createApiKey(env, "globex", "write")]);
  projector = await track(startProjector(env));
  // One after the other: two workers starting at once on a fresh database race on
  // `CREATE TABLE IF NOT EXISTS worker_checkpoints` and one exits (pg_type_typname_nsp_index).
  workers.push(await track(startWorkerProcess(env, "worker-1")));
  workers.push(await track(startWorkerProcess(env, "worker-2")));
}, 180_000);

afterAll(async () => {
  await client?.close();
  await Promise.allSettled(started.map((app) => stopApp(app)));
  await Promise.allSettled([db?.drop(), rebuildDb?.drop()]);
  const kafka = new Kafka({ brokers: BROKERS.split(","), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  try {
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => env && t.startsWith(env.topicPrefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } catch {
    // Leftover topics under a random prefix harm nothing.
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}, 60_000);

describe("the platform as separate processes (api, projector, two workers) on PostgreSQL and Kafka", () => {
  it("imports the example catalog, runs 3 models followed live over graphql-ws, and reports over REST and GraphQL", async () => {
    const yaml = await readFile(join(ROOT, "examples", "support", "catalog.yaml"), "utf8");
    const imported = await client.ok(keyA, `mutation ($yaml: String!) { importCatalog(yaml: $yaml, sourcePath: "examples/support/catalog.yaml") { key changed scenarioCount } }`, { yaml });
    expect(imported.importCatalog).toEqual({ key: "support", changed: true, scenarioCount: 10 });
    const created = await client.ok(keyA, `mutation ($models: [String!]) { createEvaluation(input: { fromCatalogSet: "support/support/smoke", compareModels: $models }) { evaluationId evaluation { name agent scenarioCount } } }`, { models: MODELS });
    evaluationId = created.createEvaluation.evaluationId;
    expect(created.createEvaluation.evaluation).toMatchObject({ agent: "SupportAgent", scenarioCount: 10 });
    const evaluationName: string = created.createEvaluation.evaluation.name;

    firstRunId = await startRun();
    const progress = await followRun(firstRunId);
    expectCountsOnlyIncrease(progress);

    const base = `/api/evaluations/${evaluationId}/runs/${firstRunId}`;
    const html = await client.get(keyA, `${base}/report`);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toContain("text/html");
    const page = await html.text();
    for (const label of MODELS) expect(page).toContain(label);
    const verdictMd = await client.get(keyA, `${base}/report.md?part=verdict`);
    expect(verdictMd.status).toBe(200);
    // The scripted judge (examples/support/judge.yaml) picks claude-sonnet-4-5.
    expect(await verdictMd.text()).toContain("claude-sonnet-4-5");
    const json = await client.get(keyA, `${base}/report.json`);
    expect(json.status).toBe(200);
    const envelope = JSON.stringify(await json.json());
    for (const label of MODELS) expect(envelope).toContain(label);
    const download = await client.get(keyA, `${base}/report?download=1`);
    const safeName = evaluationName.replace(/[/\\]+/g, "-");
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${safeName}-run-1.html"`);

    const data = await client.ok(keyA, `query ($id: ID!) { run(id: $id) {
      status number
      results { edges { node { scenarioKey modelLabel status fault } } }
      matrix { edges { node { scenarioKey cells { modelLabel status } } } }
      fixItems { edges { node { kind fault models } } }
      verdict { winner }
      comparison
    } }`, { id: firstRunId });
    const run = { ...data.run, results: nodes(data.run.results), matrix: nodes(data.run.matrix), fixItems: nodes(data.run.fixItems) };
    expect(run).toMatchObject({ status: "COMPLETED", number: 1, verdict: { winner: "claude-sonnet-4-5" } });
    expect(run.results).toHaveLength(PAIRS);
    expect(run.matrix).toHaveLength(10);
    expect(run.matrix.every((row: { cells: Array<{ modelLabel: string }> }) => row.cells.map((c) => c.modelLabel).join() === MODELS.join())).toBe(true);
    // The fixture agent: only gpt-5-mini looks the order up; qwen repeats a card number.
    const cell = (key: string, label: string) => run.results.find((r: { scenarioKey: string; modelLabel: string }) => r.scenarioKey === key && r.modelLabel === label);
    expect(cell("order_status", "claude-sonnet-4-5")).toMatchObject({ status: "FAILED", fault: "expected_tool_not_called" });
    expect(cell("double_charge", "ollama/qwen3:8b")).toMatchObject({ status: "FAILED" });
    expect(run.fixItems.length).toBeGreaterThan(0);
    expect(run.comparison).not.toBeNull();
    await expectExactlyOncePerPair(firstRunId);
  }, 120_000);

  it("a worker killed with kill -9 mid-run (the dispatcher's leader): the other finishes it, exactly one result per pair", async () => {
    const runId = await startRun();
    const published = new RegExp(`run ${runId}: ${PAIRS} replay jobs published`);
    const leader = await waitFor("a worker to publish the run's jobs", () => workers.find((w) => published.test(w.output())), 60_000);
    let killed: Promise<void> | null = null;
    let killedAt = -1;
    const progress = await followRun(runId, (p) => {
      if (!killed && p.completed >= 1 && p.completed < p.total) {
        killedAt = p.completed;
        killed = killApp(leader);
      }
    });
    expect(killed, "the worker was killed before the run ended").not.toBeNull();
    await killed;
    expect(killedAt).toBeLessThan(PAIRS);
    expect(leader.isRunning()).toBe(false);
    expectCountsOnlyIncrease(progress);
    await expectExactlyOncePerPair(runId);
    // Back to two workers for what follows.
    workers.splice(workers.indexOf(leader), 1);
    workers.push(await track(startWorkerProcess(env, "worker-3")));
  }, 150_000);

  it("a projector killed and restarted mid-run: the read models equal a full rebuild of the log", async () => {
    const runId = await startRun();
    let restarted: Promise<AppProcess> | null = null;
    const progress = await followRun(runId, (p) => {
      if (!restarted && p.completed >= 1 && p.completed < p.total) {
        restarted = killApp(projector).then(() => track(startProjector(env, "projector-2")));
      }
    });
    expect(restarted, "the projector was restarted before the run ended").not.toBeNull();
    projector = await restarted!;
    expectCountsOnlyIncrease(progress);
    await expectExactlyOncePerPair(runId);

    const read = await openReadModels({ url: db.url });
    let live;
    try {
      live = await readModelChecksum(read.sql);
    } finally {
      await read.close();
    }
    const rebuilt = await rebuildChecksum(env, rebuildDb.url);
    expect(live.runs.rows).toBe(3);
    expect(live.results.rows).toBe(3 * PAIRS);
    expect(rebuilt.checksum).toEqual(live);
  }, 150_000);

  it("completion jobs racing on both workers (one per partition, mid-run) record one verdict", async () => {
    const runId = await startRun();
    const kafka = new Kafka({ brokers: BROKERS.split(","), clientId: "e2e-race", logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    const producer = kafka.producer();
    await Promise.all([admin.connect(), producer.connect()]);
    try {
      // Both live workers hold partitions of the completion topic (worker-3 has joined the group).
      const group = `${env.topicPrefix}verdict-complete`;
      await waitFor("two members in the completion group", async () => {
        const [described] = (await admin.describeGroups([group])).groups;
        return described.state === "Stable" && described.members.length === 2;
      }, 60_000, 250);
      const topic = `${env.topicPrefix}verdict.complete`;
      const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
      expect(metadata.partitions.length).toBeGreaterThan(1);
      const job = JSON.stringify({ run_id: runId, tenant: "acme" });
      // Every partition: both workers' completion consumers get some, and race the dispatcher's own.
      await producer.send({ topic, messages: metadata.partitions.map((p) => ({ partition: p.partitionId, key: runId, value: job })) });
    } finally {
      await Promise.allSettled([admin.disconnect(), producer.disconnect()]);
    }
    expectCountsOnlyIncrease(await followRun(runId));
    await expectExactlyOncePerPair(runId);
  }, 150_000);

  it("another tenant's key sees none of the first tenant's data", async () => {
    const lists = await client.ok(keyB, `{ catalogs { totalCount edges { node { key } } } evaluations { totalCount edges { node { id } } } }`);
    expect(lists).toEqual({ catalogs: { totalCount: 0, edges: [] }, evaluations: { totalCount: 0, edges: [] } });
    for (const [query, variables] of [
      [`query { catalog(key: "support") { key } }`, {}],
      [`query ($id: ID!) { evaluation(id: $id) { id } }`, { id: evaluationId }],
      [`query ($id: ID!) { run(id: $id) { id status } }`, { id: firstRunId }],
      [`query ($id: ID!) { runAudit(id: $id) { runId } }`, { id: firstRunId }],
      [`mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId }],
    ] as const) {
      const answer = await client.gql(keyB, query, variables);
      // A nullable root field (runAudit, refused over the answer budget as null; startRun, refused
      // as null beside other fields) answers `{ runAudit: null }` rather than `data: null`: either
      // way nothing of the run.
      expect(Object.values(answer.data ?? {}).filter((value) => value !== null), query).toEqual([]);
      expect(answer.errors?.[0]?.extensions?.code, query).toBe("NOT_FOUND");
    }
    for (const suffix of ["report", "report.md", "report.json"]) {
      const res = await client.get(keyB, `/api/evaluations/${evaluationId}/runs/${firstRunId}/${suffix}`);
      expect(res.status, suffix).toBe(404);
      expect(await res.text()).not.toContain("claude-sonnet-4-5");
    }
    await expect(client.subscribe(keyB, PROGRESS_SUBSCRIPTION, { runId: firstRunId })).rejects.toThrow(/NOT_FOUND|not found/i);
    // The first tenant still sees its own.
    expect((await client.ok(keyA, `{ evaluations { totalCount } }`)).evaluations.totalCount).toBe(1);
  }, 60_000);
});

// Shown when a test fails: what each process said last.
afterEach((context) => {
  if (context.task.result?.state === "fail") console.error(dumpOutputs());
});
