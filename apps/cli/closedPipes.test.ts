// The CLI in shell pipelines whose reader leaves early: `verdict run --gate 0.99 | head -1` exited
// 0 with no gate line (main.ts ended the process at the EPIPE, before the gate was looked at);
// `verdict run 2>&1 | head -1` died of an uncaught EPIPE from a progress line, its --out never
// written; `verdict keys create | true` exited 0, a live key delivered to no one. The real
// process: the pipes and their errors are node's.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cli, exampleRun, plainNodeEnv } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-closed-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The CLI with one of its output pipes closed by the reader before it writes anything. */
async function closing(stream: "stdout" | "stderr", argv: string[]): Promise<{ status: number | null; said: string }> {
  const env = plainNodeEnv({ VERDICT_HOME: join(dir, "home") });
  const child = spawn(process.execPath, ["scripts/verdict.mjs", ...argv], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  child[stream].destroy();
  let said = "";
  (stream === "stdout" ? child.stderr : child.stdout).on("data", (chunk) => (said += chunk));
  const status = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { status, said };
}

it("still judges the gate of a run whose report's reader left", async () => {
  const { status, said } = await closing("stdout", exampleRun("--gate", "0.99"));
  expect(said).toContain("verdict run: stdout: its reader closed before the whole report was written\n");
  expect(said).toMatch(/gate failed: pass rate 70\.0% \(7\/10\) is below 99\.0%/);
  expect(status).toBe(1);
  const met = await closing("stdout", exampleRun("--gate", "0.5"));
  expect(met.said).toMatch(/pass rate 70\.0%/);
  expect(met.status).toBe(0);
}, 120_000);

it("finishes a run and writes its --out when its stderr's reader left", async () => {
  const out = join(dir, "report.md");
  const { status } = await closing("stderr", [...exampleRun("--out", out).filter((arg) => arg !== "--quiet")]);
  expect(existsSync(out)).toBe(true);
  expect(status).toBe(0);
}, 90_000);

it("revokes a created key when stdout's reader left without it", async () => {
  const { status, said } = await closing("stdout", ["keys", "create", "--tenant", "acme", "--role", "read"]);
  expect(said).toMatch(/could not write the key \(write EPIPE\); key \S+ revoked, as no one holds it/);
  expect(status).toBe(1);
  const listed = await cli(["keys", "list"], { VERDICT_HOME: join(dir, "home") });
  expect(listed.stdout).toMatch(/Z {2}\d{4}-\S+Z\n?$/);
}, 90_000);
