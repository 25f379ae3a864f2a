// `verdict run --concurrency -1` and `--gate -0.1`, from the CLI's bundle on plain node: node's
// parseArgs answered "Option '--concurrency' argument is ambiguous. Did you forget to specify the
// option argument …", where `--concurrency=-1` got the flag's own rule. A negative number after a
// flag that takes a value is that flag's value now, refused by its rule; any other dash word
// there is still refused as before.
import { expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { exampleRun, plainNodeEnv } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function verdict(argv: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ["scripts/verdict.mjs", ...argv], { cwd: ROOT, env: plainNodeEnv(), encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

it("refuses a negative number given to a flag by the flag's own rule, spaced or with =", () => {
  const rules: Array<[string[], string]> = [
    [["--concurrency", "-1"], 'verdict run: --concurrency must be a whole number >= 1 (got "-1")'],
    [["--concurrency=-1"], 'verdict run: --concurrency must be a whole number >= 1 (got "-1")'],
    [["--gate", "-0.1"], 'verdict run: --gate must be a number from 0 to 1, e.g. 0.8 (got "-0.1")'],
    [["--gate", "-.5"], 'verdict run: --gate must be a number from 0 to 1, e.g. 0.8 (got "-.5")'],
    [["--replay-timeout", "-5"], 'verdict run: --replay-timeout must be a whole number of milliseconds >= 1 (got "-5")'],
  ];
  for (const [flags, rule] of rules) {
    expect(verdict(exampleRun(...flags)), flags.join(" ")).toEqual({ status: 2, stdout: "", stderr: `${rule}\n` });
  }
  // A flag's missing value is still said as before: `--gate --quiet` gave --gate no value.
  expect(verdict(exampleRun("--gate", "--quiet")).stderr).toMatch(/^verdict run: Option '--gate' argument is ambiguous\./);
}, 120_000);
