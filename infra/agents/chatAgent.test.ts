// `chat:<agent file>`: the platform drives the model itself. The AI SDK and its OpenAI client are
// the real ones, talking to a local server that speaks OpenAI's chat completions API
// (infra/testing/fakeModelProvider.ts); only the model is scripted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RuntimeModel, RuntimeScenario } from "@verdict/domain";
import { startFakeModelProvider, type FakeModelProvider, type ProviderRequest } from "../testing/index.js";
import { ChatAgent } from "./chatAgent.js";
import { loadAgent } from "./agentSpec.js";

const KEY = "sk-test-chat-agent-0123456789";
let provider: FakeModelProvider;
let dir: string;

const AGENT = `instructions: You are the support agent of an online shop. Look orders up before answering.
max_steps: 3
tools:
  - name: lookup_order
    description: Looks an order up by its number
    parameters: { type: object, properties: { number: { type: string } }, required: [number] }
    results:
      - when: { number: "4821" }
        result: { status: shipped, carrier: DHL }
      - when: { number: "0" }
        error: no such order
  - name: issue_refund
    description: Refunds an order
`;

/** The scripted model: looks up the order the prompt names, then answers from the tool's result; "refund" calls the refund tool. */
function model(request: ProviderRequest) {
  if (request.prompt.includes("echo")) return `Your key is ${KEY}`;
  const [last] = request.toolResults.slice(-1);
  if (last !== undefined) return last.includes("error") || last.includes("no ") ? `Sorry: ${last}` : `Your order: ${last}`;
  const number = /\d+/.exec(request.prompt)?.[0] ?? "";
  return { toolCalls: [{ name: request.prompt.includes("Refund") ? "issue_refund" : "lookup_order", arguments: { number } }] };
}

const scenario = (key: string, prompt: string): RuntimeScenario => ({ key, prompt, group: null, notes: null, expectations: {} });
const gpt: RuntimeModel = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
const env = () => ({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider.baseURL });
const signal = () => new AbortController().signal;

beforeAll(async () => {
  provider = await startFakeModelProvider({ apiKey: KEY, answer: model });
  dir = await mkdtemp(join(tmpdir(), "verdict-chat-agent-"));
  await writeFile(join(dir, "agent.yaml"), AGENT);
});
afterAll(async () => {
  await provider.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a chat agent's replays", () => {
  it("asks the pair's model with the file's instructions and tools, answers its tool calls from the fixtures, and records the conversation", async () => {
    const agent = await loadAgent("--agent", `chat:${join(dir, "agent.yaml")}`, env());
    expect(agent.name).toBe(`chat:${join(dir, "agent.yaml")}`);
    const replay = await agent.replay(scenario("order_status", "Where is order 4821?"), gpt, { signal: signal() });
    expect(replay.answer).toBe('Your order: {"status":"shipped","carrier":"DHL"}');
    expect(replay.tool_calls).toEqual([{ name: "lookup_order", arguments: { number: "4821" }, error: false }]);
    expect(replay.input_tokens).toBeGreaterThan(0);
    expect(replay.duration_ms).toBeGreaterThanOrEqual(0);
    const first = provider.requests.find((r) => r.prompt === "Where is order 4821?")!;
    expect(first.model).toBe("gpt-5-mini");
    expect(first.system).toBe("You are the support agent of an online shop. Look orders up before answering.");
    expect(first.tools).toEqual([
      expect.objectContaining({ name: "lookup_order", description: "Looks an order up by its number", parameters: expect.objectContaining({ required: ["number"] }) }),
      expect.objectContaining({ name: "issue_refund", description: "Refunds an order" }),
    ]);
  });

  it("a fixture's error, and a call no fixture answers, are failed tool calls the model is told of", async () => {
    const agent = await loadAgent("--agent", `chat:${join(dir, "agent.yaml")}`, env());
    const missing = await agent.replay(scenario("lookup_missing", "Where is order 0?"), gpt, { signal: signal() });
    expect(missing.tool_calls).toEqual([{ name: "lookup_order", arguments: { number: "0" }, error: true, detail: "no such order" }]);
    const refund = await agent.replay(scenario("refund", "Refund order 3390"), gpt, { signal: signal() });
    expect(refund.tool_calls).toEqual([{ name: "issue_refund", arguments: { number: "3390" }, error: true, detail: 'no fixture of issue_refund answers {"number":"3390"}' }]);
    expect(refund.answer).toMatch(/^Sorry: /);
  });

  it("a model on a provider the environment does not configure, or cannot be called, fails the pair naming what to set; the key never reaches a replay", async () => {
    const agent = ChatAgent.fromYaml(AGENT, env());
    await expect(agent.replay(scenario("s", "Where is order 4821?"), { label: "claude-haiku-4-5", provider: "anthropic", model: "claude-haiku-4-5" }, { signal: signal() })).rejects.toThrow(
      "chat agent: claude-haiku-4-5 is on anthropic, which is not configured: set ANTHROPIC_API_KEY",
    );
    await expect(agent.replay(scenario("s", "hi"), { label: "mock", provider: "mock", model: "mock" }, { signal: signal() })).rejects.toThrow(
      "chat agent: mock is on mock, which it cannot call; it calls anthropic, openai, openrouter, ollama",
    );
    const echoed = await agent.replay(scenario("s", "echo your key"), gpt, { signal: signal() });
    expect(echoed.answer).toBe("Your key is [redacted]");
    const refused = ChatAgent.fromYaml(AGENT, { OPENAI_API_KEY: "sk-wrong-key-0123456789", OPENAI_BASE_URL: provider.baseURL });
    const error = await refused.replay(scenario("s", "Where is order 4821?"), gpt, { signal: signal() }).catch((e: Error) => e.message);
    expect(error).toMatch(/^openai call failed: HTTP 401: /);
    expect(error).not.toContain("sk-wrong-key-0123456789");
  });
});

describe("a chat agent file that cannot serve is refused when it loads, naming the setting and the field", () => {
  const refused = async (text: string) => {
    const path = join(dir, `bad-${Math.random().toString(36).slice(2)}.yaml`);
    await writeFile(path, text);
    return loadAgent("VERDICT_AGENT", `chat:${path}`, env()).then(
      () => "loaded",
      (e: Error) => e.message.replace(path, "FILE"),
    );
  };

  it("a bad tool name, a repeated tool, a fixture with both or neither answer, an unknown key", async () => {
    expect(await refused("tools:\n  - { name: look up, result: 1 }\n")).toMatch(/^VERDICT_AGENT: FILE: chat agent: tools\.0\.name: must be 1-64 letters, digits, _ or -/);
    expect(await refused("tools:\n  - { name: a, result: 1 }\n  - { name: a, result: 2 }\n")).toBe('VERDICT_AGENT: FILE: chat agent: tools.1.name: repeats "a"');
    expect(await refused("tools:\n  - { name: a, result: 1, error: x }\n")).toMatch(/^VERDICT_AGENT: FILE: chat agent: tools\.0.*takes result or error, not both/);
    expect(await refused("tools:\n  - name: a\n    results: [{ when: { n: 1 } }]\n")).toMatch(/^VERDICT_AGENT: FILE: chat agent: tools\.0\.results\.0.*needs exactly one of result and error/);
    expect(await refused("instruction: typo\n")).toMatch(/^VERDICT_AGENT: FILE: chat agent: .*instruction/);
    expect(await refused("max_steps: 0\n")).toMatch(/^VERDICT_AGENT: FILE: chat agent: max_steps/);
    expect(await loadAgent("VERDICT_AGENT", `chat:${join(dir, "none.yaml")}`, env()).catch((e: Error) => e.message)).toBe(`VERDICT_AGENT: no such file ${join(dir, "none.yaml")}`);
  });
});
