// The process's answer pool is fair between tenants and holds the REST reports too. Over a real
// server and real HTTP: a 150 KB request budget, a 300 KB pool and so (by default) a 150 KB share
// a tenant. acme and globex each have a run of 4 pairs of 25 KB answers (an audit of ~100 KB);
// acme has another of 4 pairs of 100 KB answers, whose report.json (~400 KB) is larger than the
// whole pool. What other requests hold is taken from the pool directly, as their answers would be.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";
import { AnswerPool } from "./server/answerPool.js";
import { answerPoolSize } from "./server/answerPoolSize.js";

const BUDGET = 150_000;
const POOL = 300_000;
const PAIRS = 4;

let p: Platform;
let pool: AnswerPool;
const runs = { acme: { evaluationId: "", runId: "" }, globex: { evaluationId: "", runId: "" }, big: { evaluationId: "", runId: "" } };

/** A run of PAIRS pairs answering `answerBytes` each, recorded with `key`. */
async function recordedRun(key: string, name: string, answerBytes: number): Promise<{ evaluationId: string; runId: string }> {
  const scenarios = Array.from({ length: PAIRS }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?` }));
  const created = await p.gql(key, `mutation ($s: JSON, $n: String!) { createEvaluation(input: { agent: "A", name: $n, scenarios: $s, compareModels: ["gpt-5-mini"] }) { evaluationId } }`, { s: scenarios, n: name });
  const evaluationId = created.body.data.createEvaluation.evaluationId;
  const started = await p.gql(key, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: evaluationId });
  const runId = started.body.data.startRun.runId;
  for (let i = 0; i < PAIRS; i++) {
    const recorded = await p.gql(key, `mutation ($r: ID!, $s: String!, $a: String!) { recordReplay(runId: $r, scenarioKey: $s, modelLabel: "gpt-5-mini", replay: { answer: $a }) { scenarioKey } }`, { r: runId, s: `s${i}`, a: "x".repeat(answerBytes) });
    expect(recorded.body.errors).toBeUndefined();
  }
  return { evaluationId, runId };
}

beforeAll(async () => {
  const size = answerPoolSize({ maxAnswerBytes: BUDGET, maxHeldAnswerBytes: POOL });
  pool = new AnswerPool(size.maxBytes, size.tenantMaxBytes);
  p = await startPlatform({ limits: { maxAnswerBytes: BUDGET, maxHeldAnswerBytes: POOL }, answerPool: pool });
  runs.acme = await recordedRun(p.keys.acmeWrite, "Share", 25_000);
  runs.globex = await recordedRun(p.keys.globexWrite, "Share", 25_000);
  runs.big = await recordedRun(p.keys.acmeWrite, "Big", 100_000);
}, 60_000);
afterAll(() => p?.close());
afterEach(() => {
  vi.restoreAllMocks();
  expect([pool.held, pool.tenantsTracked]).toEqual([0, 0]);
});

const AUDIT = `query ($r: ID!) { runAudit(id: $r) { runId events { type data } } }`;

/** Waits for the responses' 'close' (given back just after the client read the body). */
async function poolEmptied(): Promise<void> {
  for (let i = 0; i < 50 && pool.held > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(pool.held).toBe(0);
}

describe("one tenant's share of the pool", () => {
  it("has the default share of half the pool", () => {
    expect([pool.maxBytes, pool.tenantMaxBytes]).toEqual([POOL, POOL / 2]);
  });

  it("refuses a tenant holding its share UNAVAILABLE at the field's path, naming only its own share, while another tenant's same query answers", async () => {
    // acme's other requests hold 100 KB: its audit (~100 KB) would take it past its 150 KB share.
    pool.take("acme", 100_000, "acme's other answers");
    const refused = await p.gql(p.keys.acmeRead, AUDIT, { r: runs.acme.runId });
    expect(refused.body.data).toEqual({ runAudit: null });
    expect(refused.body.errors).toEqual([{
      message: expect.stringMatching(/^`runAudit` \(about \d+\.\d KB\) would take the heavy answers this tenant's requests hold past its share of 150\.0 KB \(VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT\): retry in a moment, or ask for fewer heavy fields/),
      path: ["runAudit"],
      locations: expect.any(Array),
      extensions: { code: "UNAVAILABLE" },
    }]);
    // Nothing of what the process or other tenants hold.
    expect(refused.body.errors[0].message).not.toMatch(/300\.0 KB|100\.0 KB|process|VERDICT_API_MAX_HELD_ANSWER_BYTES\)/);

    const answered = await p.gql(p.keys.globexWrite, AUDIT, { r: runs.globex.runId });
    expect(answered.body.errors).toBeUndefined();
    expect(answered.body.data.runAudit.runId).toBe(runs.globex.runId);

    pool.give("acme", 100_000);
    const again = await p.gql(p.keys.acmeRead, AUDIT, { r: runs.acme.runId });
    expect(again.body.errors).toBeUndefined();
  });
});

describe("the REST reports under the pool", () => {
  const reportPath = (run: { evaluationId: string; runId: string }, file = "report.md") => `/api/evaluations/${run.evaluationId}/runs/${run.runId}/${file}`;

  it("answers 503 UNAVAILABLE with Retry-After while other tenants hold the pool, and 200 once they gave it back", async () => {
    pool.take("globex", 150_000, "globex's answers");
    pool.take("initech", 150_000, "initech's answers");
    for (const path of [reportPath(runs.acme), reportPath(runs.acme, "report"), reportPath(runs.acme, "report.json"), `/api/evaluation_reports/${runs.acme.runId}`]) {
      const refused = await p.get(p.keys.acmeRead, path);
      expect(refused.status, path).toBe(503);
      expect(refused.headers.get("retry-after"), path).toBe("3");
      expect(await refused.json(), path).toEqual({
        error: expect.stringMatching(/^the report \(about \d+\.\d KB\) would take the heavy answers this API process holds for all requests past 300\.0 KB \(VERDICT_API_MAX_HELD_ANSWER_BYTES\): retry in a moment, or ask for one part of it as Markdown/),
        code: "UNAVAILABLE",
      });
    }
    pool.give("globex", 150_000);
    pool.give("initech", 150_000);
    const answered = await p.get(p.keys.acmeRead, reportPath(runs.acme));
    expect(answered.status).toBe(200);
    expect(answered.headers.get("retry-after")).toBeNull();
    expect(await answered.text()).toContain("# ");
    await poolEmptied();
  });

  it("refuses a bad download= 400 whether or not the pool is busy: a request that cannot succeed is not told to retry", async () => {
    pool.take("globex", 150_000, "globex's answers");
    pool.take("initech", 150_000, "initech's answers");
    const refused = await p.get(p.keys.acmeRead, `${reportPath(runs.acme)}?download=yes`);
    pool.give("globex", 150_000);
    pool.give("initech", 150_000);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "VALIDATION", field: "download" });
    await poolEmptied();
  });

  it("loads and renders a report in one of its tenant's load slots, holds its body's bytes while it is sent, and gives them back", async () => {
    const loading = vi.spyOn(pool, "loading");
    const take = vi.spyOn(pool, "take");
    const give = vi.spyOn(pool, "give");
    const res = await p.get(p.keys.acmeRead, reportPath(runs.acme, "report"));
    const body = await res.text();
    expect(res.status).toBe(200);
    await poolEmptied();
    const bytes = Buffer.byteLength(body);
    expect(loading).toHaveBeenCalledWith("acme", expect.any(Function), { subject: "the report", signal: expect.any(AbortSignal) });
    expect(take).toHaveBeenCalledWith("acme", bytes, "the report", expect.any(String));
    expect(give).toHaveBeenCalledWith("acme", bytes);
  });

  it("holds nothing for a client that left while its report was rendering", async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const loading = pool.loading.bind(pool);
    vi.spyOn(pool, "loading").mockImplementation(async (tenant, load) => {
      await sleep(300);
      return loading(tenant, load);
    });
    const take = vi.spyOn(pool, "take");
    const leaving = new AbortController();
    const sent = fetch(`${p.api.url}${reportPath(runs.acme, "report.json")}`, { signal: leaving.signal, headers: { authorization: `Bearer ${p.keys.acmeRead}` } }).catch((error: unknown) => error);
    await sleep(100);
    leaving.abort();
    await sent;
    await sleep(500);
    expect(take).toHaveBeenCalledOnce();
    expect(pool.held).toBe(0);
  });

  it("serves a report larger than the whole pool when the pool holds nothing else, and refuses it 503 while it holds anything", async () => {
    const whole = await p.get(p.keys.acmeRead, reportPath(runs.big, "report.json"));
    expect(whole.status).toBe(200);
    expect(Buffer.byteLength(await whole.text())).toBeGreaterThan(POOL);
    await poolEmptied();

    pool.take("globex", 1, "globex's answer");
    const refused = await p.get(p.keys.acmeRead, reportPath(runs.big, "report.json"));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(await refused.json()).toEqual({ error: expect.stringContaining("past its share of 150.0 KB (VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT)"), code: "UNAVAILABLE" });
    pool.give("globex", 1);
  });
});
