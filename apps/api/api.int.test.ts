// The API on real PostgreSQL: events, read models and API keys in one database, progress over
// LISTEN/NOTIFY, clients over HTTP and graphql-ws.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createPostgresEventStore } from "@verdict/infra";
import { createTestDatabase, testAdminUrl, type TestDatabase } from "../../infra/services/testDatabase.js";
import { createPostgresProgressBus } from "@verdict/projector";
import { createPostgresApiKeyStore } from "./auth/postgresApiKeyStore.js";
import { CATALOG_YAML, collect, startPlatform, type Platform } from "./testing/harness.js";

let db: TestDatabase;
let p: Platform;
const PROGRESS_RECONNECT_MS = 3_000;

beforeAll(async () => {
  db = await createTestDatabase("verdict_api");
  p = await startPlatform({
    store: await createPostgresEventStore({ connectionString: db.url }),
    readUrl: db.url,
    // Slow to reconnect, so that a run can end while the API is not listening (see runProgress below).
    progress: createPostgresProgressBus({ url: db.url, reconnectMs: PROGRESS_RECONNECT_MS }),
    apiKeys: await createPostgresApiKeyStore({ url: db.url }),
  });
}, 60_000);

afterAll(async () => {
  await p?.close();
  await db?.drop();
});

describe("the API on PostgreSQL", () => {
  it("keeps only key hashes in api_keys", async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT id, tenant, role, hash FROM api_keys ORDER BY tenant, role");
      expect(rows.map((r) => `${r.tenant}/${r.role}`)).toEqual(["acme/read", "acme/write", "globex/write"]);
      const dump = JSON.stringify(rows);
      for (const key of Object.values(p.keys)) expect(dump).not.toContain(key);
    } finally {
      await client.end();
    }
  });

  it("runs a catalog set across two models, followed over graphql-ws, and serves its report to its tenant only", async () => {
    await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", compareModels: ["gpt-5-mini", "claude-sonnet-5"] }) { evaluationId } }`);
    const evaluationId = created.body.data.createEvaluation.evaluationId;
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
    const runId = started.body.data.startRun.runId;
    const messages = await collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status completed total } }`, { runId });
    expect(messages[messages.length - 1].runProgress).toEqual({ status: "COMPLETED", completed: 6, total: 6 });
    const run = await p.gql(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { status verdict { winner } results { totalCount edges { node { status } } } } }`, { id: runId });
    expect(run.body.data.run).toMatchObject({ status: "COMPLETED", verdict: { winner: "gpt-5-mini" } });
    expect(run.body.data.run.results.edges).toHaveLength(6);
    expect(run.body.data.run.results.totalCount).toBe(6);
    const md = await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.md?download=1`);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-disposition")).toBe('attachment; filename="support_desk-triage-smoke-run-1.md"');
    expect((await p.get(p.keys.globexWrite, `/api/evaluations/${evaluationId}/runs/${runId}/report.md`)).status).toBe(404);
    const foreign = await p.gql(p.keys.globexWrite, `{ evaluations { totalCount } catalogs { totalCount edges { node { key } } } }`);
    expect(foreign.body.data).toEqual({ evaluations: { totalCount: 0 }, catalogs: { totalCount: 0, edges: [] } });
  });
});

describe("runProgress when the LISTEN connection drops", () => {
  it("still ends a live subscription for a run that ended while the API was not listening", async () => {
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Gap", scenarios: [{ key: "where", prompt: "Where is my order?" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    // External: nothing happens to it until this test records its replay and completes it.
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: created.body.data.createEvaluation.evaluationId });
    const runId = started.body.data.startRun.runId;
    let subscribed: () => void = () => undefined;
    const firstMessage = new Promise<void>((resolve) => (subscribed = resolve));
    const done = collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status completed } }`, { runId }, () => subscribed());
    await firstMessage;
    const listening = async () => {
      const { rows } = await admin(`SELECT pid, pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN verdict_run_progress'`);
      return rows.length;
    };
    expect(await listening()).toBe(1); // and terminated
    // The run ends, and its progress is announced, while the API's LISTEN connection is down.
    const at = Date.now();
    await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "where", modelLabel: "gpt-5-mini", replay: { answer: "It ships today.", tool_calls: [] }) { scenarioKey } }`, { r: runId });
    const completion = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { total } }`, { r: runId });
    expect(completion.body.data.completeExternalRun.total).toBe(1);
    expect(Date.now() - at).toBeLessThan(PROGRESS_RECONNECT_MS); // so the announcement was lost
    const messages = await done;
    expect(messages.map((m) => m.runProgress)).toEqual([{ status: "RUNNING", completed: 0 }, { status: "COMPLETED", completed: 1 }]);
  }, 20_000);
});

async function admin(sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: testAdminUrl() });
  await client.connect();
  try {
    return await client.query(sql, [db.name]);
  } finally {
    await client.end();
  }
}

describe("pollProjection", () => {
  it("resolves once the projector's checkpoint has passed the position, and fails after its timeout (the mutation then answers UNAVAILABLE)", async () => {
    const { pollProjection } = await import("./server/projectionWait.js");
    const wait = pollProjection({ url: db.url, timeoutMs: 300 });
    try {
      const [last] = await p.store.readAll({ limit: 1 });
      await p.projector.waitFor(last.position, 10_000);
      const started = Date.now();
      await wait.wait(last.position);
      expect(Date.now() - started).toBeLessThan(250);
      await expect(wait.wait({ commit: last.position.commit + 1_000_000n, prepare: 0n })).rejects.toThrow("the projector has not reached the write's position within 300 ms");
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      await wait.close();
    }
  });
  it("refuses text PostgreSQL cannot store (NUL, unpaired surrogates) with VALIDATION naming the field, appending nothing", async () => {
    const before = (await p.store.readAll({ limit: 100_000 })).length;
    const create = `mutation ($s: JSON) { createEvaluation(input: { agent: "A", name: "Orders", scenarios: $s }) { evaluationId } }`;
    for (const prompt of ["Where is\u0000 my order?", "Where is \udc00 my order?"]) {
      const res = await p.gql(p.keys.acmeWrite, create, { s: [{ key: "where", prompt }] });
      expect(res.body.errors[0].extensions).toEqual({ code: "VALIDATION", field: "createEvaluation.input.scenarios[0].prompt ($s)" });
    }
    expect((await p.store.readAll({ limit: 100_000 })).length).toBe(before);
  });
});
