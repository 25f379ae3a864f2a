// `verdict keys create | true` or `> /dev/full`: the key is never delivered. It exited 0 (or 1
// without a word of the key) and the key stayed active, held by no one; now the key is revoked
// and the command fails saying so.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "./cli.js";
import { bufferIo } from "./io.js";
import { cli } from "./testing.js";

let home = "";
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "verdict-keys-lost-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

it("revokes a key its stdout could not take and exits 1 naming it", async () => {
  const env = { VERDICT_HOME: home };
  for (const code of ["EPIPE", "ENOSPC"]) {
    const io = bufferIo();
    io.write = () => Promise.reject(Object.assign(new Error(`${code}: the write failed, write`), { code }));
    const exit = await runCli(["keys", "create", "--tenant", "acme", "--role", "read"], io, env);
    const said = io.stderr.join("\n");
    expect(exit, said).toBe(1);
    const keyId = /key (\S+) for tenant acme/.exec(said)?.[1] ?? "";
    expect(said).toContain(`verdict keys create: stdout: could not write the key (${code}: the write failed); key ${keyId} revoked, as no one holds it`);
    const listed = await cli(["keys", "list"], env);
    expect(listed.stdout).toMatch(new RegExp(`${keyId} .*Z {2}\\d{4}-\\S+Z`));
  }
});
