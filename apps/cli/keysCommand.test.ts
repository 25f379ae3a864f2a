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

describe("keys create on a home that does not exist", () => {
  it("says it created the home (a mistyped VERDICT_HOME is seen), and says nothing the second time", async () => {
    const typo = join(home, "typo", "home");
    const first = await cli(["keys", "create", "--tenant", "acme", "--role", "read"], { VERDICT_HOME: typo });
    expect(first.code).toBe(0);
    expect(first.stderr.startsWith(`verdict keys create: VERDICT_HOME ${typo} did not exist: created a new, empty home`)).toBe(true);
    const again = await cli(["keys", "create", "--tenant", "acme", "--role", "read"], { VERDICT_HOME: typo });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain("did not exist");
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
    const rule = 'must be 1-100 ASCII letters (a-z, A-Z), digits, "_" or "-", starting with a letter or digit, without "--"';
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

describe("a whole key given to a keys command", () => {
  it("is never echoed: keys revoke takes it for its id when it is a valid key, the other commands refuse it", async () => {
    const own = await mkdtemp(join(tmpdir(), "verdict-keys-"));
    const env = { VERDICT_HOME: own };
    try {
      const key = (await cli(["keys", "create", "--tenant", "acme", "--role", "read", "--name", "ci"], env)).stdout.trim();
      const keyId = key.split("_")[1];
      const secret = key.slice(16);
      const quiet = (result: { stdout: string; stderr: string }) => expect(result.stdout + result.stderr).not.toContain(secret.slice(0, 8));
      const passTheId = "pass its id, as `verdict keys list` shows it";

      // A valid key whose secret does not match, and one cut short: refused, not echoed.
      for (const wrong of [`vk_${keyId}_${"A".repeat(32)}`, key.slice(0, 24), `vk_0123456789ab_${secret}`]) {
        const refused = await cli(["keys", "revoke", wrong], env);
        expect(refused).toEqual({
          code: 2, stdout: "",
          stderr: `verdict keys revoke: a whole API key was given, not its id, and it is no valid key here (unknown, revoked already, or its secret does not match) (value not shown); ${passTheId}`,
        });
        quiet(refused);
      }
      // Anywhere else, in any keys command: refused before any message could quote it.
      // Beside other arguments, revoke says to pass it alone (it said keys are never arguments).
      for (const argv of [["keys", "revoke", keyId, key], ["keys", "revoke", key, "--tenant", "acme"], ["keys", "revoke", "--tenant", "acme", key]]) {
        const refused = await cli(argv, env);
        expect(refused, argv.join(" ")).toEqual({
          code: 2, stdout: "",
          stderr: "verdict keys revoke: a whole API key was given with other arguments (values not shown): pass the key, or its id, alone (keys revoke takes no flags)",
        });
      }
      for (const argv of [["keys", "list", "--tenant", key], ["keys", "create", "--tenant", key, "--role", "read"], ["keys", "create", "--tenant", "acme", "--role", "read", `--name=${key}`], ["keys", "create", "--tenant", "acme", "--role", key]]) {
        const refused = await cli(argv, env);
        expect(refused, argv.join(" ")).toMatchObject({ code: 2, stdout: "" });
        expect(refused.stderr).toBe(`verdict ${argv.slice(0, 2).join(" ")}: an argument is a whole API key (value not shown): a key is a secret, never an argument; to name a key, ${passTheId}`);
        quiet(refused);
      }
      expect((await cli(["keys", "list"], env)).stdout.trim().split("\n")).toHaveLength(2); // nothing created

      const revoked = await cli(["keys", "revoke", key], env);
      expect(revoked).toEqual({ code: 0, stdout: "", stderr: `revoked key ${keyId} (tenant acme, read, "ci")` });
      expect(await createFileApiKeyStore(join(own, "api-keys.json")).verify(key)).toBeNull();
      quiet(await cli(["keys", "revoke", key], env));
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});
