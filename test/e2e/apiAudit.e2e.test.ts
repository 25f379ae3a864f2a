// The API as its own process (apps/api/main.ts, NODE_ENV=production, PostgreSQL) under hostile
// input: malformed and oversized requests, text PostgreSQL cannot store, documents built to be
// slow or to overflow the stack, bad graphql-ws traffic. Each is refused with a clear error, the
// process keeps answering, and neither the database password nor an API key reaches an answer
// or a log line. Needs `bash infra/services/postgres.sh` (no Kafka: no worker runs here).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { networkInterfaces } from "node:os";
import WebSocket from "ws";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { apiClient, type ApiClient } from "./support/apiClient.js";
import { createApiKey, distributedEnv, startApi, startProjector, type DistributedEnv } from "./support/platformProcesses.js";
import { ROOT, stopApp, tail, type AppProcess } from "./support/processes.js";

// Trust authentication ignores it, so the processes connect, and it is in their DATABASE_URL.
const PASSWORD = "s3cr3t-audit-password";

let db: TestDatabase;
let env: DistributedEnv;
let api: AppProcess;
let projector: AppProcess;
let client: ApiClient;
let graphqlUrl: string;
let key: string;

beforeAll(async () => {
  db = await createTestDatabase("verdict_api_audit");
  const url = new URL(db.url);
  url.password = PASSWORD;
  env = distributedEnv(url.toString(), `${ROOT}/examples/support/agent.yaml`);
  projector = await startProjector(env);
  ({ app: api, graphqlUrl } = await startApi(env));
  client = apiClient(graphqlUrl);
  key = await createApiKey(env, "acme", "write");
}, 180_000);

afterAll(async () => {
  await client?.close();
  if (api) await stopApp(api);
  if (projector) await stopApp(projector);
  await db?.drop();
}, 60_000);

afterEach((context) => {
  if (context.task.result?.state === "fail" && api) console.error(`--- api (pid ${api.pid})\n${tail(api.output(), 30)}`);
});

async function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; ms: number }> {
  const started = Date.now();
  const res = await fetch(graphqlUrl, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}`, ...headers }, body });
  return { status: res.status, text: await res.text(), ms: Date.now() - started };
}

/** Frames of one graphql-transport-ws session: connection_init with `payload`, then `messages` once acknowledged. */
function wsSession(payload: unknown, messages: string[], until: (frames: any[]) => boolean): Promise<{ frames: any[]; closed: number | null }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(graphqlUrl.replace(/^http/, "ws"), "graphql-transport-ws");
    const frames: any[] = [];
    let closed: number | null = null;
    const timer = setTimeout(() => { ws.terminate(); reject(new Error(`no answer in time: ${JSON.stringify(frames)}`)); }, 10_000);
    const finish = () => { clearTimeout(timer); ws.close(); resolve({ frames, closed }); };
    ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload })));
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data));
      frames.push(frame);
      if (frame.type === "connection_ack") for (const m of messages) ws.send(m);
      if (until(frames)) finish();
    });
    ws.on("close", (code) => { closed = code; finish(); });
  });
}

const seenAnswers: string[] = [];
const remember = <T extends { text: string }>(answer: T): T => {
  seenAnswers.push(answer.text);
  return answer;
};

/** This machine's first IPv4 address that is not loopback, or null when it has none. */
function externalAddress(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === "IPv4" && !address.internal) return address.address;
  }
  return null;
}

/** Whether anything answers HTTP at `url` (a refused connection answers false). */
const answers = (url: string): Promise<boolean> => fetch(url, { method: "GET" }).then(() => true, () => false);

describe("the API process's address", () => {
  it("listens on this machine only by default, and on every interface with HOST=0.0.0.0", async () => {
    const port = new URL(graphqlUrl).port;
    expect(await answers(`http://127.0.0.1:${port}/graphql`)).toBe(true);
    const wide = await startApi(env, [], { HOST: "0.0.0.0" });
    try {
      const widePort = new URL(wide.graphqlUrl.replace("0.0.0.0", "127.0.0.1")).port;
      expect(await answers(`http://127.0.0.1:${widePort}/graphql`)).toBe(true);
      // A machine with no other interface can show only that the setting is taken and served.
      const address = externalAddress();
      if (address) {
        expect(await answers(`http://${address}:${widePort}/graphql`)).toBe(true);
        expect(await answers(`http://${address}:${port}/graphql`)).toBe(false);
      }
    } finally {
      await stopApp(wide.app);
    }
  }, 120_000);
});

describe("the API process under hostile input", () => {
  it("refuses malformed HTTP requests with a 4xx that says what is wrong", async () => {
    expect(remember(await post('{"query": '))).toMatchObject({ status: 400, text: expect.stringContaining("request body is not valid JSON") });
    expect(remember(await post(JSON.stringify({ query: "{ catalogs { totalCount } }" }), { "content-type": "application/json; charset=klingon" })).status).toBe(415);
    expect(remember(await post(JSON.stringify({ query: "{ catalogs { totalCount } }" }), { authorization: "Bearer vk_000000000000_notarealkeynotarealkeynotarealkey00" })).status).toBe(401);
    const nested = `{"query": "mutation ($s: JSON) { createEvaluation(input: { agent: \\"A\\", name: \\"N\\", scenarios: $s }) { evaluationId } }", "variables": { "s": ${"[".repeat(5000)}1${"]".repeat(5000)} } }`;
    expect(remember(await post(nested))).toMatchObject({ status: 400, text: expect.stringContaining("JSON is nested more than 64 levels deep") });
    const path = await fetch(`${graphqlUrl.replace(/\/graphql$/, "")}/api/evaluations/x/runs/%ff/report.md`, { headers: { authorization: `Bearer ${key}` } });
    expect(path.status).toBe(400);
    remember({ text: await path.text() });
  });

  it("refuses text PostgreSQL cannot store, naming the argument, and appends nothing", async () => {
    for (const variables of [{ v: "a\u0000b" }, { v: "a\ud800b" }]) {
      const query = remember(await post(JSON.stringify({ query: `query ($v: ID!) { run(id: $v) { id } }`, variables })));
      expect(JSON.parse(query.text).errors[0].extensions).toEqual({ code: "VALIDATION", field: "run.id ($v)" });
      const create = remember(await post(JSON.stringify({ query: `mutation ($v: String) { createEvaluation(input: { agent: "A", name: $v, scenariosText: "Hello" }) { evaluationId } }`, variables })));
      expect(JSON.parse(create.text).errors[0].extensions.code).toBe("VALIDATION");
    }
    expect((await client.ok(key, `{ evaluations { totalCount } }`)).evaluations.totalCount).toBe(0);
  });

  it("refuses documents built to be slow or to overflow the stack, quickly", async () => {
    const chain = (n: number, spreads: number) =>
      `{ catalogs { edges { node { ...f0 } } } } ` + Array.from({ length: n }, (_, i) => `fragment f${i} on Catalog { key ${i + 1 < n ? `...f${i + 1} `.repeat(spreads) : ""}}`).join(" ");
    const doubling = remember(await post(JSON.stringify({ query: chain(30, 2) })));
    expect(doubling.status).toBe(400);
    expect(doubling.ms).toBeLessThan(5_000);
    expect(remember(await post(JSON.stringify({ query: chain(5000, 1) })))).toMatchObject({ status: 400, text: expect.stringContaining("10000 tokens") });
    const aliases = Array.from({ length: 50 }, (_, i) => `h${i}: html`).join(" ");
    expect(remember(await post(JSON.stringify({ query: `{ run(id: "r") { report { ${aliases} } } }` })))).toMatchObject({ status: 400, text: expect.stringContaining("the limit is 5000") });
  });

  it("answers bad graphql-ws traffic per operation, keeps the socket, and refuses what is over the body limit", async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const { frames, closed } = await wsSession(auth, [
      JSON.stringify({ id: "syntax", type: "subscribe", payload: { query: "subscription {" } }),
      JSON.stringify({ id: "missing", type: "subscribe", payload: { query: `subscription { runEvents(runId: "no-such-run") { type } }` } }),
      JSON.stringify({ id: "good", type: "subscribe", payload: { query: "{ catalogs { totalCount } }" } }),
    ], (seen) => ["syntax", "missing"].every((id) => seen.some((f) => f.id === id)) && seen.some((f) => f.id === "good" && f.type === "complete"));
    seenAnswers.push(JSON.stringify(frames));
    expect(closed).toBeNull();
    expect(frames.find((f) => f.id === "syntax")).toMatchObject({ type: "error" });
    expect(frames.find((f) => f.id === "missing")).toMatchObject({ payload: { errors: [{ extensions: { code: "NOT_FOUND", field: "runId" } }] } });
    const refused = await wsSession({ Authorization: 5 }, [], () => false);
    expect(refused.closed).toBe(4403);
    const big = await wsSession(auth, [JSON.stringify({ id: "big", type: "subscribe", payload: { query: "{ catalogs { totalCount } }", variables: { pad: "x".repeat(3 * 1024 * 1024) } } })], () => false);
    expect(big.closed).toBe(1009);
  });

  it("is still running and answering, and no answer or log line holds the database password or an API key", async () => {
    expect(api.isRunning()).toBe(true);
    expect(await client.ok(key, `{ catalogs { totalCount } }`)).toEqual({ catalogs: { totalCount: 0 } });
    for (const text of [...seenAnswers, api.output(), projector.output()]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(key);
    }
  });
});
