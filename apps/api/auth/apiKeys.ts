// API keys: a random secret shown once, stored only as its SHA-256 hash, bound to one tenant and
// one role. `verify` answers the principal a presented key stands for, or null.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { DomainError, ID_PATTERN, ID_RULE } from "@verdict/domain";

export type ApiRole = "read" | "write";

export interface ApiPrincipal {
  keyId: string;
  tenant: string;
  role: ApiRole;
}

export interface ApiKeyRecord extends ApiPrincipal {
  name: string;
  /** Lowercase hex SHA-256 of the whole key. */
  hash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A key as `verdict keys list` shows it: never the key, nor its hash. */
export type ApiKeyListing = Omit<ApiKeyRecord, "hash">;

export interface CreatedApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  record: ApiKeyRecord;
}

export interface ApiKeyStore {
  create(input: NewApiKey): Promise<CreatedApiKey>;
  verify(key: string): Promise<ApiPrincipal | null>;
  revoke(keyId: string): Promise<boolean>;
  /** Every key, revoked ones included, oldest first. */
  list(): Promise<ApiKeyListing[]>;
  close(): Promise<void>;
}

export const newApiKey = z.object({
  tenant: z.string().regex(ID_PATTERN, `must be ${ID_RULE}`),
  role: z.enum(["read", "write"], { error: "must be read or write" }),
  name: z.string().max(200).default(""),
});
export type NewApiKey = z.input<typeof newApiKey>;

const KEY_SHAPE = /^vk_([0-9a-f]{12})_([A-Za-z0-9_-]{32,})$/;

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A fresh key `vk_<id>_<secret>` and the record that stores its hash. */
export function mintApiKey(input: NewApiKey, now: Date): CreatedApiKey {
  const parsed = newApiKey.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw DomainError.validation(`${issue.path.join(".")} ${issue.message}`, issue.path.join("."));
  }
  const keyId = randomBytes(6).toString("hex");
  const key = `vk_${keyId}_${randomBytes(24).toString("base64url")}`;
  return { key, record: { keyId, ...parsed.data, hash: hashApiKey(key), createdAt: now, revokedAt: null } };
}

/** The key id a presented key claims, or null when it is not shaped like one of ours. */
export function keyIdOf(key: string): string | null {
  return KEY_SHAPE.exec(key)?.[1] ?? null;
}

/** A record without its hash. */
export function listingOf({ hash: _hash, ...listing }: ApiKeyRecord): ApiKeyListing {
  return listing;
}

export function hashesMatch(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

export function createMemoryApiKeyStore(clock: { now(): Date } = { now: () => new Date() }): ApiKeyStore & { records(): ApiKeyRecord[] } {
  const byId = new Map<string, ApiKeyRecord>();
  return {
    async create(input) {
      const created = mintApiKey(input, clock.now());
      byId.set(created.record.keyId, created.record);
      return created;
    },
    async verify(key) {
      const keyId = keyIdOf(key);
      const record = keyId ? byId.get(keyId) : undefined;
      if (!record || record.revokedAt || !hashesMatch(record.hash, hashApiKey(key))) return null;
      return { keyId: record.keyId, tenant: record.tenant, role: record.role };
    },
    async revoke(keyId) {
      const record = byId.get(keyId);
      if (!record || record.revokedAt) return false;
      record.revokedAt = clock.now();
      return true;
    },
    async list() {
      return [...byId.values()].map(listingOf);
    },
    async close() {},
    records: () => [...byId.values()],
  };
}
