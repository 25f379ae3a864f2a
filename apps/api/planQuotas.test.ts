// Plan quotas and meters through real HTTP (reference-platform #38, §3 rules 18-20): a start past
// the month's executions answers 402 with the host fields and writes nothing, a report past its
// quota 429, execution switched off 403; Query.usage and GET /api/usage give the caller's own
// tenant's meters with the plan's limits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_YAML, startPlatform, type Platform } from "./testing/harness.js";

const START = `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`;
const IMPORT = `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId duplicate } }`;
const USAGE = `{ usage { month executions { used limit } reports { used limit } } }`;
const envelope = (runId: string) => ({
  version: 1, run_id: runId, source: "ci", agent_name: "SupportAgent", suite: "support",
  report: { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "a", label: "gpt-5-mini", status: "passed", score: 1 }] },
});
const month = () => new Date().toISOString().slice(0, 7);

/** acme's evaluation of the sample set's 3 scenarios on one model: a run is 3 executions. */
async function evaluation(p: Platform, key = p.keys.acmeWrite): Promise<string> {
  await p.gql(key, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
  const created = await p.gql(key, `mutation { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
  return created.body.data.createEvaluation.evaluationId;
}

async function runCount(p: Platform, evaluationId: string): Promise<number> {
  const found = await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runCount } }`, { id: evaluationId });
  return found.body.data.evaluation.runCount;
}

describe("with quotas (4 executions, 1 report a month)", () => {
  let p: Platform;
  let evaluationId: string;
  beforeAll(async () => {
    p = await startPlatform({ plan: { executionsPerMonth: 4, reportsPerMonth: 1 } });
    evaluationId = await evaluation(p);
  });
  afterAll(async () => p?.close());

  it("admits a run that fits, refuses the next with 402 and the host fields, writing nothing", async () => {
    const first = await p.gql(p.keys.acmeWrite, START, { id: evaluationId });
    expect(first.status).toBe(200);
    expect(first.body.data.startRun.runId).toEqual(expect.any(String));
    const events = (await p.store.readAll()).length;
    const refused = await p.gql(p.keys.acmeWrite, START, { id: evaluationId });
    expect(refused.status).toBe(402);
    expect(refused.body.errors[0].extensions).toEqual({
      code: "PLAN_LIMIT_REACHED", error: "Plan limit reached", upgrade_required: true, kind: "execution", limit: 4, used: 3, requested: 3,
    });
    expect(refused.body.errors[0].message).toMatch(/^Plan limit reached: .*\(VERDICT_QUOTA_EXECUTIONS; 3 used, 3 requested\)$/);
    expect((await p.store.readAll()).length).toBe(events);
    expect(await runCount(p, evaluationId)).toBe(1);
  });

  it("meters a newly stored report once; an identical retry is free; the next report answers 429, stored nowhere", async () => {
    const first = await p.gql(p.keys.acmeWrite, IMPORT, { id: evaluationId, e: envelope("host-1") });
    expect(first.body.data.importReport.duplicate).toBe(false);
    const again = await p.gql(p.keys.acmeWrite, IMPORT, { id: evaluationId, e: envelope("host-1") });
    expect(again.status).toBe(200);
    expect(again.body.data.importReport.duplicate).toBe(true);
    const refused = await p.gql(p.keys.acmeWrite, IMPORT, { id: evaluationId, e: envelope("host-2") });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toEqual({
      code: "REPORT_LIMIT_REACHED", error: "Plan limit reached", upgrade_required: true, kind: "evaluation_report", limit: 1, used: 1, requested: 1,
    });
    expect(await runCount(p, evaluationId)).toBe(2);
  });

  it("Query.usage and GET /api/usage give the caller's tenant's meters and the plan's limits; another tenant sees only its own", async () => {
    const expected = { month: month(), executions: { used: 3, limit: 4 }, reports: { used: 1, limit: 1 } };
    const asked = await p.gql(p.keys.acmeRead, USAGE);
    expect(asked.body).toEqual({ data: { usage: expected } });
    const rest = await p.get(p.keys.acmeRead, "/api/usage");
    expect(rest.status).toBe(200);
    expect(await rest.json()).toEqual(expected);
    const globex = await p.gql(p.keys.globexWrite, USAGE);
    expect(globex.body.data.usage).toEqual({ month: month(), executions: { used: 0, limit: 4 }, reports: { used: 0, limit: 1 } });
    expect(await (await p.get(p.keys.globexWrite, "/api/usage")).json()).toMatchObject({ executions: { used: 0 }, reports: { used: 0 } });
  });

  it("another tenant's quota is its own: globex still starts a run", async () => {
    const globexEvaluation = await evaluation(p, p.keys.globexWrite);
    const started = await p.gql(p.keys.globexWrite, START, { id: globexEvaluation });
    expect(started.status).toBe(200);
    expect((await p.gql(p.keys.acmeRead, USAGE)).body.data.usage.executions.used).toBe(3);
  });

  it("an earlier month answers its own figures; a month that is not YYYY-MM is refused", async () => {
    expect((await p.gql(p.keys.acmeRead, `{ usage(month: "2001-01") { month executions { used } } }`)).body.data.usage).toEqual({ month: "2001-01", executions: { used: 0 } });
    const bad = await p.get(p.keys.acmeRead, "/api/usage?month=2026-13");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "VALIDATION", field: "month" });
    expect((await p.get(null, "/api/usage")).status).toBe(401);
  });
});

describe("with execution disabled", () => {
  let p: Platform;
  beforeAll(async () => {
    p = await startPlatform({ plan: { executionDisabled: true } });
  });
  afterAll(async () => p?.close());

  it("refuses StartRun with 403 EXECUTION_DISABLED; importing a catalog and creating an evaluation still work and meter nothing", async () => {
    const evaluationId = await evaluation(p);
    expect(evaluationId).toEqual(expect.any(String));
    const refused = await p.gql(p.keys.acmeWrite, START, { id: evaluationId });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toMatchObject({
      message: "Agent execution is disabled on this dashboard (VERDICT_EXECUTION_DISABLED=true)",
      extensions: { code: "EXECUTION_DISABLED", error: "Agent execution is disabled on this dashboard" },
    });
    expect(await runCount(p, evaluationId)).toBe(0);
    expect((await p.gql(p.keys.acmeRead, USAGE)).body.data.usage).toEqual({ month: month(), executions: { used: 0, limit: null }, reports: { used: 0, limit: null } });
  });
});

describe("a plan's refusal sets the HTTP status only when the operation failed as a whole", () => {
  let p: Platform;
  let evaluationId: string;
  beforeAll(async () => {
    p = await startPlatform({ plan: { executionsPerMonth: 4 } });
    evaluationId = await evaluation(p);
  });
  afterAll(async () => p?.close());

  it("a: startRun admitted and b: startRun refused in one mutation answer 200 with a's runId beside b's null, b's refusal in errors; a's run exists and is metered", async () => {
    const both = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { a: startRun(evaluationId: $id) { runId } b: startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
    expect(both.status).toBe(200);
    // startRun is nullable: b's refusal answers b: null, not `data: null`, so the client learns
    // run a's id (and does not start it again).
    expect(both.body.data).toEqual({ a: { runId: expect.any(String) }, b: null });
    expect(both.body.errors).toHaveLength(1);
    expect(both.body.errors[0]).toMatchObject({ path: ["b"], extensions: { code: "PLAN_LIMIT_REACHED", used: 3, requested: 3 } });
    const runId: string = both.body.data.a.runId;
    const run = await p.gql(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { id evaluation { id } } }`, { id: runId });
    expect(run.body).toEqual({ data: { run: { id: runId, evaluation: { id: evaluationId } } } });
    expect(await runCount(p, evaluationId)).toBe(1);
    const usage = await p.gql(p.keys.acmeRead, USAGE);
    expect(usage.body.data.usage.executions).toEqual({ used: 3, limit: 4 });
  });

  it("every root field refused (here through a fragment) answers the plan's status", async () => {
    const refused = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { ...both } fragment both on Mutation { a: startRun(evaluationId: $id) { runId } b: startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
    expect(refused.status).toBe(402);
    // startRun is nullable: each refused field answers null and the mutation goes on to the next.
    expect(refused.body.data).toEqual({ a: null, b: null });
    expect(refused.body.errors.map((e: { path: string[] }) => e.path[0])).toEqual(["a", "b"]);
    expect(await runCount(p, evaluationId)).toBe(1);
  });

  it("a refused startRun, then a field that succeeded, then a non-null one that failed (data: null) answers 200: not every field failed", async () => {
    const mixed = await p.gql(
      p.keys.acmeWrite,
      `mutation ($id: ID!, $missing: ID!) { a: startRun(evaluationId: $id) { runId } b: archiveEvaluation(evaluationId: $id, archived: false) { evaluationId } c: archiveEvaluation(evaluationId: $missing, archived: true) { evaluationId } }`,
      { id: evaluationId, missing: "00000000-0000-4000-8000-000000000000" },
    );
    expect(mixed.status).toBe(200);
    expect(mixed.body.data).toBeNull();
    expect(mixed.body.errors.map((e: { path: string[]; extensions: { code: string } }) => [e.path[0], e.extensions.code])).toEqual([["a", "PLAN_LIMIT_REACHED"], ["c", "NOT_FOUND"]]);
  });
});
