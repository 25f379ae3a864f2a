// When the API key store itself fails (its database is down), the caller is not told its key was
// refused, and the store's error (which may name the database's host and user) is not shown.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMemoryApiKeyStore } from "./auth/apiKeys.js";
import { rawWsSession, startPlatform, type Platform } from "./testing/harness.js";

const FAILURE = "connect ECONNREFUSED postgres://verdict:s3cr3t-password@db.internal:5432/keys";

let p: Platform;
let failing = false;
beforeAll(async () => {
  const keys = createMemoryApiKeyStore();
  const verify = keys.verify.bind(keys);
  keys.verify = (key) => (failing ? Promise.reject(new Error(FAILURE)) : verify(key));
  p = await startPlatform({ apiKeys: keys });
}, 60_000);
afterAll(async () => {
  await p?.close();
});

it("answers an internal error, not 401 with the store's message, when keys cannot be checked", async () => {
  failing = true;
  // A key not seen before, so no verified key kept in memory answers for the store.
  const res = await p.gql(p.keys.globexWrite, `{ catalogs { totalCount } }`);
  failing = false;
  expect(res.status).toBe(500);
  expect(res.body.errors[0]).toMatchObject({ message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } });
  expect(JSON.stringify(res.body)).not.toContain("s3cr3t");
  expect((await p.gql(p.keys.globexWrite, `{ catalogs { totalCount } }`)).status).toBe(200);
});

it("closes a graphql-ws socket with 4500 and INTERNAL_SERVER_ERROR, not 4403, when keys cannot be checked", async () => {
  failing = true;
  const { closed, reason } = await rawWsSession(p.api.wsUrl, "vk_never_seen_before", [], () => false);
  failing = false;
  expect(closed).toBe(4500);
  expect(reason).toBe("INTERNAL_SERVER_ERROR: internal error");
});
