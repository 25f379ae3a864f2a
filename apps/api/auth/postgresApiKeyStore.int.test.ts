// The API key store when PostgreSQL drops its sessions (a restart, pg_terminate_backend): the
// process carries on (an unhandled `error` from pg's pool would fail this file) and the store
// answers again on new connections.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, terminateSessions, type TestDatabase } from "../../../infra/services/testDatabase.js";
import { createPostgresApiKeyStore } from "./postgresApiKeyStore.js";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase("verdict_api_keys");
});

afterAll(async () => {
  await db?.drop();
});

describe("the PostgreSQL API key store", () => {
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
