// `verdict run ... > /dev/full`: a stdout that cannot take the report. main.ts threw the write's
// error (a raw stack trace), and `verdict run` had printed `gate … met` first, above a report that
// was never written. Now it is one line naming stdout and the reason, exit 1 (as a failed --out
// write), and no verdict of the gate. The real process: the write and its error are node's.
import { expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exampleRun } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function toDevFull(argv: string[]): { status: number | null; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH" || name === "NODE_OPTIONS") delete env[name];
  const full = openSync("/dev/full", "w");
  try {
    const result = spawnSync(process.execPath, ["scripts/verdict.mjs", ...argv], { cwd: ROOT, env, stdio: ["ignore", full, "pipe"], encoding: "utf8", timeout: 60_000 });
    return { status: result.status, stderr: result.stderr };
  } finally {
    closeSync(full);
  }
}

it("says a report stdout could not take in one line, exit 1, and gives no verdict of the gate", () => {
  expect(toDevFull(exampleRun("--gate", "0.1"))).toEqual({ status: 1, stderr: "verdict run: stdout: could not write the report (ENOSPC: no space left on device)\n" });
}, 90_000);

it("fails a command whose other output stdout could not take, in one line, where it exited 0", () => {
  expect(toDevFull(["help"])).toEqual({ status: 1, stderr: "verdict: stdout: could not write (ENOSPC: no space left on device)\n" });
}, 90_000);
