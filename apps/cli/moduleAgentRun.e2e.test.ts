// `verdict run --agent module:./agent.mjs` as a user runs it: the CLI's bundle on plain node (the
// CI form, scripts/verdict.mjs), in the user's own folder, importing their replay function. What
// the module answers is scored like any other agent's; its throw is that pair's run_error; a module
// Node cannot import is refused before anything runs, in Node's own words, naming the flag.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VERDICT = join(ROOT, "scripts/verdict.mjs");

const CATALOG = `catalog: shop
products:
  - key: shop
    agent: ShopAgent
    sets:
      - key: smoke
        scenarios:
          - key: order_status
            prompt: Where is order 4821?
            expect: { tools: [lookup_order], contains: ["4821"] }
          - key: refund
            prompt: Refund order 3390.
            expect: { tools: [issue_refund] }
`;

// The user's agent: answers from the prompt, calls the tool a scenario needs, and fails the refund on one model.
const AGENT = `export async function replay(scenario, model, { signal }) {
  if (signal.aborted) throw new Error("aborted before it began");
  if (scenario.key === "refund" && model.model === "gpt-5-mini") throw new Error("payments service answered 503");
  const tool = scenario.key === "refund" ? "issue_refund" : "lookup_order";
  return { answer: \`Done for \${scenario.prompt} (\${model.provider}/\${model.model})\`, toolCalls: [{ name: tool, arguments: {} }], inputTokens: 12, outputTokens: 8 };
}
`;

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-module-run-"));
  await writeFile(join(dir, "catalog.yaml"), CATALOG);
  await writeFile(join(dir, "agent.mjs"), AGENT);
  await writeFile(join(dir, "broken.mjs"), "export function replay( {\n");
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `verdict run` in the user's folder (relative paths are theirs), on plain node. */
function verdictRun(agent: string, extra: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH" || name === "NODE_OPTIONS") delete env[name];
  const argv = [VERDICT, "run", "--catalog", "catalog.yaml", "--product", "shop", "--set", "smoke", "--models", "openai/gpt-5,openai/gpt-5-mini", "--agent", agent, "--quiet", ...extra];
  const child = spawn(process.execPath, argv, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("verdict run --agent module:FILE", () => {
  it("scores what the user's replay function answers; its throw is that pair's run_error", async () => {
    const run = await verdictRun("module:./agent.mjs", ["--format", "json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { results: Array<{ scenario_key: string; label: string; status: string; fault?: string; answer?: string; error?: string; input_tokens?: number }> };
    const outcome = Object.fromEntries(report.results.map((r) => [`${r.scenario_key} × ${r.label}`, r.status === "passed" ? "passed" : r.fault]));
    expect(outcome).toEqual({ "order_status × openai/gpt-5": "passed", "order_status × openai/gpt-5-mini": "passed", "refund × openai/gpt-5": "passed", "refund × openai/gpt-5-mini": "run_error" });
    const bigOrder = report.results.find((r) => r.scenario_key === "order_status" && r.label === "openai/gpt-5");
    expect(bigOrder).toMatchObject({ answer: "Done for Where is order 4821? (openai/gpt-5)", input_tokens: 12 });
    expect(report.results.find((r) => r.label === "openai/gpt-5-mini" && r.scenario_key === "refund")?.error).toContain("payments service answered 503");
  }, 120_000);

  it("refuses a module Node cannot import before anything runs: exit 2, Node's words, the flag named", async () => {
    const run = await verdictRun("module:./broken.mjs");
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toMatch(/^verdict run: --agent: \.\/broken\.mjs: agent module: could not be imported: SyntaxError: Unexpected end of input \(node --check on the file shows the line\)$/m);
    const missing = await verdictRun("module:./nowhere.mjs");
    expect(missing).toMatchObject({ code: 2, stdout: "", stderr: expect.stringMatching(/^verdict run: --agent: no such file \.\/nowhere\.mjs/) });
  }, 120_000);
});
