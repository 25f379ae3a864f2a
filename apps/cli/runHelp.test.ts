// `verdict run --help` and `verdict help` as a user reads them, from the CLI's bundle on plain
// node: they named only `scripted:FILE|http:URL` agents (module: and chat: are taken too, and
// were found only in the README), and `--concurrency` only in the synopsis, without its default
// or that the agent is called that many times at once.
import { expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { plainNodeEnv } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function verdict(...argv: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ["scripts/verdict.mjs", ...argv], { cwd: ROOT, env: plainNodeEnv(), encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

it("names every agent kind run takes, and what --concurrency does, in run --help and in help", () => {
  for (const argv of [["run", "--help"], ["help"]]) {
    const { status, stdout, stderr } = verdict(...argv);
    expect({ status, stderr }, argv.join(" ")).toEqual({ status: 0, stderr: "" });
    const help = stdout.replace(/\s+/g, " ");
    expect(help).toContain("--agent scripted:FILE|module:FILE|chat:FILE|http:URL");
    for (const kind of ["scripted:FILE (", "module:FILE (", "chat:FILE (", "http:URL ("]) expect(help, `${argv.join(" ")}: ${kind}`).toContain(kind);
    expect(help).toContain("--concurrency is how many pairs are replayed at once (default 4");
    expect(help).toMatch(/signal goes on running its call, beside the next pairs' \(more calls in flight than --concurrency\)/);
  }
}, 90_000);

it("documents --concurrency, and a timed-out call that goes on, in apps/cli/README.md's run row", () => {
  const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");
  const row = readme.split("\n").find((line) => line.startsWith("| `run "));
  expect(row).toContain("`--concurrency N`, how many pairs are replayed at once (default 4");
  expect(row).toContain("more calls in flight than `--concurrency`");
});
