// The process's answer pool is fair between tenants. Over a real server and real HTTP: a 150 KB
// request budget, a 300 KB pool and so (by default) a 150 KB share a tenant. acme and globex each
// have a run of 4 pairs of 25 KB answers (an audit of ~100 KB). What other requests hold is taken
// from the pool directly, as their answers would be.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";
import { AnswerPool } from "./server/answerPool.js";
import { answerPoolSize } from "./server/answerPoolSize.js";

const BUDGET = 150_000;
const POOL = 300_000;
const PAIRS = 4;

let p: Platform;
let pool: AnswerPool;
const runs = { acme: { evaluationId: "", runId: "" }, globex: { evaluationId: "", runId: "" } };

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
}, 60_000);
afterAll(() => p?.close());
afterEach(() => {
  vi.restoreAllMocks();
  expect([pool.held, pool.tenantsTracked]).toEqual([0, 0]);
});

const AUDIT = `query ($r: ID!) { runAudit(id: $r) { runId events { type data } } }`;

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
