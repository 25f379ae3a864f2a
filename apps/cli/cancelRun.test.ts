// A CI job cancelled mid-run: the runner sends SIGTERM to the command it started. The documented
// CI form was `npx tsx apps/cli/main.ts run`, whose npx exited 143 at once while the CLI under
// it (sh -c -> tsx -> node) ran on, kept calling the agent and wrote a complete-looking --out
// report. The documented form now runs the bundled CLI on plain node (scripts/verdict.mjs): the
// signal reaches the CLI itself, which stops, leaving no process and writing nothing.
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { example, plainNodeEnv } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The command README.md and examples/README.md give CI, less `run` and its flags. */
const CI_FORM = ["node", "scripts/verdict.mjs"];

it("is the form README.md and examples/README.md give for `verdict run`", () => {
  for (const doc of ["README.md", "examples/README.md"]) {
    const text = readFileSync(join(ROOT, doc), "utf8");
    expect(text, doc).toContain(`${CI_FORM.join(" ")} run --catalog`);
    // No command line (after any VAR=... settings) runs it under npx tsx any more.
    expect(text, doc).not.toMatch(/^(?:\w+=\S* )*npx tsx apps\/cli\/main\.ts run/m);
  }
});

let dir = "";
let server: Server;
let requests = 0;
let firstRequest: () => void = () => undefined;
const requested = new Promise<void>((resolve) => (firstRequest = resolve));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-cancel-"));
  // A slow agent: each answer after 1 s, so a run left going writes its report within seconds.
  server = createServer((req, res) => {
    requests += 1;
    firstRequest();
    req.resume();
    setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ answer: "I can help with that." })), 1000).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The processes of process group `pgid` still alive (zombies are gone already). */
function processesOfGroup(pgid: number): string[] {
  const left: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces, so read after its closing parenthesis.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") left.push(`${entry}: ${readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ")}`);
  }
  return left;
}

it("the documented CI form of `verdict run` stops on SIGTERM: no process of it is left and no --out is written", async () => {
  const out = join(dir, "report.md");
  const { port } = server.address() as AddressInfo;
  const env = plainNodeEnv();
  const argv = ["run", "--catalog", example("catalog.yaml"), "--product", "support", "--set", "smoke", "--models", "gpt-5-mini", "--agent", `http:http://127.0.0.1:${port}/replay`, "--quiet", "--out", out];
  // Its own process group, as a CI runner's job is: what the signal leaves behind is found by it.
  const child = spawn(CI_FORM[0], [...CI_FORM.slice(1), ...argv], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + 15 : null))));
  const pgid = child.pid ?? 0;
  try {
    await requested; // the run is under way: the agent has its first pairs
    child.kill("SIGTERM"); // the command CI started, alone (not its group)
    const started = Date.now();
    expect(await exited, stderr).toBe(143);
    expect(Date.now() - started).toBeLessThan(3000);
    // A run left going would answer its 10 pairs, 4 at a time, 1 s each: its report within ~3 s.
    await sleep(1000);
    expect(processesOfGroup(pgid)).toEqual([]);
    await sleep(3000);
    expect(existsSync(out)).toBe(false);
    expect(requests).toBeLessThanOrEqual(4);
  } finally {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // nothing left of it
    }
  }
}, 60_000);
