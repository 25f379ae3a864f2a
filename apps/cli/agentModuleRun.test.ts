// `verdict run --agent module:FILE` with the agent modules a developer really writes, on plain node
// in a process of its own (scripts/verdict.mjs, the CI form): the module runs in the CLI's process,
// so what it does to that process (its `this`, its values, process.exit, open handles, stray
// rejections, console.log, echoed keys) is the CLI's to answer for, and only a real process shows it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { plainNodeEnv } from "./testing.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VERDICT = join(ROOT, "scripts/verdict.mjs");

const CATALOG = `catalog: walk
products:
  - key: p
    agent: WalkAgent
    sets:
      - key: s
        scenarios:
          - key: order_status
            prompt: Where is my order 4821?
            expect: { tools: [lookup_order], contains: ["4821"] }
          - key: refund
            prompt: Refund order 3390
            expect: { contains: ["/refund/i"] }
`;

const GOOD = `{ answer: "Order 4821 refund", toolCalls: [{ name: "lookup_order" }] }`;

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-agent-module-"));
  await writeFile(join(dir, "cat.yaml"), CATALOG);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Killed after `timeoutMs`: the CLI did not exit on its own. */
  hung: boolean;
}

/** `verdict run` of the catalog above with the module `source` (written as `name`) as its agent. */
async function run(name: string, source: string, extra: string[] = [], extraEnv: NodeJS.ProcessEnv = {}, timeoutMs = 45_000): Promise<Ran> {
  await writeFile(join(dir, name), source);
  const argv = [VERDICT, "run", "--catalog", "cat.yaml", "--product", "p", "--set", "s", "--models", "gpt-5-mini", "--agent", `module:./${name}`, "--gate", "0.5", ...extra];
  const child = spawn(process.execPath, argv, { cwd: dir, env: plainNodeEnv(extraEnv), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let hung = false;
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => {
    hung = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  return { code, stdout, stderr, hung };
}

/** The JSON report's results by scenario key. */
function results(stdout: string): Record<string, { status: string; answer?: string; error?: string }> {
  const report = JSON.parse(stdout) as { results: Array<{ scenario: { key: string } | string; scenario_key?: string; status: string; answer?: string; error?: string }> };
  return Object.fromEntries(report.results.map((r) => [typeof r.scenario === "string" ? r.scenario : (r.scenario_key ?? r.scenario.key), r]));
}

describe("verdict run --agent module:FILE, the module's own behaviour", () => {
  it("calls a class instance's replay with the instance as `this`", async () => {
    const ran = await run(
      "thisobj.cjs",
      `class MyAgent { constructor() { this.prefix = "Order 4821 refund"; } async replay(s) { return { answer: this.prefix + " for " + s.key, toolCalls: [{ name: "lookup_order" }] }; } }\nmodule.exports = new MyAgent();\n`,
      ["--format", "json"],
    );
    expect(ran.code).toBe(0);
    expect(Object.values(results(ran.stdout)).map((r) => r.answer)).toEqual(["Order 4821 refund for order_status", "Order 4821 refund for refund"]);
  }, 60_000);

  it("makes a replay JSON cannot hold (a cyclic tool call's arguments) that pair's run_error, naming the field; --format json still writes the report", async () => {
    const ran = await run(
      "cyclic.mjs",
      `export async function replay(s) {
  if (s.key === "refund") return ${GOOD};
  const args = { x: 1 }; args.self = args;
  return { answer: "Order 4821", toolCalls: [{ name: "lookup_order", arguments: args }] };
}\n`,
      ["--format", "json"],
    );
    expect(ran.stderr).not.toMatch(/circular structure/i);
    const byKey = results(ran.stdout);
    expect(byKey.refund.status).toBe("passed");
    expect(byKey.order_status.status).toBe("errored");
    expect(byKey.order_status.error).toContain("replay() returned an invalid replay: replay.toolCalls[0].arguments.self: circular (it contains itself)");
    expect(ran.code).toBe(0);
  }, 60_000);

  it("never records or shows a provider key from the environment that the module echoes", async () => {
    const key = "sk-proj-ENVSECRET1234567890abcdefXYZ";
    const ran = await run(
      "envsecret.mjs",
      `export async function replay(s) {
  if (s.key === "refund") return { answer: "refund: key is " + process.env.OPENAI_API_KEY };
  throw new Error("401 Incorrect API key provided: " + process.env.OPENAI_API_KEY);
}\n`,
      ["--format", "json"],
      { OPENAI_API_KEY: key },
    );
    expect(ran.stdout + ran.stderr).not.toContain(key);
    const byKey = results(ran.stdout);
    expect(byKey.refund.answer).toBe("refund: key is [redacted]");
    expect(byKey.order_status.error).toContain("401 Incorrect API key provided: [redacted]");
    expect(ran.code).toBe(0);
  }, 60_000);
});
