// `verdict start --exit | head`: the reader leaves mid-run. The start exited 0 at once, so a
// pipeline saw success; now it stops as Ctrl-C stops it, exit 1, saying why on stderr, and the
// next start finishes the run.
import { afterAll, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NPM_START = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start.split(" ").slice(1);

let home = "";
afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

it("stops with exit 1, not 0, when its output's reader goes away mid-run", async () => {
  home = await mkdtemp(join(tmpdir(), "verdict-pipe-"));
  const env: NodeJS.ProcessEnv = { ...process.env, VERDICT_HOME: home, PORT: "0" };
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH") delete env[name];
  for (const name of ["DATABASE_URL", "VERDICT_READ_DATABASE_URL", "KAFKA_BROKERS"]) delete env[name];
  const child = spawn(process.execPath, [...NPM_START, "--exit"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  // As `| head -1` does: the first line read, then the pipe closed.
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  child.stdout.destroy();
  expect(await exited, stderr).toBe(1);
  // What it says of the stop went to the closed stdout: stderr was empty.
  expect(stderr).toContain("verdict start: stdout was closed (its reader is gone): stopping as Ctrl-C stops it\n");
}, 120_000);
