// The kept answers of `run` queries, against the started server (real HTTP) with read models
// faked in memory: what is kept, for whom, and that a run still going is always read fresh.
import "reflect-metadata";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { createMemoryProgressBus, RebuildWatch } from "@verdict/projector";
import { createMemoryApiKeyStore } from "../auth/apiKeys.js";
import type { ApiReadModels } from "./context.js";
import { createApiServer, type ApiServer } from "./createApiServer.js";
import { ENTRY_OVERHEAD_BYTES, GZIP_THRESHOLD, ResponseCache } from "./responseCache.js";

const RESULTS = `query ($id: ID!) { run(id: $id) { status results { edges { node { scenarioKey modelLabel status score fault } } } } }`;

function result(scenarioKey: string, score: number) {
  return { runId: "r1", n: 1, tenant: "acme", scenarioKey, group: null, modelLabel: "gpt", status: "passed", score, fault: null };
}

// One run of acme's whose status and results the tests change underneath the API.
const world = { status: "RUNNING", results: [result("a", 1)], resultReads: 0 };
const readModels = {
  async getRun(tenant: string, id: string) {
    if (tenant !== "acme" || (id !== "r1" && id !== "r2")) return null; // r2: a run no other test has read
    return { id, tenant, evaluationId: "e1", number: 1, origin: "engine", status: world.status, external: false, models: [], total: 1, completed: 1 };
  },
  async getEvaluation(tenant: string, id: string) {
    return tenant === "acme" && id === "e1" ? { id, tenant, name: "changes over time", agent: "A" } : null;
  },
  async listResults() {
    world.resultReads += 1;
    return world.results;
  },
  rebuilds: new RebuildWatch({ read: async () => "0" }), // never rebuilt
} as unknown as ApiReadModels;

let api: ApiServer;
let cache: ResponseCache;
const apiKeys = createMemoryApiKeyStore();
const keys = { acme: "", globex: "" };

async function post(key: string | null, query: string, variables?: Record<string, unknown>) {
  const res = await fetch(api.graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

beforeAll(async () => {
  keys.acme = (await apiKeys.create({ tenant: "acme", role: "read" })).key;
  keys.globex = (await apiKeys.create({ tenant: "globex", role: "read" })).key;
  cache = new ResponseCache();
  api = await createApiServer({
    store: createMemoryEventStore(), readModels, progress: createMemoryProgressBus(), apiKeys,
    clock: { now: () => new Date() }, ids: { next: () => "id" }, port: 0, log: () => undefined, responseCache: cache,
  });
});

afterAll(async () => {
  await api?.close();
});

beforeEach(() => {
  Object.assign(world, { status: "RUNNING", results: [result("a", 1)], resultReads: 0 });
});

describe("kept run answers", () => {
  it("never keeps a running run's answer: each query reads afresh and sees the new results", async () => {
    const first = await post(keys.acme, RESULTS, { id: "r1" });
    expect(JSON.parse(first.text).data.run).toMatchObject({ status: "RUNNING", results: { edges: [{ node: { scenarioKey: "a", score: 1 } }] } });
    world.results = [result("a", 1), result("b", 0.5)];
    const second = await post(keys.acme, RESULTS, { id: "r1" });
    expect(JSON.parse(second.text).data.run.results.edges.map((e: { node: { scenarioKey: string } }) => e.node.scenarioKey)).toEqual(["a", "b"]);
    expect(world.resultReads).toBe(2);
    expect(cache.size).toBe(0);
  });

  it("keeps a completed run's answer and sends the same bytes and content type as Apollo did", async () => {
    world.status = "COMPLETED";
    const fresh = await post(keys.acme, RESULTS, { id: "r1" });
    expect(cache.size).toBe(1);
    world.results = [result("changed", 0)]; // would show if the query ran again
    const kept = await post(keys.acme, RESULTS, { id: "r1" });
    expect(kept).toEqual(fresh);
    expect(kept.type).toBe("application/json; charset=utf-8");
    expect(JSON.parse(kept.text).data.run).toMatchObject({ status: "COMPLETED", results: { edges: [{ node: { scenarioKey: "a" } }] } });
  });

  it("never serves one tenant's kept answer to another: globex gets NOT_FOUND, and nothing is kept for it", async () => {
    world.status = "COMPLETED";
    const acme = await post(keys.acme, RESULTS, { id: "r1" });
    expect(JSON.parse(acme.text).data.run.status).toBe("COMPLETED");
    const before = cache.size;
    const globex = await post(keys.globex, RESULTS, { id: "r1" });
    expect(JSON.parse(globex.text).errors[0].extensions.code).toBe("NOT_FOUND");
    expect(cache.size).toBe(before);
  });

  it("still answers 401 to a caller without a valid key when the answer is kept", async () => {
    world.status = "COMPLETED";
    await post(keys.acme, RESULTS, { id: "r1" });
    expect(cache.size).toBeGreaterThan(0);
    expect((await post(null, RESULTS, { id: "r1" })).status).toBe(401);
    expect((await post("vk_000000000000_notarealkeynotarealkeynotarealkey00", RESULTS, { id: "r1" })).status).toBe(401);
  });

  it("does not keep answers that leave the run (its evaluation changes) or that have errors", async () => {
    world.status = "FAILED";
    const kept = cache.size;
    await post(keys.acme, `query ($id: ID!) { run(id: $id) { status evaluation { name } } }`, { id: "r1" });
    await post(keys.acme, `fragment E on Run { evaluation { name } } query ($id: ID!) { run(id: $id) { status ...E } }`, { id: "r1" });
    await post(keys.acme, `query ($id: ID!) { run(id: $id) { status } evaluation(id: "e1") { name } }`, { id: "r1" });
    await post(keys.acme, `query ($id: ID!) { run(id: $id) { status } }`, { id: "missing" });
    expect(cache.size).toBe(kept);
  });
});

describe("kept run answers, compressed", () => {
  /** POST without fetch's automatic inflate: the bytes as sent and the encoding headers. */
  function raw(acceptEncoding: string | null) {
    return new Promise<{ status: number; encoding?: string; vary?: string; bytes: Buffer }>((resolve, reject) => {
      // A run the tests above never read: neither its answer nor its results are kept yet.
      const body = JSON.stringify({ query: RESULTS, variables: { id: "r2" } });
      const headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${keys.acme}` };
      if (acceptEncoding !== null) headers["accept-encoding"] = acceptEncoding;
      const req = request(api.graphqlUrl, { method: "POST", headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({
          status: res.statusCode ?? 0, encoding: res.headers["content-encoding"], vary: res.headers.vary, bytes: Buffer.concat(chunks),
        }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  it("sends a big kept answer gzipped to a client that accepts gzip, and as is to one that does not: the same JSON", async () => {
    world.status = "COMPLETED";
    world.results = Array.from({ length: 50 }, (_, i) => result(`s${i}`, i / 50));
    const fresh = await raw(null); // through Apollo, then kept
    expect(fresh.encoding).toBeUndefined();
    const plain = await raw(null);
    const gzipped = await raw("gzip, deflate, br");
    const refused = await raw("gzip;q=0");
    expect(plain).toMatchObject({ status: 200, encoding: undefined, vary: "accept-encoding" });
    expect(gzipped).toMatchObject({ status: 200, encoding: "gzip", vary: "accept-encoding" });
    expect(refused.encoding).toBeUndefined();
    expect(gunzipSync(gzipped.bytes).toString()).toBe(fresh.bytes.toString());
    expect(plain.bytes.toString()).toBe(fresh.bytes.toString());
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 4);
  });
});

describe("ResponseCache", () => {
  it("drops the least recently used answers once over its byte budget, and keeps none over a quarter of it", () => {
    // An entry of 450 ASCII characters costs 451 bytes with its key, and the overhead: four fit.
    const entry = 451 + ENTRY_OVERHEAD_BYTES;
    const small = new ResponseCache(4 * entry + 100);
    for (const key of ["a", "b", "c", "d"]) small.set(key, "x".repeat(450));
    expect(small.get("a")).toBeDefined(); // a is now the most recently used, b the least
    small.set("e", "x".repeat(450));
    expect(["a", "b", "c", "d", "e"].filter((key) => small.get(key) !== undefined)).toEqual(["a", "c", "d", "e"]);
    expect(small.bytes).toBe(4 * entry);
    small.set("huge", "x".repeat(entry - 3));
    expect(small.get("huge")).toBeUndefined();
  });

  it("forgets every answer when cleared (a rebuild of the read models), and keeps none whose request began before", () => {
    const cache = new ResponseCache();
    const began = cache.generation;
    cache.set("a", '{"data":{}}');
    cache.clear();
    expect([cache.size, cache.bytes, cache.get("a")]).toEqual([0, 0, undefined]);
    cache.set("b", '{"data":{}}', began); // computed from reads made before the rebuild was noticed
    expect(cache.get("b")).toBeUndefined();
    cache.set("b", '{"data":{}}', cache.generation);
    expect(cache.get("b")?.body.toString()).toBe('{"data":{}}');
  });

  it("gzips an answer once when it is over the threshold, and counts both copies against the budget", () => {
    const cache = new ResponseCache();
    cache.set("small", "x".repeat(GZIP_THRESHOLD - 1));
    cache.set("big", "x".repeat(GZIP_THRESHOLD));
    expect(cache.get("small")?.gzip).toBeNull();
    const big = cache.get("big")!;
    expect(gunzipSync(big.gzip!).toString()).toBe("x".repeat(GZIP_THRESHOLD));
    expect(cache.bytes).toBe(5 + GZIP_THRESHOLD - 1 + 3 + GZIP_THRESHOLD + big.gzip!.length + 2 * ENTRY_OVERHEAD_BYTES);
  });

  it("charges small answers at least what each holds, so the budget bounds the memory they take", () => {
    // ~376 bytes an entry on Node 20 besides its key and answer (ENTRY_OVERHEAD_BYTES says how measured).
    const atLeast = 300;
    const budget = 256 * 1024;
    const cache = new ResponseCache(budget);
    const key = (i: number) => JSON.stringify(["tenant", null, { id: "run-1", x: `${i}` }, "query { run(id: $id) { id status } }"]);
    const answer = '{"data":{"run":{"id":"run-1","status":"COMPLETED"}}}';
    for (let i = 0; i < 5_000; i += 1) cache.set(key(i), answer);
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.size).toBeLessThanOrEqual(Math.floor(budget / (key(4_999).length + answer.length + atLeast)));
  });

  it("keeps each answer and its gzip in buffers of their own, not slices of a shared slab or chunk", () => {
    const cache = new ResponseCache();
    for (let i = 0; i < 20; i += 1) {
      cache.set(`small-${i}`, `{"n":${i}}`);
      cache.set(`big-${i}`, JSON.stringify({ n: i, pad: "y".repeat(GZIP_THRESHOLD) }));
    }
    for (let i = 0; i < 20; i += 1) {
      const small = cache.get(`small-${i}`)!;
      expect(small.body.toString()).toBe(`{"n":${i}}`);
      expect(small.body.buffer.byteLength).toBe(small.body.length);
      const { body, gzip } = cache.get(`big-${i}`)!;
      expect(body.buffer.byteLength).toBe(body.length);
      expect(gzip!.buffer.byteLength).toBe(gzip!.length);
      expect(JSON.parse(gunzipSync(gzip!).toString())).toMatchObject({ n: i });
    }
  });
});
