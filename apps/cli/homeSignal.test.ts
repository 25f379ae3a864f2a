// SIGTERM (a CI cancel) or Ctrl-C to a command holding an embedded home: node's default ended it
// at once and left VERDICT_HOME/verdict.pid behind, which a later command in another container
// (another pid namespace) never takes over. Now the home is released and the exit is 128+n.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { example, plainNodeEnv } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-home-signal-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `verdict ARGS` signalled as soon as it holds its home: its exit code, and whether the lock is left. */
async function signalledHolding(signal: NodeJS.Signals, home: string, argv: string[]): Promise<{ status: number | null; lockLeft: boolean }> {
  const env = plainNodeEnv({ VERDICT_HOME: home });
  const child = spawn(process.execPath, ["scripts/verdict.mjs", ...argv], { cwd: ROOT, env, stdio: "ignore" });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const lock = join(home, "verdict.pid");
  while (!existsSync(lock) && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 10));
  child.kill(signal);
  const status = await exited;
  return { status, lockLeft: existsSync(lock) };
}

it("releases the home and exits 128+n on SIGTERM and SIGINT", async () => {
  const catalog = example("catalog.yaml");
  expect(await signalledHolding("SIGTERM", join(dir, "a"), ["catalogs", "import", catalog])).toEqual({ status: 143, lockLeft: false });
  expect(await signalledHolding("SIGINT", join(dir, "b"), ["catalogs", "import", catalog])).toEqual({ status: 130, lockLeft: false });
}, 120_000);
