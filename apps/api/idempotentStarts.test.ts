// startRun's idempotencyKey through real HTTP: a client that lost the first answer sends the same
// call again and gets the run the first call started (same runId, same number), metered once,
// even when the two calls race; the key with other arguments is a CONFLICT naming it; no key, or
// another key, starts a new run as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgliteEventStore } from "@verdict/infra";
import { CATALOG_YAML, sampleEvaluation, startPlatform, type Platform } from "./testing/harness.js";

const START = `mutation ($e: ID!, $k: String, $m: [String!]) {
  startRun(evaluationId: $e, external: true, selection: { keys: ["order_status"], models: $m }, idempotencyKey: $k) { runId number duplicate run { id number } }
}`;
const USED = `{ usage { executions { used } } }`;

let p: Platform;
let evaluationId: string;

async function used(): Promise<number> {
  return (await p.gql(p.keys.acmeRead, USED)).body.data.usage.executions.used;
}

async function runCount(): Promise<number> {
  return (await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runCount } }`, { id: evaluationId })).body.data.evaluation.runCount;
}

const start = (key: string | null, models = ["gpt-5-mini"]) => p.gql(p.keys.acmeWrite, START, { e: evaluationId, k: key, m: models });

beforeAll(async () => {
  // On PGlite: its reads and appends wait for the database, so racing calls interleave between
  // a start's reads and its appends (the in-memory store runs one call's command through at once).
  p = await startPlatform({ store: await createPgliteEventStore() });
  evaluationId = await sampleEvaluation(p, ["gpt-5-mini"]);
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe("startRun with an idempotencyKey", () => {
  it("a retried call answers the first call's run (same runId and number, duplicate) and meters nothing more", async () => {
    const before = await used();
    const first = await start("retry-1");
    expect(first.status).toBe(200);
    expect(first.body.data.startRun).toMatchObject({ number: 1, duplicate: false });
    const runId = first.body.data.startRun.runId;
    expect(first.body.data.startRun.run).toEqual({ id: runId, number: 1 });
    const retry = await start("retry-1");
    expect(retry.status).toBe(200);
    expect(retry.body.data.startRun).toEqual({ runId, number: 1, duplicate: true, run: { id: runId, number: 1 } });
    expect(await used()).toBe(before + 1);
    expect(await runCount()).toBe(1);
  });

  it("racing calls with one key start one run, metered once, and every call answers it", async () => {
    const before = await used();
    const runsBefore = await runCount();
    const calls = await Promise.all(Array.from({ length: 10 }, () => start("race-1")));
    expect(calls.map((c) => c.body.errors ?? null)).toEqual(Array(10).fill(null));
    const answers = calls.map((c) => c.body.data.startRun);
    expect(new Set(answers.map((a) => `${a.runId} #${a.number}`)).size).toBe(1);
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(1);
    expect(await used()).toBe(before + 1);
    expect(await runCount()).toBe(runsBefore + 1);
  });

  it("the key with other arguments is a CONFLICT naming the key, starting and metering nothing", async () => {
    const first = await start("args-1");
    const before = await used();
    const runsBefore = await runCount();
    const other = await start("args-1", ["claude-sonnet-5"]);
    expect(other.body.data.startRun).toBeNull();
    expect(other.body.errors[0].extensions).toMatchObject({ code: "CONFLICT", field: "idempotencyKey" });
    expect(other.body.errors[0].message).toBe(
      `idempotency key "args-1" already started run #${first.body.data.startRun.number} (${first.body.data.startRun.runId}) of evaluation ${evaluationId} with other arguments (selection, external, release, tools or metadata): send the same arguments to get that run, or a new key to start another`,
    );
    expect(await used()).toBe(before);
    expect(await runCount()).toBe(runsBefore);
  });

  it("another key, or no key, starts a new run each time, as before", async () => {
    const before = await used();
    const answers = [await start("new-1"), await start("new-2"), await start(null), await start(null)].map((c) => c.body.data.startRun);
    expect(new Set(answers.map((a) => a.runId)).size).toBe(4);
    expect(answers.every((a) => a.duplicate === false)).toBe(true);
    expect(await used()).toBe(before + 4);
  });

  it("refuses a blank, over-long or control-character key as VALIDATION naming idempotencyKey, writing nothing", async () => {
    const runsBefore = await runCount();
    for (const [key, rule] of [["   ", /^idempotencyKey: must be 1-255 characters, not blank/], ["k".repeat(256), /^idempotencyKey: must be 1-255 characters/], ["a\nb", /^idempotencyKey: must not contain control characters/]] as const) {
      const refused = await start(key);
      expect(refused.body.data.startRun).toBeNull();
      expect(refused.body.errors[0].extensions).toMatchObject({ code: "VALIDATION", field: "idempotencyKey" });
      expect(refused.body.errors[0].message).toMatch(rule);
    }
    expect(await runCount()).toBe(runsBefore);
  });

  it("keys are the tenant's: another tenant's evaluation with the same key is its own run", async () => {
    await p.gql(p.keys.globexWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
    const created = await p.gql(p.keys.globexWrite, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    const theirs = await p.gql(p.keys.globexWrite, START, { e: created.body.data.createEvaluation.evaluationId, k: "retry-1", m: ["gpt-5-mini"] });
    expect(theirs.body.data.startRun).toMatchObject({ number: 1, duplicate: false });
    const mine = await start("retry-1");
    expect(theirs.body.data.startRun.runId).not.toBe(mine.body.data.startRun.runId);
  });
});
