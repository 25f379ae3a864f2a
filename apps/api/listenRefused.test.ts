// A server whose listen is refused (its port taken since the caller looked) stops what it had
// started before throwing: `verdict start` then tries again on a free port, and the refused
// attempt's Apollo, graphql-ws server and serving parts were left running behind it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryApiKeyStore } from "./auth/apiKeys.js";
import { createApiServer } from "./server/createApiServer.js";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
}, 60_000);
afterAll(async () => {
  await p?.close();
});

describe("createApiServer on a port taken since the caller looked", () => {
  it("rejects with EADDRINUSE, its watch of read-model rebuilds stopped, and the server on that port serves on", async () => {
    const taken = Number(new URL(p.api.url).port);
    // What the attempt starts that outlives it unless stopped: its serving parts' rebuild watch.
    const rebuilds = p.read.readModels.rebuilds;
    const subscribe = rebuilds.onRebuilt.bind(rebuilds);
    let watching = 0;
    rebuilds.onRebuilt = (listener) => {
      watching += 1;
      const unsubscribe = subscribe(listener);
      return () => {
        watching -= 1;
        unsubscribe();
      };
    };
    try {
      const options = {
        store: p.store, readModels: p.read.readModels, progress: p.progress, apiKeys: createMemoryApiKeyStore(),
        clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, port: taken, log: () => undefined,
      };
      await expect(createApiServer(options)).rejects.toMatchObject({ code: "EADDRINUSE" });
      expect(watching).toBe(0);
    } finally {
      rebuilds.onRebuilt = subscribe;
    }
    expect((await fetch(`${p.api.url}/healthz`)).status).toBe(200);
  });
});
