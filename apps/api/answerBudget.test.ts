// A request's heavy fields share one answer budget (maxAnswerBytes): the query's price counted
// fields, so aliases of one heavy field multiplied its answer (7 aliased `runAudit` of a
// 10,000-pair run answered 178 MB and took the API to 1.6 GB). Here a run of 4 pairs with 25 KB
// answers (~100 KB an audit) against a 150 KB budget: one audit answers, the next is refused at
// its path, and the rest of the query still answers. Over a real server and real clients.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Client, ExecutionResult } from "graphql-ws";
import { rawWsSession, startPlatform, type Platform } from "./testing/harness.js";
import { AnswerPool } from "./server/answerPool.js";

const BUDGET = 150_000;
const PAIRS = 4;
const ANSWER = "x".repeat(25_000);

let p: Platform;
let runId: string;
beforeAll(async () => {
  // The process's pool is one request's budget: a request that kept what it took after its answer
  // (HTTP) or its operation (graphql-ws) ended would leave every later heavy field UNAVAILABLE.
  p = await startPlatform({ limits: { maxAnswerBytes: BUDGET, maxHeldAnswerBytes: BUDGET } });
  const scenarios = Array.from({ length: PAIRS }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?` }));
  const created = await p.gql(p.keys.acmeWrite, `mutation ($s: JSON) { createEvaluation(input: { agent: "A", name: "Budget", scenarios: $s, compareModels: ["gpt-5-mini"] }) { evaluationId } }`, { s: scenarios });
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: created.body.data.createEvaluation.evaluationId });
  runId = started.body.data.startRun.runId;
  for (let i = 0; i < PAIRS; i++) {
    const recorded = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $s: String!, $a: String!) { recordReplay(runId: $r, scenarioKey: $s, modelLabel: "gpt-5-mini", replay: { answer: $a }) { scenarioKey } }`, { r: runId, s: `s${i}`, a: ANSWER });
    expect(recorded.body.errors).toBeUndefined();
  }
}, 60_000);
afterAll(() => p?.close());
afterEach(() => vi.restoreAllMocks());

const AUDIT = `runId events { type data }`;
const THREE_AUDITS = `query ($r: ID!) { a: runAudit(id: $r) { ${AUDIT} } b: runAudit(id: $r) { ${AUDIT} } c: runAudit(id: $r) { ${AUDIT} } run(id: $r) { status } }`;

/** The refusal of the heavy field at `path` (its alias path, and the field when the alias differs). */
function refusal(path: Array<string | number>, named: string) {
  return {
    message: expect.stringMatching(new RegExp(`^\`${named.replace(/[().]/g, "\\$&")}\` would take this request's answer past its budget of 150\\.0 KB .*VERDICT_API_MAX_ANSWER_BYTES.*page \`results\`.*with \`first:\`/\`after:\`.*over REST \\(report, report\\.md\\)$`)),
    path,
    locations: expect.any(Array),
    extensions: { code: "PAYLOAD_TOO_LARGE" },
  };
}

describe("the answer budget over HTTP", () => {
  it("answers a heavy field within the budget as before", async () => {
    const { status, body } = await p.gql(p.keys.acmeRead, `query ($r: ID!) { runAudit(id: $r) { ${AUDIT} } }`, { r: runId });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const replays = body.data.runAudit.events.filter((e: { type: string }) => e.type === "ReplayRecorded");
    expect(replays.map((e: { data: { replay: { answer: string } } }) => e.data.replay.answer)).toEqual(Array(PAIRS).fill(ANSWER));
  });

  it("refuses aliases past the budget at their paths, PAYLOAD_TOO_LARGE, while the first and the other fields answer", async () => {
    const alone = await p.gql(p.keys.acmeRead, `query ($r: ID!) { runAudit(id: $r) { ${AUDIT} } }`, { r: runId });
    const { status, body } = await p.gql(p.keys.acmeRead, THREE_AUDITS, { r: runId });
    expect(status).toBe(200);
    expect(body.data).toEqual({ a: alone.body.data.runAudit, b: null, c: null, run: { status: "RUNNING" } });
    expect(body.errors).toEqual([refusal(["b"], "b (runAudit)"), refusal(["c"], "c (runAudit)")]);
  });

  it("weighs what a whole list answers, not what it loads: a whole `results` of counts answers, aliased whole answers do not", async () => {
    const counted = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { a: results { totalCount } b: results { totalCount } c: results { totalCount } } }`, { r: runId });
    expect(counted.body).toEqual({ data: { run: { a: { totalCount: PAIRS }, b: { totalCount: PAIRS }, c: { totalCount: PAIRS } } } });
    const answers = `results { edges { node { answer } } }`;
    const { body } = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status ${answers} again: ${answers} } }`, { r: runId });
    expect(body.data.run.status).toBe("RUNNING");
    expect(body.data.run.results.edges).toHaveLength(PAIRS);
    expect(body.data.run.again).toBeNull();
    expect(body.errors).toEqual([refusal(["run", "again"], "run.again (results)")]);
  });
});

/** One operation over graphql-ws: its `next` payloads, and its error (a GraphQL errors list, or a close event). */
function operation(client: Client, query: string, variables: Record<string, unknown>): Promise<{ next: ExecutionResult[]; error: unknown }> {
  const next: ExecutionResult[] = [];
  return new Promise((resolve) => {
    client.subscribe({ query, variables }, {
      next: (value) => next.push(value as ExecutionResult),
      error: (error) => resolve({ next, error }),
      complete: () => resolve({ next, error: null }),
    });
  });
}

const ONE_AUDIT = `query ($r: ID!) { runAudit(id: $r) { runId } audit: runAudit(id: $r) { ${AUDIT} } }`;

describe("the process's answer pool (maxHeldAnswerBytes, here one request's budget)", () => {
  it("is given back after each HTTP answer: audits asked one after another all answer", async () => {
    for (let i = 0; i < 5; i++) {
      const { body } = await p.gql(p.keys.acmeRead, ONE_AUDIT, { r: runId });
      expect(body.errors, `request ${i}`).toBeUndefined();
      expect(body.data.audit.events.length).toBeGreaterThan(PAIRS);
    }
  });

  it("answers concurrent requests whole or tells them to retry (UNAVAILABLE), and holds nothing once they are done", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => p.gql(p.keys.acmeRead, ONE_AUDIT, { r: runId })));
    for (const { body } of answers) {
      if (body.errors === undefined) expect(body.data.audit.events.length).toBeGreaterThan(PAIRS);
      else expect(body.errors).toEqual([expect.objectContaining({ path: ["audit"], extensions: { code: "UNAVAILABLE" }, message: expect.stringContaining("VERDICT_API_MAX_HELD_ANSWER_BYTES") })]);
    }
    const after = await p.gql(p.keys.acmeRead, ONE_AUDIT, { r: runId });
    expect(after.body.errors).toBeUndefined();
  });

  // Each heavy load takes 300 ms here, as a large run's would, so a client can leave mid-operation.
  const slowLoads = () => {
    const loading = AnswerPool.prototype.loading;
    vi.spyOn(AnswerPool.prototype, "loading").mockImplementation(async function (this: AnswerPool, tenant, load) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return loading.call(this, tenant, load) as never;
    });
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** An audit needs ~2/3 of the pool: it answers only if nothing was left held. */
  const auditAnswers = async () => {
    vi.restoreAllMocks();
    const { body } = await p.gql(p.keys.acmeRead, ONE_AUDIT, { r: runId });
    expect(body.errors).toBeUndefined();
  };

  it("holds nothing for an HTTP client that left mid-operation", async () => {
    slowLoads();
    const leaving = new AbortController();
    const sent = fetch(p.api.graphqlUrl, { method: "POST", signal: leaving.signal, headers: { "content-type": "application/json", authorization: `Bearer ${p.keys.acmeRead}` }, body: JSON.stringify({ query: ONE_AUDIT, variables: { r: runId } }) }).catch((error: unknown) => error);
    await sleep(100);
    leaving.abort();
    await sent;
    await sleep(800);
    await auditAnswers();
  });

  it("holds nothing for a graphql-ws socket closed mid-operation, nor for an operation id completed by the client and used again", async () => {
    slowLoads();
    const subscribe = { id: "1", type: "subscribe", payload: { query: ONE_AUDIT, variables: { r: runId } } };
    // Closed as soon as it is acknowledged: the operation is still loading.
    await rawWsSession(p.api.wsUrl, p.keys.acmeRead, [subscribe], () => true);
    await sleep(800);
    await auditAnswers();

    slowLoads();
    await rawWsSession(p.api.wsUrl, p.keys.acmeRead, [subscribe, { id: "1", type: "complete" }, subscribe], (frames) => frames.some((frame) => frame.type === "complete"));
    await sleep(800);
    await auditAnswers();
  });

  it("is given back after each graphql-ws operation", async () => {
    const client = p.wsClient(p.keys.acmeRead);
    for (let i = 0; i < 5; i++) {
      const { next, error } = await operation(client, ONE_AUDIT, { r: runId });
      expect(error, `operation ${i}`).toBeNull();
      expect(next[0].errors, `operation ${i}`).toBeUndefined();
    }
  });
});

describe("the answer budget over graphql-ws", () => {
  it("refuses aliases past the budget as over HTTP, in the operation's answer", async () => {
    const http = await p.gql(p.keys.acmeRead, THREE_AUDITS, { r: runId });
    const { next, error } = await operation(p.wsClient(p.keys.acmeRead), THREE_AUDITS, { r: runId });
    expect(error).toBeNull();
    expect(next).toEqual([http.body]);
    expect(next[0].errors).toEqual([refusal(["b"], "b (runAudit)"), refusal(["c"], "c (runAudit)")]);
  });

  it("answers an answer too large to write (V8's string limit) as that operation's PAYLOAD_TOO_LARGE error, and the socket stays open", async () => {
    const client = p.wsClient(p.keys.acmeRead);
    const stringify = JSON.stringify;
    vi.spyOn(JSON, "stringify").mockImplementation((value, ...rest) => {
      if (value?.type === "next" && value.payload?.data?.runAudit) throw new RangeError("Invalid string length");
      return stringify(value, ...(rest as [never]));
    });
    const { next, error } = await operation(client, `query ($r: ID!) { runAudit(id: $r) { ${AUDIT} } }`, { r: runId });
    expect(next).toEqual([]);
    expect(error).toEqual([{
      message: "the answer is too large to send as one JSON document (over 512 MB); ask for less at once: page run { results(first:, after:) } or export HTML/Markdown (report, report.md); runAudit's events come one at a time over the runEvents subscription",
      extensions: { code: "PAYLOAD_TOO_LARGE" },
    }]);
    vi.restoreAllMocks();
    // The same socket still answers.
    const after = await operation(client, `query ($r: ID!) { run(id: $r) { status } }`, { r: runId });
    expect(after).toEqual({ next: [{ data: { run: { status: "RUNNING" } } }], error: null });
  });
});
