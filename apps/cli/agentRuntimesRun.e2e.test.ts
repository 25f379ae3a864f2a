// `verdict run --agent module:./agent.mjs` and `--agent chat:./agent.yaml` as a user runs them: the
// CLI's bundle on plain node (the CI form, scripts/verdict.mjs), in the user's own folder.
// - module: their replay function imported; what it answers is scored like any other agent's, its
//   throw is that pair's run_error, and a module Node cannot import is refused before anything
//   runs, in Node's own words, naming the flag.
// - chat: the platform drives each pair's model through the AI SDK (a local server speaking
//   OpenAI's chat completions API stands in for the provider), answering its tool calls from the
//   agent file's fixtures.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeModelProvider, type ProviderRequest } from "@verdict/infra/testing";
import { plainNodeEnv } from "./testing.js";

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
function verdictRun(agent: string, extra: string[] = [], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = plainNodeEnv(extraEnv);
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

// The chat agent's model: looks up the order the prompt names, then answers from the tool's result.
const CHAT_AGENT = `instructions: Look orders up before answering.
tools:
  - name: lookup_order
    parameters: { type: object, properties: { number: { type: string } }, required: [number] }
    result: { status: shipped }
  - name: issue_refund
    error: payments service answered 503
`;

function chatModel(request: ProviderRequest) {
  const [last] = request.toolResults.slice(-1);
  if (last !== undefined) return `Done: ${last} for ${/\d+/.exec(request.prompt)?.[0]}`;
  return { toolCalls: [{ name: request.prompt.includes("Refund") ? "issue_refund" : "lookup_order", arguments: { number: /\d+/.exec(request.prompt)?.[0] ?? "" } }] };
}

describe("verdict run --agent chat:FILE", () => {
  it("drives each pair's model with the file's instructions and tools and scores what it answers", async () => {
    const key = "sk-test-chat-run-0123456789";
    const provider = await startFakeModelProvider({ apiKey: key, answer: chatModel });
    try {
      await writeFile(join(dir, "chat.yaml"), CHAT_AGENT);
      const run = await verdictRun("chat:./chat.yaml", ["--format", "json"], { OPENAI_API_KEY: key, OPENAI_BASE_URL: provider.baseURL });
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as { results: Array<{ scenario_key: string; label: string; status: string; fault?: string; answer?: string }> };
      const outcome = Object.fromEntries(report.results.map((r) => [`${r.scenario_key} × ${r.label}`, r.status === "passed" ? "passed" : r.fault]));
      // The refund tool's fixture fails the call: a tool_error on both models.
      expect(outcome).toEqual({ "order_status × openai/gpt-5": "passed", "order_status × openai/gpt-5-mini": "passed", "refund × openai/gpt-5": "tool_error", "refund × openai/gpt-5-mini": "tool_error" });
      expect(report.results[0].answer).toBe('Done: {"status":"shipped"} for 4821');
      expect(new Set(provider.requests.map((r) => r.model))).toEqual(new Set(["gpt-5", "gpt-5-mini"]));
      expect(provider.requests.every((r) => r.system === "Look orders up before answering.")).toBe(true);
      expect(run.stdout).not.toContain(key);
    } finally {
      await provider.close();
    }
  }, 120_000);
});
