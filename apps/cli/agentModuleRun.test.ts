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

  it("redacts a provider key in a thrown object too, and reads a stray object without a prototype", async () => {
    const key = "sk-proj-OBJSECRET1234567890abcdefXYZ";
    const ran = await run(
      "objsecret.mjs",
      `export async function replay(s) {
  if (s.key === "refund") {
    setTimeout(() => { throw Object.assign(Object.create(null), { why: "bare" }); }, 1);
    await new Promise((r) => setTimeout(r, 50));
    return ${GOOD};
  }
  throw { status: 401, message: "Incorrect API key provided: " + process.env.OPENAI_API_KEY };
}\n`,
      ["--format", "json"],
      { OPENAI_API_KEY: key },
    );
    expect(ran.stdout + ran.stderr).not.toContain(key);
    const byKey = results(ran.stdout);
    expect(byKey.order_status.error).toBe('a non-Error value was thrown: {"status":401,"message":"Incorrect API key provided: [redacted]"}');
    expect(ran.stderr).toContain('left an exception uncaught (thrown in a timer or callback): a non-Error value was thrown: {"why":"bare"} (the run goes on');
    expect(byKey.refund.status).toBe("passed");
    expect(ran.code).toBe(0);
  }, 60_000);
});

describe("verdict run --agent module:FILE, what the module does to the CLI's process", () => {
  it("fails a run whose module calls process.exit, naming --agent and the file: exit 1 in a replay, 2 while it is imported", async () => {
    const inReplay = await run("exit.mjs", `export async function replay(s) { if (s.key === "refund") process.exit(0); return ${GOOD}; }\n`, ["--out", "exit.json"]);
    expect(inReplay.stderr).toContain("verdict run: --agent module:./exit.mjs: the agent module ./exit.mjs called process.exit(0) before the run finished; no report was written\n");
    expect(inReplay.code).toBe(1);
    const atImport = await run("exittop.mjs", `if (!process.env.MY_AGENT_KEY) { console.error("MY_AGENT_KEY is not set"); process.exit(0); }\nexport const replay = () => (${GOOD});\n`);
    expect(atImport.stderr).toContain("verdict run: --agent module:./exittop.mjs: the agent module ./exittop.mjs called process.exit(0) while it was imported; nothing ran\n");
    expect(atImport.code).toBe(2);
  }, 90_000);

  it("exits with its gate's code once the report is written, though the module left a timer running", async () => {
    const ran = await run("timer.mjs", `setInterval(() => {}, 1000);\nexport async function replay() { setTimeout(() => {}, 600_000); return ${GOOD}; }\n`, ["--format", "json"], {}, 30_000);
    expect(ran.hung).toBe(false);
    expect(ran.stderr).toMatch(/pass rate 100\.0% \(2\/2\), gate 50\.0% met/);
    expect(results(ran.stdout).refund.status).toBe("passed");
    expect(ran.code).toBe(0);
  }, 60_000);

  it("says a rejection the module left unhandled, or its throw in a timer, on one line naming it, and the run goes on", async () => {
    const ran = await run(
      "floatrej.mjs",
      `export async function replay(s) {
  if (s.key === "refund") setTimeout(() => { throw new Error("metrics flush failed"); }, 1);
  else Promise.reject(new Error("telemetry flush failed " + process.env.OPENAI_API_KEY));
  await new Promise((r) => setTimeout(r, 50));
  return ${GOOD};
}\n`,
      ["--format", "json"],
      { OPENAI_API_KEY: "sk-proj-FLOATSECRET1234567" },
    );
    expect(ran.stderr).toContain("verdict run: --agent module:./floatrej.mjs: the agent module ./floatrej.mjs left a promise rejection unhandled: Error: telemetry flush failed [redacted] (the run goes on; it is in no pair's record)\n");
    expect(ran.stderr).toContain("left an exception uncaught (thrown in a timer or callback): Error: metrics flush failed (the run goes on");
    expect(Object.values(results(ran.stdout)).map((r) => r.status)).toEqual(["passed", "passed"]);
    expect(ran.code).toBe(0);
  }, 60_000);

  it("sends the module's stdout writes to stderr when the report goes to stdout, so the report parses", async () => {
    const ran = await run(
      "stdout.mjs",
      `console.log("DEBUG: agent loaded");\nexport async function replay(s) { console.log("DEBUG: replaying " + s.key); process.stdout.write("raw write\\n"); return ${GOOD}; }\n`,
      ["--format", "json"],
    );
    expect(Object.keys(results(ran.stdout))).toEqual(["order_status", "refund"]);
    expect(ran.stderr).toContain("DEBUG: agent loaded\n");
    expect(ran.stderr).toContain("DEBUG: replaying refund\nraw write\n");
    expect(ran.code).toBe(0);
  }, 60_000);
});
