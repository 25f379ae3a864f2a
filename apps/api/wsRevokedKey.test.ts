// A key revoked while a graphql-ws socket is open stops working on that socket, as it does over
// HTTP: the key was checked once, at connection_init, and the socket kept its access for good.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { createMemoryApiKeyStore } from "./auth/apiKeys.js";
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
