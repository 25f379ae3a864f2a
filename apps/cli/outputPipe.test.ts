// `--out` naming a pipe by a link (`/dev/stdout`, `/proc/self/fd/1`, `/dev/fd/1`, or a user's own
// link to one) in a shell pipeline: realpath cannot follow a link to `pipe:[N]`, which was taken
// for a dangling link and renamed over, so the link became a regular file holding the report, the
// pipe got nothing and the run said "report written" (as root, /dev/stdout itself was destroyed).
// /dev/fd/1 and /proc/self/fd/1 were refused. Never /dev/stdout here: the machine relies on it.
import { spawnSync } from "node:child_process";
import { lstat, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { example, exampleRun, plainNodeEnv } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-out-pipe-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The CLI as a shell runs `verdict ARGS | cat`: its stdout a real pipe. */
function piped(argv: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = plainNodeEnv({ VERDICT_HOME: join(dir, "home") });
  const script = `"$0" scripts/verdict.mjs "$@" | cat`;
  const result = spawnSync("sh", ["-c", script, process.execPath, ...argv], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

it("writes the report into the pipe a link names, and leaves the link a link", async () => {
  const link = join(dir, "mystdout");
  await symlink("/proc/self/fd/1", link);
  const result = piped(exampleRun("--out", link));
  expect((await lstat(link)).isSymbolicLink()).toBe(true);
  expect(result.stdout).toMatch(/^# /);
  expect(result.stderr).toContain(`report written to ${link}\n`);
  expect(result.status).toBe(0);
}, 90_000);

it("takes /proc/self/fd/1 and /dev/fd/1 as the pipe they are", () => {
  for (const out of ["/proc/self/fd/1", "/dev/fd/1"]) {
    const result = piped(exampleRun("--out", out));
    expect(result.stderr).toContain(`report written to ${out}\n`);
    expect(result.stdout).toMatch(/^# /);
    expect(result.status).toBe(0);
  }
}, 120_000);

it("writes catalogs export FILE into a linked pipe too", async () => {
  const link = join(dir, "export-stdout");
  await symlink("/proc/self/fd/1", link);
  expect(piped(["catalogs", "import", example("catalog.yaml")]).status).toBe(0);
  const exported = piped(["catalogs", "export", "support", link]);
  expect((await lstat(link)).isSymbolicLink()).toBe(true);
  expect(exported.stdout).toContain("support");
  expect(exported.status).toBe(0);
}, 120_000);

it("appends to the file the shell opened (`--out /proc/self/fd/1 >> ci.log`), keeping what the log held", async () => {
  const env = plainNodeEnv({ VERDICT_HOME: join(dir, "home-log") });
  const log = join(dir, "ci.log");
  await writeFile(log, "step 1: earlier output\n");
  for (const out of ["/proc/self/fd/1", "/dev/fd/1"]) {
    const result = spawnSync("sh", ["-c", `"$0" scripts/verdict.mjs "$@" >> "${log}"`, process.execPath, ...exampleRun("--out", out)], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
  }
  const text = await readFile(log, "utf8");
  // Renamed over, the log lost its first line and the first report; written with `w`, it was truncated.
  expect(text.startsWith("step 1: earlier output\n# ")).toBe(true);
  expect(text.match(/^# Evaluation/gm)).toHaveLength(2);
  expect((await lstat(log)).isFile()).toBe(true);
}, 120_000);

it("writes through the descriptor stderr shares (`--out /dev/fd/1 > ci.log 2>&1`): the next stderr line follows the report, never overwrites it", async () => {
  const env = plainNodeEnv({ VERDICT_HOME: join(dir, "home-shared") });
  const log = join(dir, "shared.log");
  const result = spawnSync("sh", ["-c", `"$0" scripts/verdict.mjs "$@" > "${log}" 2>&1`, process.execPath, ...exampleRun("--out", "/dev/fd/1")], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
  expect(result.status, result.stderr).toBe(0);
  const text = await readFile(log, "utf8");
  // Reopened by its path, the report kept a write position of its own, and "report written to"
  // (stderr, at the shared position) landed over the report's first bytes.
  const report = text.slice(0, text.indexOf("report written to /dev/fd/1\n"));
  expect(report.startsWith("# Evaluation")).toBe(true);
  expect(report.endsWith("\n")).toBe(true);
  expect(text.slice(report.length)).toBe("report written to /dev/fd/1\npass rate 70.0% (7/10)\n");
}, 120_000);
