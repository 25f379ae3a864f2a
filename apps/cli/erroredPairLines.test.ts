// Why a pair errored, on stderr, as `verdict run` from the CLI's bundle on plain node prints it
// (walk 47 M6). With some pairs errored, stderr said `[1/2] order_status x gpt-5-mini: errored
// (run_error)` and `gate failed: …`, and the reason was only in the report; with every pair
// errored, `the first: …` gave a reason but not whose. Now an errored pair's progress line ends
// with its agent's error, on one line and clipped, and the run-failed line names the first pair.
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { plainNodeEnv } from "./testing.js";
import { COMMAND_USAGE } from "./usage.js";

const VERDICT = fileURLToPath(new URL("../../scripts/verdict.mjs", import.meta.url));

const CATALOG = `catalog: shop
products:
  - key: shop
    agent: ShopAgent
    sets:
      - key: smoke
        scenarios:
          - key: order_status
            prompt: Where is order 4821?
            expect: { contains: ["4821"] }
          - key: refund
            prompt: Refund order 3390.
            expect: { contains: ["refund"] }
`;

// Fails order_status with a message over several lines, a terminal escape and 1,000 characters
// more; answers refund. down.mjs fails every pair.
const MIXED = `export async function replay(scenario) {
  if (scenario.key === "order_status") throw new Error("orders API answered 503\\n  at fetchOrder (agent.mjs:3)\\u001b[2J" + "x".repeat(1000));
  return { answer: "Your refund of order 3390 is on its way." };
}
`;
const DOWN = `export async function replay() { throw new Error("ECONNREFUSED 127.0.0.1:8080"); }
`;

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-errored-lines-"));
  await writeFile(join(dir, "catalog.yaml"), CATALOG);
  await writeFile(join(dir, "mixed.mjs"), MIXED);
  await writeFile(join(dir, "down.mjs"), DOWN);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function verdictRun(agent: string, extra: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv = [VERDICT, "run", "--catalog", "catalog.yaml", "--product", "shop", "--set", "smoke", "--models", "gpt-5-mini", "--agent", agent, "--concurrency", "1", "--out", "report.md", ...extra];
  const child = spawn(process.execPath, argv, { cwd: dir, env: plainNodeEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

it("ends an errored pair's progress line with its reason, on one line, clipped, its controls escaped", async () => {
  const run = await verdictRun("module:./mixed.mjs", ["--gate", "0.8"]);
  expect(run.code, run.stderr).toBe(1);
  const lines = run.stderr.split("\n");
  const errored = lines.find((line) => line.startsWith("[1/2] order_status x gpt-5-mini: errored (run_error): "));
  expect(errored, run.stderr).toBeDefined();
  expect(errored).toMatch(/^\[1\/2\] order_status x gpt-5-mini: errored \(run_error\): Error: orders API answered 503 at fetchOrder \(agent\.mjs:3\)\\u001b\[2Jx+…$/);
  // 200 characters, the ESC among them, which stderr shows as its 6-character escape.
  expect(Array.from(errored!.slice(errored!.indexOf("Error: "))).length).toBe(200 + 5);
  expect(lines).toContain("[2/2] refund x gpt-5-mini: passed");
  expect(lines).toContain("gate failed: pass rate 50.0% (1/2) is below 80.0%");
}, 120_000);

it("names the first pair's scenario and model when every pair errored", async () => {
  const run = await verdictRun("module:./down.mjs");
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).toContain("[1/2] order_status x gpt-5-mini: errored (run_error): Error: ECONNREFUSED 127.0.0.1:8080\n");
  expect(run.stderr).toMatch(/^run failed: every pair \(2\/2\) is a run_error, nothing was scored; the first \(order_status x gpt-5-mini\): The run failed before \w+ answered: Error: ECONNREFUSED 127\.0\.0\.1:8080$/m);
}, 120_000);

it("is what apps/cli/README.md and run --help say of an errored pair's line", () => {
  const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");
  expect(readme).toContain("the first (order_status x gpt-5-mini): The run failed before");
  expect(readme).toContain("an errored pair's ending with its agent's error on one line");
  expect(COMMAND_USAGE.run.replace(/\s+/g, " ")).toContain("an errored pair's ends with its error, on one line, clipped to 200 characters");
});
