import { describe, expect, it } from "vitest";
import { createMemoryApiKeyStore, hashApiKey, keyIdOf } from "./apiKeys.js";

describe("API keys", () => {
  it("stores only the hash and answers the key's tenant and role", async () => {
    const store = createMemoryApiKeyStore();
    const { key, record } = await store.create({ tenant: "acme", role: "read", name: "ci" });
    expect(key).toMatch(/^vk_[0-9a-f]{12}_/);
    expect(JSON.stringify(store.records())).not.toContain(key.slice(16));
    expect(record.hash).toBe(hashApiKey(key));
    expect(await store.verify(key)).toEqual({ keyId: keyIdOf(key), tenant: "acme", role: "read" });
    expect(await store.list()).toEqual([{ keyId: record.keyId, tenant: "acme", role: "read", name: "ci", createdAt: record.createdAt, revokedAt: null }]);
  });

  it("refuses unknown, altered and revoked keys", async () => {
    const store = createMemoryApiKeyStore();
    const { key, record } = await store.create({ tenant: "acme", role: "write" });
    expect(await store.verify(`${key}x`)).toBeNull();
    expect(await store.verify("Bearer nonsense")).toBeNull();
    expect(await store.revoke(record.keyId)).toBe(true);
    expect(await store.verify(key)).toBeNull();
  });

  it("names the field of a bad tenant or role", async () => {
    const store = createMemoryApiKeyStore();
    await expect(store.create({ tenant: "a b", role: "read" })).rejects.toMatchObject({ code: "validation", field: "tenant" });
    await expect(store.create({ tenant: "acme", role: "admin" as "read" })).rejects.toThrow(/role must be read or write/);
  });
});
