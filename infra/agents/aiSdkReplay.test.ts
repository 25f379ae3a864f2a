// A TypeScript host whose agent runs on the AI SDK (DESIGN.md, "who uses it" 3): its Runner's
// replay calls `generateText` with tools and converts the result with `replayFromAiSdk`. The SDK
// and its OpenAI client are the real ones, talking to a local server that speaks OpenAI's chat
// completions API (infra/testing/fakeModelProvider.ts); only the model is scripted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAI } from "@ai-sdk/openai";
import { anthropic } from "@ai-sdk/anthropic";
import { generateText, jsonSchema, stepCountIs, tool, type JSONValue, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { ModelSpec, replayFromAiSdk, replayFromMessages, Runner, Scenario, type Replay } from "@verdict/domain";
import { startFakeModelProvider, type FakeModelProvider, type ProviderRequest } from "../testing/index.js";

const KEY = "sk-test-ai-sdk-host";
let provider: FakeModelProvider;

/** The scripted model: calls the tool the prompt needs, then answers from the tool's result. */
function model(request: ProviderRequest) {
  const [last] = request.toolResults.slice(-1);
  if (request.prompt.includes("loop")) return { toolCalls: [{ name: "lookup_order", arguments: { number: "1" } }] };
  if (last === undefined) return { toolCalls: [{ name: request.prompt.includes("Refund") ? "refund" : "lookup_order", arguments: { number: "4821" } }] };
  return last.includes("error") ? "Sorry, I could not do that right now." : `Your order: ${last}`;
}

const tools = {
  lookup_order: tool({
    description: "Looks an order up by its number",
    inputSchema: jsonSchema<{ number: string }>({ type: "object", properties: { number: { type: "string" } }, required: ["number"] }),
    execute: async ({ number }) => ({ number, status: "shipped on May 2" }),
  }),
  refund: tool({
    description: "Refunds an order",
    inputSchema: jsonSchema<{ number: string }>({ type: "object", properties: { number: { type: "string" } }, required: ["number"] }),
    execute: async (): Promise<{ refunded: boolean }> => {
      throw new Error("the payments service answered 503");
    },
  }),
};

beforeAll(async () => {
  provider = await startFakeModelProvider({ apiKey: KEY, answer: model });
});
afterAll(() => provider.close());

describe("an AI SDK host's replays (replayFromAiSdk on real generateText results)", () => {
  it("scores the agent's tool use: a call that ran, a call whose tool threw, and a run cut short at its step limit; its messages read alike", async () => {
    const openai = createOpenAI({ apiKey: KEY, baseURL: provider.baseURL });
    const scenarios = [
      new Scenario({ key: "order_status", prompt: "Where is my order 4821?", expectedTools: ["lookup_order"], expectedPatterns: ["shipped"] }),
      new Scenario({ key: "refund", prompt: "Refund order 4821", expectedTools: ["refund"] }),
      new Scenario({ key: "looping", prompt: "Keep looking (loop)", expectedTools: ["lookup_order"] }),
    ];
    // The same conversation kept as the SDK's model messages (the prompt, then the response's).
    const fromMessages: Replay[] = [];
    const replay = async (scenario: Scenario, spec: ModelSpec) => {
      const started = performance.now();
      const result = await generateText({ model: openai.chat(spec.model), tools, prompt: scenario.prompt, stopWhen: stepCountIs(3), maxRetries: 0 });
      fromMessages.push(replayFromMessages([{ role: "user", content: scenario.prompt }, ...result.response.messages]));
      return replayFromAiSdk(result, { durationMs: Math.round(performance.now() - started) });
    };
    const report = await new Runner({ scenarios, models: [ModelSpec.parse("gpt-5-mini", { defaultProvider: "openai" })], replay, availableTools: ["lookup_order", "refund"] }).run();
    const [status, refund, looping] = report.results;

    expect(status.replay.answer).toBe('Your order: {"number":"4821","status":"shipped on May 2"}');
    expect(status.replay.toolCalls).toEqual([{ name: "lookup_order", arguments: { number: "4821" }, error: false }]);
    expect([status.status, status.replay.inputTokens! > 0, status.replay.outputTokens! > 0]).toEqual(["passed", true, true]);

    expect(refund.replay.toolCalls).toEqual([{ name: "refund", arguments: { number: "4821" }, error: true, detail: "the payments service answered 503" }]);
    expect([refund.status, refund.fault]).toEqual(["failed", "tool_error"]);

    expect(looping.replay.answer).toBeNull();
    expect(looping.replay.error).toBe("The conversation stopped at a call to lookup_order without a final answer");
    expect(looping.replay.toolCalls).toHaveLength(3);
    expect([looping.status, looping.fault]).toEqual(["errored", "run_error"]);

    const read = (replays: ReadonlyArray<Pick<Replay, "answer" | "error" | "toolCalls">>) => replays.map(({ answer, error, toolCalls }) => ({ answer, error, toolCalls }));
    expect(read(fromMessages)).toEqual(read(report.results.map((result) => result.replay)));
  });

  it("keeps a provider-executed tool (a web search) in the calls without taking the answer of its step", async () => {
    // The provider's own tool runs inside the model's turn, so the OpenAI-speaking server cannot
    // script it: the SDK's own test model gives the step the provider would.
    const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
    const search = (result: { result: NonNullable<JSONValue>; isError?: boolean }) => new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [
          { type: "tool-call" as const, toolCallId: "ws1", toolName: "web_search", input: '{"query":"order 4821"}', providerExecuted: true },
          { type: "tool-result" as const, toolCallId: "ws1", toolName: "web_search", ...result },
          { type: "text" as const, text: "It shipped on May 2." },
        ],
        finishReason: { unified: "stop" as const, raw: undefined },
        usage,
        warnings: [],
      }),
    });
    // The provider's tool as the host declares it (its types are provider-utils' own, not ai's ToolSet).
    const tools = { web_search: anthropic.tools.webSearch_20250305({}) } as unknown as ToolSet;
    const found = await generateText({ model: search({ result: [{ type: "web_search_result", url: "https://x", title: "t", encryptedContent: "e", pageAge: null }] }), tools, prompt: "Where is order 4821?" });
    const replay = replayFromAiSdk(found);
    expect([replay.answer, replay.error, replay.toolNames, replay.failedToolCalls.length]).toEqual(["It shipped on May 2.", null, ["web_search"], 0]);

    const failed = await generateText({ model: search({ isError: true, result: { type: "web_search_tool_result_error", errorCode: "max_uses_exceeded" } }), tools, prompt: "Where is order 4821?" });
    for (const read of [replayFromAiSdk(failed), replayFromMessages([{ role: "user", content: "Where is order 4821?" }, ...failed.response.messages])]) {
      expect([read.answer, read.failedToolCalls.map((call) => call.name)]).toEqual(["It shipped on May 2.", ["web_search"]]);
      expect(read.failedToolCalls[0].detail).toContain("max_uses_exceeded");
    }
  });
});
