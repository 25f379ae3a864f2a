// API keys of the embedded default, in `<VERDICT_HOME>/api-keys.json`: only each key's SHA-256
// hash is stored, as apps/api does in PostgreSQL. A file (not the embedded read database) so
// `verdict keys create` works while `verdict start` holds the PGlite database: the running
// API re-reads the file when it changes. Each create or revoke reads and rewrites the file
// holding `api-keys.json.lock` (infra/db/fileLock.ts): parallel `verdict keys` commands each
// rewrote the file from what they had read, and all but the last one's change were lost while
// every one of them said it was done. Readers take no lock: every write is a rename of a whole file.
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { FileLockTimeoutError, withFileLock, type FileLockOptions } from "@verdict/infra/db";
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

/** The lock could not be had in time: exit 2, naming the lock and what to do, rather than lose the change. */
function lockRefusal(path: string, error: FileLockTimeoutError): CliError {
  const holder = error.holder ?? "another process";
  return new CliError(
    `${path}: not changed: ${error.lockPath} was held by ${holder} for ${error.waitedMs / 1000} s (another \`verdict keys\` command changing the keys). ` +
      `Try again; if no verdict keys command is running, delete ${error.lockPath}.`,
  );
}

/**
 * `onDirectoryCreated`: called when the first save made the folder the file goes in (a mistyped
 * VERDICT_HOME is then said, not silently made a new home). `lock`: the lock's wait and stale
 * bounds (tests shorten them).
 */
export function createFileApiKeyStore(
  path: string,
  clock: { now(): Date } = { now: () => new Date() },
  onDirectoryCreated?: () => void,
  lock: FileLockOptions = {},
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
    await writeFile(temporary, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
    cache = null;
  }

  /**
   * Reads the keys and saves what `edit` makes of them (null: nothing to save), holding the lock:
   * the read is inside it, and not from the cache, so no other writer's change is written over.
   */
  async function change<T>(edit: (keys: StoredKey[]) => { keys: StoredKey[] | null; result: T }): Promise<T> {
    if ((await mkdir(dirname(path), { recursive: true })) !== undefined) onDirectoryCreated?.();
    try {
      return await withFileLock(`${path}.lock`, async () => {
        cache = null;
        const edited = edit(await load());
        if (edited.keys !== null) await save(edited.keys);
        return edited.result;
      }, lock);
    } catch (error) {
      throw error instanceof FileLockTimeoutError ? lockRefusal(path, error) : error;
    }
  }

  return {
    async create(input) {
      const created = mintApiKey(input, clock.now());
      const r = created.record;
      return change((keys) => ({ keys: [...keys, { ...r, createdAt: r.createdAt.toISOString(), revokedAt: null }], result: created }));
    },
    async verify(key) {
      const keyId = keyIdOf(key);
      if (!keyId) return null;
      const found = (await load()).find((k) => k.keyId === keyId && !k.revokedAt);
      if (!found || !sameHash(found.hash, hashApiKey(key))) return null;
      return { keyId, tenant: found.tenant, role: found.role };
    },
    async revoke(keyId) {
      return change((keys) => {
        const found = keys.find((k) => k.keyId === keyId && !k.revokedAt);
        if (!found) return { keys: null, result: false };
        return { keys: keys.map((k) => (k === found ? { ...k, revokedAt: clock.now().toISOString() } : k)), result: true };
      });
    },
    async list() {
      return (await load()).map(({ hash: _hash, ...k }) => ({ ...k, createdAt: new Date(k.createdAt), revokedAt: k.revokedAt ? new Date(k.revokedAt) : null }));
    },
    async close() {},
  };
}
