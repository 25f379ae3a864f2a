// The two subscriptions as a dashboard that reconnects uses them: runProgress never sends a frame
// equal to the one before it (its first is the snapshot, so subscribing again resumes it);
// runEvents(after:) sends only the events after the last position the client saw, then the live
// ones; a blank runId is VALIDATION naming it, as a blank argument is elsewhere.
import { beforeAll, describe, expect, it } from "vitest";
import { collect, finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
let finished: string;
let evaluationId: string;

const EVENTS = `subscription ($r: ID!, $after: String) { runEvents(runId: $r, after: $after) { type position } }`;

async function auditPositions(runId: string): Promise<{ type: string; position: string }[]> {
  const { body } = await p.gql(p.keys.acmeRead, `query ($r: ID!) { runAudit(id: $r) { events { type position } } }`, { r: runId });
  return body.data.runAudit.events;
}

async function startExternal(): Promise<string> {
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { keys: ["greeting"] }) { runId } }`, { id: evaluationId });
  return started.body.data.startRun.runId;
}

beforeAll(async () => {
  p = await startPlatform();
  ({ runId: finished, evaluationId } = await finishedSampleRun(p, ["gpt-5-mini"]));
  return () => p.close();
}, 60_000);

describe("runProgress", () => {
  it("does not send a frame equal to the last one sent (a batch that only recorded a replay)", async () => {
    const runId = await startExternal();
    const readModels = p.read.readModels;
    const now = await readModels.progress("acme", runId);
    if (!now) throw new Error("no progress");
    let announced = false;
    const messages = await collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status completed total } }`, { r: runId }, () => {
      if (announced) return;
      announced = true;
      // After the snapshot: a batch that changed nothing shown (a replay recorded, not scored),
      // announced twice, then the run's end.
      void (async () => {
        await p.progress.publish({ ...now });
        await p.progress.publish({ ...now });
        await p.progress.publish({ ...now, status: "COMPLETED", completed: now.total });
      })();
    });
    expect(messages.map((m) => m.runProgress)).toEqual([
      { status: "RUNNING", completed: 0, total: 1 },
      { status: "COMPLETED", completed: 1, total: 1 },
    ]);
  }, 15_000);

  it("refuses a blank runId VALIDATION naming it", async () => {
    for (const runId of ["", "  "]) {
      await expect(collect(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, { r: runId }))
        .rejects.toMatchObject({ errors: [{ message: "runId: must not be blank", extensions: { code: "VALIDATION", field: "runId" } }] });
      await expect(collect(p.wsClient(p.keys.acmeRead), EVENTS, { r: runId }))
        .rejects.toMatchObject({ errors: [{ message: "runId: must not be blank", extensions: { code: "VALIDATION", field: "runId" } }] });
    }
  });
});

describe("runEvents(after:)", () => {
  it("sends only the events after `after` (runAudit's positions), then ends with the run", async () => {
    const audit = await auditPositions(finished);
    expect(audit.length).toBeGreaterThan(4);
    const all = await collect<any>(p.wsClient(p.keys.acmeRead), EVENTS, { r: finished });
    expect(all.map((e) => e.runEvents)).toEqual(audit);
    const resumed = await collect<any>(p.wsClient(p.keys.acmeRead), EVENTS, { r: finished, after: "3" });
    expect(resumed.map((e) => e.runEvents)).toEqual(audit.slice(4));
    // After the last one (or past it): nothing more, and the ended run's subscription ends.
    expect(await collect(p.wsClient(p.keys.acmeRead), EVENTS, { r: finished, after: audit.at(-1)!.position })).toEqual([]);
    expect(await collect(p.wsClient(p.keys.acmeRead), EVENTS, { r: finished, after: "99999999999999999999" })).toEqual([]);
  });

  it("resumes a running run after the last position seen, then follows it live", async () => {
    const runId = await startExternal();
    expect(await auditPositions(runId)).toEqual([{ type: "RunStarted", position: "0" }]);
    const resumed = collect<any>(p.wsClient(p.keys.acmeRead), EVENTS, { r: runId, after: "0" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const recorded = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "greeting", modelLabel: "gpt-5-mini", replay: { answer: "Hello! How can I help?" }) { scenarioKey } }`, { r: runId });
    expect(recorded.body.errors).toBeUndefined();
    await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { completeExternalRun(runId: $r) { total } }`, { r: runId });
    const events = (await resumed).map((e) => e.runEvents);
    expect(events[0]).toEqual({ type: "ReplayRecorded", position: "1" });
    expect(events.at(-1).type).toBe("RunCompleted");
    expect(events).toEqual((await auditPositions(runId)).slice(1));
  }, 15_000);

  it("refuses an `after` that is not a position VALIDATION naming it", async () => {
    for (const after of ["-1", "1.5", "abc", "", " 2", "01"]) {
      await expect(collect(p.wsClient(p.keys.acmeRead), EVENTS, { r: finished, after }), after)
        .rejects.toMatchObject({ errors: [{ extensions: { code: "VALIDATION", field: "after" } }] });
    }
  });
});
