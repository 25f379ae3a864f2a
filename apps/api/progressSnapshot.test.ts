// runProgress listens before it reads where the run is: a run that ends while a client subscribes
// is announced to that client, whatever the order of the snapshot's read and the announcement.
import { beforeAll, describe, expect, it } from "vitest";
import { collect, startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;

beforeAll(async () => {
  p = await startPlatform();
  return () => p.close();
}, 60_000);

describe("runProgress", () => {
  it("ends for a run that completes while the subscription reads its snapshot", async () => {
    const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Snapshot race", scenarios: [{ key: "where", prompt: "Where is my order?" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
    // External: no worker touches it, so it stays RUNNING until this test announces its end.
    const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: created.body.data.createEvaluation.evaluationId });
    const runId = started.body.data.startRun.runId;
    const readModels = p.read.readModels;
    const snapshot = readModels.progress.bind(readModels);
    // The run's end is committed and announced while the snapshot is being read: the snapshot
    // still says RUNNING, the announcement says COMPLETED.
    readModels.progress = async (tenant: string, id: string) => {
      const now = await snapshot(tenant, id);
      if (now && id === runId) await p.progress.publish({ ...now, status: "COMPLETED", completed: now.total });
      return now;
    };
    try {
      const messages = await collect<any>(p.wsClient(p.keys.acmeRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status completed total } }`, { runId });
      expect(messages.map((m) => m.runProgress.status)).toEqual(["RUNNING", "COMPLETED"]);
    } finally {
      readModels.progress = snapshot;
    }
  }, 15_000);
});
