// API keys in the read database (table `api_keys`): only the hash is stored. Lookups go by the
// key id embedded in the key, then the hash is compared in constant time.
import { createPgPool } from "@verdict/infra/pg";
import { hashApiKey, hashesMatch, keyIdOf, mintApiKey, type ApiKeyStore, type ApiRole } from "./apiKeys.js";

export const API_KEYS_DDL = `CREATE TABLE IF NOT EXISTS api_keys (
  id text PRIMARY KEY,
  tenant text NOT NULL,
  role text NOT NULL CHECK (role IN ('read', 'write')),
  name text NOT NULL DEFAULT '',
  hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
)`;

export interface PostgresApiKeyStoreOptions {
  /** A PostgreSQL URL (the read database). */
  url: string;
  /** Connections (1 on embedded PGlite). */
  poolSize?: number;
  clock?: { now(): Date };
}

export async function createPostgresApiKeyStore(options: PostgresApiKeyStoreOptions): Promise<ApiKeyStore> {
  const pool = createPgPool({ connectionString: options.url, max: options.poolSize ?? 4 });
  const clock = options.clock ?? { now: () => new Date() };
  try {
    await pool.query(API_KEYS_DDL);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    async create(input) {
      const created = mintApiKey(input, clock.now());
      const r = created.record;
      await pool.query("INSERT INTO api_keys (id, tenant, role, name, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)", [
        r.keyId, r.tenant, r.role, r.name, r.hash, r.createdAt,
      ]);
      return created;
    },
    async verify(key) {
      const keyId = keyIdOf(key);
      if (!keyId) return null;
      const { rows } = await pool.query<{ tenant: string; role: ApiRole; hash: string }>(
        "SELECT tenant, role, hash FROM api_keys WHERE id = $1 AND revoked_at IS NULL",
        [keyId],
      );
      const row = rows[0];
      if (!row || !hashesMatch(row.hash, hashApiKey(key))) return null;
      return { keyId, tenant: row.tenant, role: row.role };
    },
    async revoke(keyId) {
      const { rowCount } = await pool.query("UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL", [keyId, clock.now()]);
      return (rowCount ?? 0) > 0;
    },
    async list() {
      const { rows } = await pool.query<{ id: string; tenant: string; role: ApiRole; name: string; created_at: Date; revoked_at: Date | null }>(
        'SELECT id, tenant, role, name, created_at, revoked_at FROM api_keys ORDER BY created_at, id COLLATE "C"',
      );
      return rows.map((r) => ({ keyId: r.id, tenant: r.tenant, role: r.role, name: r.name, createdAt: r.created_at, revokedAt: r.revoked_at }));
    },
    async close() {
      await pool.end();
    },
  };
}
