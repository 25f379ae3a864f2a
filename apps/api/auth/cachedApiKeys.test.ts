import { describe, expect, it } from "vitest";
import { createMemoryApiKeyStore, keyIdOf, type ApiKeyStore } from "./apiKeys.js";
import { cachedApiKeys } from "./cachedApiKeys.js";

/** A store that counts its lookups, over the memory store. */
function counting(store: ApiKeyStore): { lookups: number; store: ApiKeyStore } {
  const counted = { lookups: 0, store };
  counted.store = { ...store, verify: (key: string) => (counted.lookups++, store.verify(key)) };
  return counted;
}

describe("cached API keys", () => {
  it("answers a key verified within the TTL from memory, and asks the store again after it", async () => {
    const inner = createMemoryApiKeyStore();
    const { key } = await inner.create({ tenant: "acme", role: "read" });
    const counted = counting(inner);
    let now = 0;
    const keys = cachedApiKeys(counted.store, { ttlMs: 1000, now: () => now });
    const principal = { keyId: keyIdOf(key), tenant: "acme", role: "read" };
    expect(await keys.verify(key)).toEqual(principal);
    now = 999;
    expect(await keys.verify(key)).toEqual(principal);
    expect(counted.lookups).toBe(1);
    now = 1000;
    expect(await keys.verify(key)).toEqual(principal);
    expect(counted.lookups).toBe(2);
  });

  it("shares one store lookup between concurrent requests with the same key", async () => {
    const inner = createMemoryApiKeyStore();
    const { key } = await inner.create({ tenant: "acme", role: "read" });
    const counted = counting(inner);
    const keys = cachedApiKeys(counted.store);
    const answers = await Promise.all(Array.from({ length: 20 }, () => keys.verify(key)));
    expect(new Set(answers.map((a) => a?.tenant))).toEqual(new Set(["acme"]));
    expect(counted.lookups).toBe(1);
  });

  it("never keeps an unknown or altered key: each attempt asks the store, so a key created elsewhere works at once", async () => {
    const inner = createMemoryApiKeyStore();
    const counted = counting(inner);
    const keys = cachedApiKeys(counted.store);
    const { key } = await inner.create({ tenant: "acme", role: "read" });
    expect(await keys.verify(`${key}x`)).toBeNull();
    expect(await keys.verify(`${key}x`)).toBeNull();
    expect(counted.lookups).toBe(2);
    expect(await keys.verify(key)).not.toBeNull();
  });

  it("refuses a key revoked through it at once, even while a lookup begun before the revoke is in flight", async () => {
    const inner = createMemoryApiKeyStore();
    const { key, record } = await inner.create({ tenant: "acme", role: "write" });
    const keys = cachedApiKeys(inner, { ttlMs: 60_000 });
    expect(await keys.verify(key)).not.toBeNull();
    expect(await keys.revoke(record.keyId)).toBe(true);
    expect(await keys.verify(key)).toBeNull();

    const second = await inner.create({ tenant: "acme", role: "read" });
    const racing = keys.verify(second.key); // started before the revoke: the store still knows the key
    await keys.revoke(second.record.keyId);
    await racing;
    expect(await keys.verify(second.key)).toBeNull();
  });

  it("refuses a key revoked by another process once its entry is older than the TTL", async () => {
    const inner = createMemoryApiKeyStore();
    const { key, record } = await inner.create({ tenant: "acme", role: "read" });
    let now = 0;
    const keys = cachedApiKeys(inner, { ttlMs: 1000, now: () => now });
    expect(await keys.verify(key)).not.toBeNull();
    await inner.revoke(record.keyId); // not through the cache: as the CLI does in its own process
    now = 1000;
    expect(await keys.verify(key)).toBeNull();
  });
});
