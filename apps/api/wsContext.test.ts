// Operations sent over one graphql-ws socket each read afresh: the socket's context (and its
// per-request memo of run histories) was shared by every operation for the socket's lifetime, so
// a dashboard that kept its socket open saw a running run's audit trail as it first read it.
import { beforeAll, expect, it } from "vitest";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { collect, startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
  return () => p.close();
}, 60_000);

it("answers a later query on the same socket from what is recorded by then", async () => {
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Orders", scenarios: [{ key: "where", prompt: "Where is my order?" }, { key: "cancel", prompt: "Cancel my order" }] }) { evaluationId } }`);
  const evaluationId = created.body.data.createEvaluation.evaluationId;
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true, selection: { models: ["gpt-5-mini"] }) { runId } }`, { id: evaluationId });
  const runId = started.body.data.startRun.runId;
  const socket = createClient({ url: p.api.wsUrl, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${p.keys.acmeRead}` }, lazy: false, retryAttempts: 0 });
  try {
    const audit = `query ($r: ID!) { runAudit(id: $r) { events { type } } }`;
    const before = await collect<any>(socket, audit, { r: runId });
    expect(before[0].runAudit.events.map((e: any) => e.type)).toEqual(["RunStarted"]);
    const recorded = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!) { recordReplay(runId: $r, scenarioKey: "where", modelLabel: "gpt-5-mini", replay: { answer: "It ships Friday." }) { runId } }`, { r: runId });
    expect(recorded.body.errors).toBeUndefined();
    const after = await collect<any>(socket, audit, { r: runId });
    expect(after[0].runAudit.events.map((e: any) => e.type)).toEqual(expect.arrayContaining(["RunStarted", "ReplayRecorded"]));
  } finally {
    await socket.dispose();
  }
});
