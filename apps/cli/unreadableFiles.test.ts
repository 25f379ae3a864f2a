// A file a command cannot read (no permission, a directory) is refused as bad input, exit 2, in
// the same words whichever flag or command named it. A catalog said
// `verdict catalogs import failed: EACCES: permission denied, open '…'`, exit 1. Tests run as
// root, whom permissions do not stop: opening a `denied.*` file fails as it would for a user.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cli, example, exampleRun } from "./testing.js";

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const openSync: typeof fs.openSync = (path, ...rest) => {
    if (String(path).includes("denied.")) throw Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), { code: "EACCES" });
    return fs.openSync(path, ...rest);
  };
  return { ...fs, default: { ...fs, openSync }, openSync };
});

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-unreadable-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a file a command cannot read", () => {
  it("is refused naming it and the reason, exit 2, by catalogs import, run --catalog, --tools and evals import", async () => {
    const catalog = join(dir, "denied.yaml");
    await writeFile(catalog, "catalog: c\n");
    const env = { VERDICT_HOME: join(dir, "home") };
    const reason = "cannot be read (EACCES: permission denied)";
    for (const argv of [["catalogs", "import", catalog], ["catalogs", "import", "--preview", catalog]]) {
      expect(await cli(argv, env), argv.join(" ")).toEqual({ code: 2, stdout: "", stderr: `${catalog}: ${reason}` });
    }
    const run = await cli(exampleRun().map((arg) => (arg === example("catalog.yaml") ? catalog : arg)));
    expect(run).toMatchObject({ code: 2, stderr: `${catalog}: ${reason}` });
    const tools = await cli(exampleRun("--tools", catalog));
    expect(tools).toMatchObject({ code: 2, stderr: `verdict run: --tools ${catalog}: ${reason}` });
    const envelope = join(dir, "denied.json");
    await writeFile(envelope, "{}");
    expect(await cli(["evals", "import", envelope, "--evaluation", "e1"], env)).toMatchObject({ code: 2, stderr: `${envelope}: ${reason}` });
  }, 60_000);

  it("is refused unopened when it is a named pipe (opening one waited for a writer forever), by every command that reads a file", async () => {
    const fifo = join(dir, "pipe.yaml");
    execFileSync("mkfifo", [fifo]);
    const env = { VERDICT_HOME: join(dir, "home") };
    for (const argv of [["catalogs", "import", fifo], ["catalogs", "import", "--preview", fifo]]) {
      expect(await cli(argv, env), argv.join(" ")).toEqual({ code: 2, stdout: "", stderr: `${fifo}: not a regular file` });
    }
    expect(await cli(exampleRun().map((arg) => (arg === example("catalog.yaml") ? fifo : arg)))).toMatchObject({ code: 2, stderr: `${fifo}: not a regular file` });
    expect(await cli(exampleRun("--tools", fifo))).toMatchObject({ code: 2, stderr: `verdict run: --tools ${fifo}: not a regular file` });
    const agent = await cli(exampleRun().map((arg) => (arg === `scripted:${example("agent.yaml")}` ? `scripted:${fifo}` : arg)));
    expect(agent).toMatchObject({ code: 2, stderr: expect.stringContaining(`agent script: ${fifo} is not a regular file`) });
    expect(await cli(["evals", "import", fifo, "--evaluation", "e1"], env)).toMatchObject({ code: 2, stderr: `${fifo}: not a regular file` });
  }, 60_000);
});
