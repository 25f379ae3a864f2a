// startRun and importReport append to two streams (the evaluation numbers the run, then the run
// stream records it). A run the run stream refuses (a report it cannot read, a snapshot over the
// store's 1 MB event limit) must leave nothing behind: it left RunScheduled, a run row that never
// started and showed in the evaluation's runs, and its number taken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationStream, readWholeStream } from "@verdict/domain";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
let evaluationId: string;
const envelope = (runId: string, report: Record<string, unknown>) => ({ version: 1, run_id: runId, source: "elsewhere", agent_name: "A", suite: "Orders", report });
const evaluationEvents = async () => (await readWholeStream(p.store, evaluationStream(evaluationId))).map((e) => e.type);
const runsListed = async () =>
  (await p.gql(p.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runs { totalCount } } }`, { id: evaluationId })).body.data.evaluation.runs.totalCount;

beforeAll(async () => {
  p = await startPlatform({ limits: { bodyLimit: "4mb" } });
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Orders", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
  evaluationId = created.body.data.createEvaluation.evaluationId;
  // Three merges of ~450 KB each: every one fits an event, the whole suite does not.
  for (const batch of [0, 1, 2]) {
    const s = Array.from({ length: 15 }, (_, i) => ({ key: `s${batch * 15 + i}`, prompt: `Question ${i}: ${"details ".repeat(3500)}` }));
    const merged = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $s: JSON) { mergeScenarios(evaluationId: $id, scenarios: $s) { added } }`, { id: evaluationId, s });
    expect(merged.body.errors).toBeUndefined();
  }
}, 60_000);
afterAll(async () => {
  await p?.close();
});

describe("a run the run stream refuses", () => {
  it("importReport with a report it cannot read writes nothing", async () => {
    const before = await evaluationEvents();
    const res = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!, $e: JSON!) { importReport(evaluationId: $id, envelope: $e) { runId } }`, { id: evaluationId, e: envelope("broken-1", {}) });
    expect(res.body.errors[0].extensions).toMatchObject({ code: "VALIDATION", field: "report.models" });
    expect(await evaluationEvents()).toEqual(before);
    expect(await runsListed()).toBe(0);
  });

  it("startRun whose selection snapshot is over the event size limit writes nothing", async () => {
    const before = await evaluationEvents();
    const res = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: evaluationId });
    expect(res.body.errors[0].extensions.code).toBe("VALIDATION");
    expect(res.body.errors[0].message).toMatch(/over the 1 MB limit/);
    expect(await evaluationEvents()).toEqual(before);
    expect(await runsListed()).toBe(0);
    // A selection within the limit starts as run 1: no number was taken by the refused one.
    const ok = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { keys: ["s1", "s2"] }) { number } }`, { id: evaluationId });
    expect(ok.body.data.startRun.number).toBe(1);
  });
});
