// `verdict keys list` and `keys revoke` on the embedded default: a user sees which keys exist (never
// a key or its hash) and can revoke one, which the API then refuses.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileApiKeyStore } from "./fileApiKeyStore.js";
import { cli } from "./testing.js";

let home = "";
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "verdict-keys-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("keys create", () => {
  it("says where the key is kept, so a key the API does not read is not a mystery", async () => {
    const own = await mkdtemp(join(tmpdir(), "verdict-keys-"));
    try {
      const result = await cli(["keys", "create", "--tenant", "acme", "--role", "read"], { VERDICT_HOME: own });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`kept in ${join(own, "api-keys.json")}; shown once`);
      expect(result.stdout.trim()).toMatch(/^vk_/);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});

describe("a damaged api-keys.json", () => {
  it("is named, with what is wrong in it, by every keys command", async () => {
    const damaged = await mkdtemp(join(tmpdir(), "verdict-keys-"));
    const env = { VERDICT_HOME: damaged };
    const path = join(damaged, "api-keys.json");
    const advice = "; fix the file, or move it aside to start with no keys (every key in it stops working)";
    try {
      const refusal = async (content: string, argv: string[]) => {
        await writeFile(path, content);
        const result = await cli(argv, env);
        expect(result, content).toMatchObject({ code: 2, stdout: "" });
        expect(result.stderr.startsWith(`${path}: `) && result.stderr.endsWith(advice), result.stderr).toBe(true);
        return result.stderr.slice(path.length, -advice.length);
      };
      expect(await refusal('{"keys": [', ["keys", "list"])).toMatch(/: not JSON \(.+\)$/);
      expect(await refusal('{"keys": {}}', ["keys", "create", "--tenant", "acme", "--role", "read"])).toMatch(/: keys: .+ \(expected \{ "keys": \[\.\.\.\] \} as verdict keys create writes it\)$/);
      expect(await refusal('{"keys": [{"keyId": "0123456789ab", "tenant": "acme", "role": "admin"}]}', ["keys", "revoke", "0123456789ab"])).toMatch(/: keys\.0\.role: /);
    } finally {
      await rm(damaged, { recursive: true, force: true });
    }
  });
});

describe("verdict keys create --tenant", () => {
  it("refuses a tenant id naming the flag and every rule: the length and no \"--\"", async () => {
    const rule = 'must be 1-100 letters, digits, "_" or "-", starting with a letter or digit, without "--"';
    expect(await cli(["keys", "create", "--tenant", "a--b", "--role", "read"], { VERDICT_HOME: home })).toEqual({
      code: 2, stdout: "", stderr: `verdict keys create: --tenant ${rule} (got "a--b", 4 characters)`,
    });
    const long = "t".repeat(150);
    expect(await cli(["keys", "create", "--tenant", long, "--role", "read"], { VERDICT_HOME: home })).toMatchObject({
      code: 2, stderr: `verdict keys create: --tenant ${rule} (got "${"t".repeat(100)}…", 150 characters)`,
    });
    // The commands that take VERDICT_TENANT name it when it is where the tenant came from.
    expect(await cli(["catalogs", "export", "support"], { VERDICT_HOME: home, VERDICT_TENANT: "a--b" })).toMatchObject({
      code: 2, stderr: `VERDICT_TENANT ${rule} (got "a--b", 4 characters)`,
    });
  });
});

describe("verdict keys list / revoke", () => {
  it("lists keys without their secrets, revokes one by id, and the API refuses it", async () => {
    const env = { VERDICT_HOME: home };
    expect(await cli(["keys", "list"], env)).toEqual({ code: 0, stdout: "", stderr: "no API keys (create one with `verdict keys create`)" });
    const ci = await cli(["keys", "create", "--tenant", "acme", "--role", "write", "--name", "ci"], env);
    const other = await cli(["keys", "create", "--tenant", "globex", "--role", "read"], env);
    const [ciKey, otherKey] = [ci.stdout.trim(), other.stdout.trim()];
    const ciId = ciKey.split("_")[1];

    const listed = await cli(["keys", "list"], env);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split("\n");
    expect(lines[0].split(/\s+/)).toEqual(["ID", "TENANT", "ROLE", "NAME", "CREATED", "REVOKED"]);
    expect(lines[1]).toMatch(new RegExp(`^${ciId}  acme    write  ci    \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  -$`));
    expect(lines[2]).toMatch(new RegExp(`^[0-9a-f]{12}  globex  read   -     \\S+Z  -$`));
    const stored = JSON.parse(await readFile(join(home, "api-keys.json"), "utf8")) as { keys: Array<{ hash: string }> };
    for (const secret of [ciKey, otherKey, ...stored.keys.map((k) => k.hash)]) expect(listed.stdout).not.toContain(secret.slice(16));
    expect((await cli(["keys", "list", "--tenant", "globex"], env)).stdout.trim().split("\n")).toHaveLength(2);

    expect(await cli(["keys", "revoke", ciId], env)).toEqual({ code: 0, stdout: "", stderr: `revoked key ${ciId} (tenant acme, write, "ci")` });
    expect(await createFileApiKeyStore(join(home, "api-keys.json")).verify(ciKey)).toBeNull();
    expect((await cli(["keys", "list", "--tenant", "acme"], env)).stdout).toMatch(/write {2}ci {4}\S+Z {2}\d{4}-\S+Z\n?$/);
    expect(await cli(["keys", "revoke", ciId], env)).toEqual({ code: 0, stdout: "", stderr: `key ${ciId} was already revoked: nothing changed` });
    expect(await cli(["keys", "revoke", "0123456789ab"], env)).toEqual({ code: 2, stdout: "", stderr: 'verdict keys revoke: no API key "0123456789ab" (`verdict keys list` shows the ids)' });
    expect(await cli(["keys", "revoke"], env)).toMatchObject({ code: 2, stderr: "verdict keys revoke: missing ID (a key id, as `verdict keys list` shows it)" });
  });
});
