// `verdict keys create` and `keys revoke` run in parallel on one embedded home, as separate
// processes (the bug was across processes): each read api-keys.json, added its change and renamed
// its copy into place, so 3 of 8 printed keys were not kept (the API refused them) and a revoke
// that said "revoked key …" was written over by a create, leaving the key valid.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileApiKeyStore } from "./fileApiKeyStore.js";
import { CliError } from "./errors.js";
import { plainNodeEnv } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CREATES = 8;

let home = "";
let cliBundle = "";
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "verdict-keys-parallel-"));
  // The CLI as scripts/verdict.mjs runs it, bundled once: nine processes each bundling it took 20 s.
  const { bundle } = (await import("../../scripts/bundle.mjs")) as typeof import("../../scripts/bundle.mjs");
  cliBundle = await bundle("apps/cli/main.ts", ".build/test/keysParallel/verdict.mjs");
}, 60_000);
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

/** The bundled `verdict …` as its own process on `home`, without vitest's environment. */
async function verdict(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = plainNodeEnv({ VERDICT_HOME: home });
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliBundle, ...argv], { cwd: ROOT, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout: string; stderr: string };
    return { code: failed.code ?? -1, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("keys create and keys revoke in parallel processes on one home", () => {
  it("keeps every printed key, and a revoke raced with the creates holds", async () => {
    const store = createFileApiKeyStore(join(home, "api-keys.json"));
    const doomed = await store.create({ tenant: "demo", role: "write", name: "doomed" });
    const runs = await Promise.all([
      ...Array.from({ length: CREATES }, (_, i) => verdict(["keys", "create", "--tenant", "demo", "--role", "write", "--name", `k${i}`])),
      verdict(["keys", "revoke", doomed.record.keyId]),
    ]);
    expect(runs.map((run) => run.code)).toEqual(runs.map(() => 0));
    expect(runs.at(-1)?.stderr).toContain(`revoked key ${doomed.record.keyId}`);
    const printed = runs.slice(0, CREATES).map((run) => run.stdout.trim());
    for (const key of printed) expect(await store.verify(key)).toMatchObject({ tenant: "demo", role: "write" });
    expect(await store.verify(doomed.key)).toBeNull();
    const listed = await store.list();
    expect(listed.map((key) => key.name).sort()).toEqual(["doomed", ...printed.map((_, i) => `k${i}`)].sort());
    expect(listed.find((key) => key.name === "doomed")?.revokedAt).toBeInstanceOf(Date);
  }, 90_000);
});

describe("a keys command that cannot have the lock in time", () => {
  it("fails with exit 2, naming the lock and what to do, and changes nothing", async () => {
    const path = join(home, "held", "api-keys.json");
    const store = createFileApiKeyStore(path, undefined, undefined, { waitMs: 200 });
    const { record } = await store.create({ tenant: "demo", role: "read" });
    // This (live) process stands for another keys command holding the lock.
    await writeFile(`${path}.lock`, `${process.pid} - - - held\n`);
    for (const attempt of [() => store.create({ tenant: "demo", role: "read" }), () => store.revoke(record.keyId)]) {
      const error = await attempt().catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
      expect((error as CliError).message).toBe(
        `${path}: not changed: ${path}.lock was held by pid ${process.pid} for 0.2 s (another \`verdict keys\` command changing the keys). ` +
          `Try again; if no verdict keys command is running, delete ${path}.lock.`,
      );
    }
    expect((await store.list()).map((key) => [key.keyId, key.revokedAt])).toEqual([[record.keyId, null]]);
  });
});
