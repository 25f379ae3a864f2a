// startRun and importReport append to two streams (the evaluation numbers the run, then the run
// stream records it). A run the run stream refuses (a report it cannot read, a snapshot over the
// store's 8 MB event limit) must leave nothing behind: it left RunScheduled, a run row that never
// started and showed in the evaluation's runs, and its number taken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationStream, readWholeStream, type EventStore } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
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
  // Twenty merges of ~450 KB each: every one fits an event, the whole suite (~9 MB) does not.
  for (let batch = 0; batch < 20; batch += 1) {
    const s = Array.from({ length: 7 }, (_, i) => ({ key: `s${batch * 7 + i}`, prompt: `Question ${i}: ${"details ".repeat(8000)}` }));
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
    expect(res.body.errors[0].extensions).toMatchObject({ code: "VALIDATION", field: "envelope.report.models" });
    expect(await evaluationEvents()).toEqual(before);
    expect(await runsListed()).toBe(0);
  });

  it("startRun whose selection snapshot is over the event size limit writes nothing", async () => {
    const before = await evaluationEvents();
    const res = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: evaluationId });
    expect(res.body.errors[0].extensions.code).toBe("VALIDATION");
    expect(res.body.errors[0].message).toMatch(/over the 8 MB limit/);
    expect(await evaluationEvents()).toEqual(before);
    expect(await runsListed()).toBe(0);
    // A selection within the limit starts as run 1: no number was taken by the refused one.
    const ok = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { keys: ["s1", "s2"] }) { number } }`, { id: evaluationId });
    expect(ok.body.data.startRun.number).toBe(1);
  });
});

describe("a run whose run stream append is lost (the connection dropped between startRun's two appends)", () => {
  it("is not the evaluation's latest run, not listed, and its id answers NOT_FOUND; the next run heads the evaluation", async () => {
    const inner = createMemoryEventStore();
    let lose = false;
    const store: EventStore = Object.create(inner);
    store.append = async (streamId, events, options) => {
      if (lose && streamId.startsWith("run-")) throw new Error("Connection terminated unexpectedly");
      return inner.append(streamId, events, options);
    };
    const q = await startPlatform({ store });
    try {
      const created = await q.gql(q.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Lost", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
      const id = created.body.data.createEvaluation.evaluationId;
      await q.gql(q.keys.acmeWrite, `mutation ($id: ID!, $s: JSON) { mergeScenarios(evaluationId: $id, scenarios: $s) { added } }`, { id, s: [{ key: "a", prompt: "Where is order 4821?" }] });
      lose = true;
      const lost = await q.gql(q.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id });
      expect(lost.body.errors).toHaveLength(1);
      lose = false;
      const [scheduled] = (await readWholeStream(inner, evaluationStream(id))).filter((e) => e.type === "RunScheduled");
      const lostRunId = (scheduled.data as { run_id: string }).run_id;
      // A later write, so the projector has certainly passed the RunScheduled.
      const next = await q.gql(q.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "After" }) { evaluationId } }`);
      expect(next.body.errors).toBeUndefined();
      const evaluation = async () => (await q.gql(q.keys.acmeRead, `query ($id: ID!) { evaluation(id: $id) { runCount latestRun { id number status } runs { totalCount } } }`, { id })).body.data.evaluation;
      expect(await evaluation()).toEqual({ runCount: 0, latestRun: null, runs: { totalCount: 0 } });
      const run = await q.gql(q.keys.acmeRead, `query ($r: ID!) { run(id: $r) { id status } }`, { r: lostRunId });
      expect(run.body.errors[0].extensions.code).toBe("NOT_FOUND");
      // The next run takes number 2 (a gap, never a duplicate) and heads the evaluation.
      const started = await q.gql(q.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId number } }`, { id });
      expect(started.body.data.startRun.number).toBe(2);
      expect(await evaluation()).toEqual({ runCount: 2, latestRun: { id: started.body.data.startRun.runId, number: 2, status: "RUNNING" }, runs: { totalCount: 1 } });
    } finally {
      await q.close();
    }
  });
});
