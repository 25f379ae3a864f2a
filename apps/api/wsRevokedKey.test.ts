// A key revoked while a graphql-ws socket is open stops working on that socket, as it does over
// HTTP: the key was checked once, at connection_init, and the socket kept its access for good.
// A subscription it had already started ends too: it went on streaming its run after the revoke.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { createMemoryApiKeyStore, type ApiKeyStore } from "./auth/apiKeys.js";
import { collect, startPlatform, type Platform } from "./testing/harness.js";

const keys = createMemoryApiKeyStore();
let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ apiKeys: keys, keyCacheMs: 0 });
}, 60_000);
afterAll(async () => {
  await p?.close();
});

it("refuses operations on an open socket once its key is revoked", async () => {
  const { key, record } = await keys.create({ tenant: "acme", role: "write" });
  const socket = createClient({ url: p.api.wsUrl, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${key}` }, lazy: false, retryAttempts: 0 });
  try {
    expect(await collect(socket, `{ catalogs { totalCount edges { node { key } } } }`, {})).toEqual([{ catalogs: { totalCount: 0, edges: [] } }]);
    await keys.revoke(record.keyId);
    const refused = collect(socket, `mutation { createEvaluation(input: { agent: "A", name: "N", scenariosText: "Where is my order?" }) { evaluationId } }`, {});
    await expect(refused).rejects.toMatchObject({ errors: [{ message: "the API key is unknown or revoked", extensions: { code: "UNAUTHENTICATED" } }] });
    expect(await p.store.readAll({ limit: 10 })).toEqual([]);
  } finally {
    await socket.dispose();
  }
});

it("closes an open socket (4403) once its key is revoked, ending the subscriptions it had started", async () => {
  const { key, record: watcher } = await keys.create({ tenant: "acme", role: "read" });
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Revoked watcher", scenarios: [{ key: "where", prompt: "Where is my order?" }, { key: "when", prompt: "When does it ship?" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
  // External: no worker touches it, so it stays open until this test records its pairs.
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: created.body.data.createEvaluation.evaluationId });
  const runId: string = started.body.data.startRun.runId;
  const record = (scenarioKey: string, answer: string) =>
    p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $s: String!, $a: String!) { recordReplay(runId: $r, scenarioKey: $s, modelLabel: "gpt-5-mini", replay: { answer: $a }) { scenarioKey } }`, { r: runId, s: scenarioKey, a: answer });
  const seen: string[] = [];
  let firstEvent!: () => void;
  const streaming = new Promise<void>((resolve) => (firstEvent = resolve));
  const socket = createClient({ url: p.api.wsUrl, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${key}` }, retryAttempts: 0 });
  try {
    const ended = new Promise<{ code?: number; reason?: string }>((resolve, reject) => {
      socket.subscribe<{ runEvents: { type: string; data: { replay?: { answer?: string } } } }>(
        { query: `subscription ($r: ID!) { runEvents(runId: $r) { type data } }`, variables: { r: runId } },
        {
          next: (value) => {
            const event = value.data!.runEvents;
            seen.push(event.type === "ReplayRecorded" ? `ReplayRecorded: ${event.data.replay?.answer}` : event.type);
            firstEvent();
          },
          error: (error) => resolve(error as { code?: number; reason?: string }),
          complete: () => reject(new Error("the subscription completed instead of being cut off")),
        },
      );
    });
    await streaming;
    expect((await record("where", "before the revoke")).body.errors).toBeUndefined();
    await expect.poll(() => seen, { timeout: 5_000 }).toContain("ReplayRecorded: before the revoke");
    await keys.revoke(watcher.keyId);
    const stillOpen = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the socket stayed open 5 s after its key was revoked")), 5_000).unref());
    expect(await Promise.race([ended, stillOpen])).toMatchObject({ code: 4403, reason: "UNAUTHENTICATED: the API key is unknown or revoked" });
    expect((await record("when", "after the revoke")).body.errors).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.join("\n")).not.toContain("after the revoke");
  } finally {
    await socket.dispose();
  }
}, 20_000);

it("starts no re-check for a socket that closed while its key was first being checked", async () => {
  // A key store that takes 200 ms to answer, counting the questions it is asked.
  const inner = createMemoryApiKeyStore();
  let asked = 0;
  const slow: ApiKeyStore = {
    create: (input) => inner.create(input),
    verify: async (key) => {
      asked += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return inner.verify(key);
    },
    revoke: (keyId) => inner.revoke(keyId),
    list: () => inner.list(),
    close: () => inner.close(),
  };
  const q = await startPlatform({ apiKeys: slow, keyCacheMs: 0 });
  try {
    const { key } = await slow.create({ tenant: "acme", role: "read" });
    const dropped = Array.from({ length: 10 }, () => new Promise<void>((resolve) => {
      const ws = new WebSocket(q.api.wsUrl, "graphql-transport-ws");
      ws.on("open", () => {
        ws.send(JSON.stringify({ type: "connection_init", payload: { Authorization: `Bearer ${key}` } }));
        setTimeout(() => ws.terminate(), 20); // gone before the store answers
      });
      ws.on("close", () => resolve());
    }));
    await Promise.all(dropped);
    await new Promise((resolve) => setTimeout(resolve, 400)); // the first checks answer
    const afterConnect = asked;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // Each socket's timer used to ask the store every second for the life of the process.
    expect(asked - afterConnect).toBe(0);
  } finally {
    await q.close();
  }
}, 20_000);
