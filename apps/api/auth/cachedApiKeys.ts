// The API server's view of an ApiKeyStore: a key verified in the last `ttlMs` is answered from
// memory. Every HTTP request is authenticated, and asking the store each time cost a database
// round trip (PostgreSQL, through a pool of 4 shared by 20 concurrent clients) or a stat of the
// keys file (embedded) per request; a kept `run` answer is otherwise a Map lookup.
//
// Revocation: a key revoked through this store is refused at once (its entry is dropped before the
// store is asked). A key revoked by another process (the CLI, another API instance) is refused
// once its entry is older than `ttlMs` (default 1 s), when the store is asked again. Unknown and
// revoked keys are never kept: each attempt asks the store, so a key created elsewhere works at once.
// Entries are found by the key's SHA-256, so no secret is held after its request.
import type { ApiKeyStore, ApiPrincipal } from "./apiKeys.js";
import { hashApiKey } from "./apiKeys.js";

interface CachedApiKeysOptions {
  /** How long a successful verification is trusted (default 1000 ms). */
  ttlMs?: number;
  /** Most keys remembered (default 10,000); the oldest verified go first. */
  maxEntries?: number;
  /** Milliseconds, monotonic (default performance.now). */
  now?: () => number;
}

interface Entry {
  principal: ApiPrincipal;
  verifiedAt: number;
}

export const DEFAULT_KEY_TTL_MS = 1000;

export function cachedApiKeys(store: ApiKeyStore, options: CachedApiKeysOptions = {}): ApiKeyStore {
  const ttlMs = options.ttlMs ?? DEFAULT_KEY_TTL_MS;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? (() => performance.now());
  const entries = new Map<string, Entry>(); // key hash -> principal, oldest verified first
  // One store lookup per key at a time: 20 requests arriving after an entry expired share it.
  const pending = new Map<string, { generation: number; answer: Promise<ApiPrincipal | null> }>();
  // Bumped by every revoke, so a lookup that started before it cannot put its answer back.
  let revocations = 0;

  function remember(hash: string, principal: ApiPrincipal, verifiedAt: number): void {
    entries.delete(hash);
    entries.set(hash, { principal, verifiedAt });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
  }

  function forget(keyId: string): void {
    revocations++;
    for (const [hash, entry] of entries) if (entry.principal.keyId === keyId) entries.delete(hash);
  }

  function lookUp(key: string, hash: string): Promise<ApiPrincipal | null> {
    const generation = revocations;
    const inFlight = pending.get(hash);
    if (inFlight?.generation === generation) return inFlight.answer; // not one that began before a revoke
    const startedAt = now();
    const answer = store.verify(key).then((principal) => {
      if (principal && generation === revocations) remember(hash, principal, startedAt);
      return principal;
    }).finally(() => {
      if (pending.get(hash)?.answer === answer) pending.delete(hash);
    });
    pending.set(hash, { generation, answer });
    return answer;
  }

  return {
    create: (input) => store.create(input),
    async verify(key) {
      const hash = hashApiKey(key);
      const entry = entries.get(hash);
      if (entry && now() - entry.verifiedAt < ttlMs) return entry.principal;
      return lookUp(key, hash);
    },
    async revoke(keyId) {
      forget(keyId);
      try {
        return await store.revoke(keyId);
      } finally {
        forget(keyId); // again: a lookup that ran while the store was revoking saw the key valid
      }
    },
    list: () => store.list(),
    close: () => store.close(),
  };
}
