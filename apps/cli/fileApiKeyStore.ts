// API keys of the embedded default, in `<VERDICT_HOME>/api-keys.json`: only each key's SHA-256
// hash is stored, as apps/api does in PostgreSQL. A file (not the embedded read database) so
// `verdict keys create` works while `verdict start` holds the PGlite database: the running
// API re-reads the file when it changes.
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { hashApiKey, keyIdOf, mintApiKey, type ApiKeyRecord, type ApiKeyStore } from "@verdict/api";
import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { CliError } from "./errors.js";

interface StoredKey extends Omit<ApiKeyRecord, "createdAt" | "revokedAt"> {
  createdAt: string;
  revokedAt: string | null;
}

const storedKeys = z.object({
  keys: z.array(z.object({
    keyId: z.string(),
    tenant: z.string(),
    role: z.enum(["read", "write"]),
    name: z.string(),
    hash: z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 in hex"),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
  })),
});

/**
 * The file's keys, or an error naming the file and what is wrong in it: a damaged file gave
 * JSON.parse's "Unexpected token" or "keys is not iterable", naming nothing.
 */
function parseKeysFile(path: string, text: string): StoredKey[] {
  const damaged = (what: string) =>
    new CliError(`${path}: ${what}; fix the file, or move it aside to start with no keys (every key in it stops working)`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw damaged(`not JSON (${(error as Error).message})`);
  }
  const parsed = storedKeys.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw damaged(`${issue.path.length ? issue.path.join(".") : "the file"}: ${issue.message} (expected { "keys": [...] } as verdict keys create writes it)`);
  }
  return parsed.data.keys;
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * `onDirectoryCreated`: called when the first save made the folder the file goes in (a mistyped
 * VERDICT_HOME is then said, not silently made a new home).
 */
export function createFileApiKeyStore(
  path: string,
  clock: { now(): Date } = { now: () => new Date() },
  onDirectoryCreated?: () => void,
): ApiKeyStore {
  // Each save renames a new file into place, so (inode, mtime) changes with every write.
  let cache: { version: string; keys: StoredKey[] } | null = null;

  async function load(): Promise<StoredKey[]> {
    let version: string;
    try {
      const info = await stat(path);
      version = `${info.ino}:${info.mtimeMs}`;
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return [];
      throw error;
    }
    if (cache?.version === version) return cache.keys;
    const keys = parseKeysFile(path, await readFile(path, "utf8"));
    cache = { version, keys };
    return keys;
  }

  async function save(keys: StoredKey[]): Promise<void> {
    // Written aside then renamed, so a reader never sees half a file.
    const temporary = `${path}.${process.pid}.tmp`;
    if ((await mkdir(dirname(path), { recursive: true })) !== undefined) onDirectoryCreated?.();
    await writeFile(temporary, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
    cache = null;
  }

  return {
    async create(input) {
      const created = mintApiKey(input, clock.now());
      const r = created.record;
      await save([...(await load()), { ...r, createdAt: r.createdAt.toISOString(), revokedAt: null }]);
      return created;
    },
    async verify(key) {
      const keyId = keyIdOf(key);
      if (!keyId) return null;
      const found = (await load()).find((k) => k.keyId === keyId && !k.revokedAt);
      if (!found || !sameHash(found.hash, hashApiKey(key))) return null;
      return { keyId, tenant: found.tenant, role: found.role };
    },
    async revoke(keyId) {
      const keys = await load();
      const found = keys.find((k) => k.keyId === keyId && !k.revokedAt);
      if (!found) return false;
      await save(keys.map((k) => (k === found ? { ...k, revokedAt: clock.now().toISOString() } : k)));
      return true;
    },
    async list() {
      return (await load()).map(({ hash: _hash, ...k }) => ({ ...k, createdAt: new Date(k.createdAt), revokedAt: k.revokedAt ? new Date(k.revokedAt) : null }));
    },
    async close() {},
  };
}
