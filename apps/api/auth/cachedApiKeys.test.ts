import { describe, expect, it } from "vitest";
import { createMemoryApiKeyStore, keyIdOf, type ApiKeyStore } from "./apiKeys.js";
import { cachedApiKeys } from "./cachedApiKeys.js";

/** A store that counts its lookups, over the memory store. */
function counting(store: ApiKeyStore): { lookups: number; store: ApiKeyStore } {
  const counted = { lookups: 0, store };
  counted.store = { ...store, verify: (key: string) => (counted.lookups++, store.verify(key)) };
  return counted;
}

/** The memory store with its verify and revoke held until `release` (the store read, not yet answered). */
function held(store: ApiKeyStore) {
  const waiting: Array<() => void> = [];
  const hold = () => new Promise<void>((resolve) => waiting.push(resolve));
  const gates = { verify: false, revoke: false };
  const slow: ApiKeyStore = {
    ...store,
    verify: async (key) => {
      const answer = await store.verify(key);
      if (gates.verify) await hold();
      return answer;
    },
    revoke: async (keyId) => {
      if (gates.revoke) await hold();
      return store.revoke(keyId);
    },
  };
  return { store: slow, gates, release: () => waiting.splice(0).forEach((go) => go()) };
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

  it("answers each key with its own principal: another key, or this key's id with another secret, is never answered from its entry", async () => {
    const inner = createMemoryApiKeyStore();
    const acme = await inner.create({ tenant: "acme", role: "write" });
    const globex = await inner.create({ tenant: "globex", role: "read" });
    const keys = cachedApiKeys(inner, { ttlMs: 60_000 });
    expect(await keys.verify(acme.key)).toEqual({ keyId: acme.record.keyId, tenant: "acme", role: "write" });
    expect(await keys.verify(globex.key)).toEqual({ keyId: globex.record.keyId, tenant: "globex", role: "read" });
    const forged = `vk_${acme.record.keyId}_${"A".repeat(32)}`;
    expect(keyIdOf(forged)).toBe(acme.record.keyId);
    expect(await keys.verify(forged)).toBeNull();
    expect(await keys.verify(acme.key.slice(0, -1))).toBeNull();
  });

  it("refuses a key once its revoke has returned, whichever way a lookup raced the revoke", async () => {
    const inner = createMemoryApiKeyStore();
    const slow = held(inner);
    const keys = cachedApiKeys(slow.store, { ttlMs: 60_000 });

    // Read valid before the revoke, answered after it: its answer is not kept.
    const first = await inner.create({ tenant: "acme", role: "write" });
    slow.gates.verify = true;
    const before = keys.verify(first.key);
    await new Promise((resolve) => setImmediate(resolve));
    slow.gates.verify = false;
    expect(await keys.revoke(first.record.keyId)).toBe(true);
    // Asked after the revoke returned, while that lookup is still out: not answered by it.
    const after = keys.verify(first.key);
    slow.release();
    await before;
    expect(await after).toBeNull();
    expect(await keys.verify(first.key)).toBeNull();

    // Asked while the store is revoking, and answered valid before the revoke lands: not kept past it.
    const second = await inner.create({ tenant: "acme", role: "write" });
    slow.gates.revoke = true;
    const revoking = keys.revoke(second.record.keyId);
    expect(await keys.verify(second.key)).not.toBeNull();
    slow.release();
    expect(await revoking).toBe(true);
    expect(await keys.verify(second.key)).toBeNull();
  });
});
