// The API key store the API runs on: what it lets in, and when PostgreSQL drops its sessions (a
// restart, pg_terminate_backend): the process carries on (an unhandled `error` from pg's pool
// would fail this file) and the store answers again on new connections.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, terminateSessions, type TestDatabase } from "../../../infra/services/testDatabase.js";
import { createPostgresApiKeyStore } from "./postgresApiKeyStore.js";
import { keyIdOf } from "./apiKeys.js";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase("verdict_api_keys");
});

afterAll(async () => {
  await db?.drop();
});

describe("the PostgreSQL API key store", () => {
  it("answers a key's own tenant and role, and refuses unknown, altered, forged and revoked keys", async () => {
    let now = new Date("2026-12-01T00:00:00Z");
    const own = await createTestDatabase("verdict_api_keys_rules");
    const store = await createPostgresApiKeyStore({ url: own.url, clock: { now: () => now } });
    try {
      const { key, record } = await store.create({ tenant: "acme", role: "write" });
      const other = await store.create({ tenant: "globex", role: "read" });
      expect(await store.verify(key)).toEqual({ keyId: keyIdOf(key), tenant: "acme", role: "write" });
      expect(await store.verify(other.key)).toEqual({ keyId: keyIdOf(other.key), tenant: "globex", role: "read" });
      expect(await store.verify(`${key}x`)).toBeNull();
      // The key's id with another secret: found by the id, refused by the hash.
      expect(await store.verify(`vk_${record.keyId}_${"A".repeat(32)}`)).toBeNull();
      expect(await store.verify("Bearer nonsense")).toBeNull();
      expect(await store.revoke(record.keyId)).toBe(true);
      expect(await store.verify(key)).toBeNull();
      expect(await store.verify(other.key)).not.toBeNull();
      // Revoked once: a second revoke answers false and keeps the first date.
      now = new Date("2026-12-02T00:00:00Z");
      expect(await store.revoke(record.keyId)).toBe(false);
      expect((await store.list()).find((k) => k.keyId === record.keyId)?.revokedAt).toEqual(new Date("2026-12-01T00:00:00Z"));
    } finally {
      await store.close();
      await own.drop();
    }
  });

  it("still answers after its pooled connections were terminated", async () => {
    const store = await createPostgresApiKeyStore({ url: db.url, poolSize: 2 });
    try {
      const { key } = await store.create({ tenant: "acme", role: "read" });
      // Two idle connections in the pool, both to be terminated.
      await Promise.all([store.verify(key), store.verify(key)]);
      expect(await terminateSessions(db.name)).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 100)); // pg sees the sockets close
      expect(await store.verify(key)).toMatchObject({ tenant: "acme", role: "read" });
      expect((await store.create({ tenant: "acme", role: "write" })).record.role).toBe("write");
      // Listed without hashes, revoked ones with their date.
      const listed = await store.list();
      expect(listed.map((k) => k.role).sort()).toEqual(["read", "write"]);
      expect(JSON.stringify(listed)).not.toContain("hash");
      expect(await store.revoke(listed[0].keyId)).toBe(true);
      expect((await store.list()).find((k) => k.keyId === listed[0].keyId)?.revokedAt).toBeInstanceOf(Date);
    } finally {
      await store.close();
    }
  });
});
