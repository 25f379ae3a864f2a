// A GraphQL client that leaves while its API key is being checked: its response closed before the
// request's context existed, so a 'close' listener added then never fired, and what its heavy
// field went on to take was held by the process for good (and, since the pool's tenant shares, by
// its tenant: a report larger than the share was then refused for the life of the process).
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMemoryApiKeyStore } from "./auth/apiKeys.js";
import { AnswerPool } from "./server/answerPool.js";
import { startPlatform, type Platform } from "./testing/harness.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pool = new AnswerPool(300_000, 150_000);
let p: Platform;
let slowKeys = false;
let runId = "";

beforeAll(async () => {
  const keys = createMemoryApiKeyStore();
  const apiKeys = {
    create: keys.create.bind(keys), revoke: keys.revoke.bind(keys), list: keys.list.bind(keys), close: keys.close.bind(keys),
    async verify(key: string) {
      if (slowKeys) await sleep(400);
      return keys.verify(key);
    },
  };
  p = await startPlatform({ limits: { maxAnswerBytes: 150_000, maxHeldAnswerBytes: 300_000 }, answerPool: pool, apiKeys, keyCacheMs: 0 });
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Gone", scenarios: [{ key: "s0", prompt: "p" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
  const evaluationId = created.body.data.createEvaluation.evaluationId;
  runId = (await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: evaluationId })).body.data.startRun.runId;
  await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "s0", modelLabel: "gpt-5-mini", replay: { answer: "${"x".repeat(30_000)}" }) { scenarioKey } }`, { r: runId });
}, 60_000);

afterAll(() => p?.close());

it("holds nothing for a GraphQL request whose client left while its key was checked", async () => {
  slowKeys = true;
  const leaving = new AbortController();
  const sent = fetch(p.api.graphqlUrl, {
    method: "POST",
    signal: leaving.signal,
    headers: { "content-type": "application/json", authorization: `Bearer ${p.keys.acmeRead}` },
    body: JSON.stringify({ query: `query ($r: ID!) { runAudit(id: $r) { runId events { type } } }`, variables: { r: runId } }),
  }).catch((error: unknown) => error);
  await sleep(100);
  leaving.abort();
  await sent;
  // The key check ends at 400 ms and the query runs after it; by then nothing may be left held.
  await sleep(1_000);
  slowKeys = false;
  expect(pool.held).toBe(0);
  expect(pool.tenantsTracked).toBe(0);
});
