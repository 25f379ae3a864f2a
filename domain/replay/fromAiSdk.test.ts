// The AI SDK's result read by its shape; infra/agents/aiSdkReplay.int.test.ts reads a real one.
import { describe, expect, it } from "vitest";
import { ReplayError, replayFromAiSdk } from "./index.js";

const usage = (inputTokens: number | undefined, outputTokens: number | undefined) => ({ inputTokens, outputTokens, totalTokens: undefined });

const toolStep = {
  content: [
    { type: "text", text: "Checking." },
    { type: "tool-call", toolCallId: "c1", toolName: "lookup_order", input: { number: "4821" } },
    { type: "tool-call", toolCallId: "c2", toolName: "refund", input: { number: "4821" } },
    { type: "tool-call", toolCallId: "c3", toolName: "lookup_cutomer", input: {}, invalid: true, error: new Error("Model tried to call unavailable tool 'lookup_cutomer'") },
    { type: "tool-call", toolCallId: "c4", toolName: "notify", input: {} },
    { type: "tool-result", toolCallId: "c1", toolName: "lookup_order", input: {}, output: { status: "shipped", note: "error: none" } },
    { type: "tool-error", toolCallId: "c2", toolName: "refund", input: {}, error: new Error("refunds are closed") },
    { type: "tool-result", toolCallId: "c4", toolName: "notify", input: {}, output: { isError: true, content: [{ type: "text", text: "SMTP down" }] } },
  ],
  usage: usage(1200, 80),
};
const answerStep = { content: [{ type: "text", text: "Order 4821 " }, { type: "text", text: "shipped on May 2." }], usage: usage(1500, 40) };

describe("replayFromAiSdk", () => {
  it("reads the steps' calls in order, their failures, the last step's answer and the total usage", () => {
    const replay = replayFromAiSdk({ steps: [toolStep, answerStep], totalUsage: usage(2700, 120) }, { durationMs: 950 });
    expect(replay.answer).toBe("Order 4821 shipped on May 2.");
    expect(replay.error).toBeNull();
    expect(replay.toolCalls).toEqual([
      { name: "lookup_order", arguments: { number: "4821" }, error: false },
      { name: "refund", arguments: { number: "4821" }, error: true, detail: "refunds are closed" },
      { name: "lookup_cutomer", arguments: {}, error: true, detail: "Model tried to call unavailable tool 'lookup_cutomer'" },
      { name: "notify", arguments: {}, error: true, detail: "SMTP down" },
    ]);
    expect([replay.inputTokens, replay.outputTokens, replay.durationMs]).toEqual([2700, 120, 950]);
    expect(replay.cost).toBeNull();
    expect(replay.costSource).toBe("unpriced");
  });

  it("sums the steps' usage, counting none when a step lacks it (the SDK's total would count it 0)", () => {
    expect(replayFromAiSdk({ steps: [toolStep, answerStep] }).inputTokens).toBe(2700);
    const partly = replayFromAiSdk({ steps: [toolStep, { ...answerStep, usage: usage(undefined, 40) }], totalUsage: usage(1200, 120) });
    expect([partly.inputTokens, partly.outputTokens]).toEqual([null, 120]);
    const { usage: _dropped, ...bare } = answerStep;
    expect(replayFromAiSdk({ steps: [bare], totalUsage: usage(1500, 40) }).inputTokens).toBe(1500);
  });

  it("gives parallel calls sharing an id their results in order, and fails an invalid call once", () => {
    const replay = replayFromAiSdk({
      steps: [{
        content: [
          { type: "tool-call", toolCallId: "x", toolName: "first", input: {} },
          { type: "tool-call", toolCallId: "x", toolName: "second", input: {} },
          { type: "tool-result", toolCallId: "x", toolName: "first", output: "ok" },
          { type: "tool-error", toolCallId: "x", toolName: "second", error: "second failed" },
          { type: "tool-call", toolCallId: "bad", toolName: "nope", input: {}, invalid: true, error: "no such tool" },
          { type: "tool-error", toolCallId: "bad", toolName: "nope", error: "tool nope is not available" },
        ],
      }, answerStep],
    });
    expect(replay.toolCalls.map((call) => [call.name, call.error, call.detail])).toEqual([["first", false, undefined], ["second", true, "second failed"], ["nope", true, "no such tool"]]);
  });

  it("has no answer when the run stopped at a tool call, and says which", () => {
    const replay = replayFromAiSdk({ steps: [toolStep] });
    expect(replay.answer).toBeNull();
    expect(replay.error).toBe("The conversation stopped at a call to lookup_order, refund, lookup_cutomer, notify without a final answer");
    expect(replayFromAiSdk({ steps: [] }).error).toBe("The conversation has no messages");
  });

  it("takes the host's answer, error and cost over the result's", () => {
    const replay = replayFromAiSdk({ steps: [toolStep] }, { answer: "Escalated.", cost: 0.0031, metadata: { chat_id: 7 } });
    expect([replay.answer, replay.error, replay.cost, replay.costSource, replay.metadata]).toEqual(["Escalated.", null, 0.0031, "reported", { chat_id: 7 }]);
  });

  it("refuses what is not a result, naming the field", () => {
    const cases: Array<[unknown, string]> = [
      [null, "replay.result: must be the AI SDK's generateText result (an object with steps), got null"],
      [{ text: "hi" }, "replay.result.steps: must be an array of the SDK's steps, got undefined"],
      [{ steps: Promise.resolve([]) }, "replay.result.steps: must be an array of the SDK's steps, got object (a promise: from streamText pass { steps: await stream.steps, totalUsage: await stream.totalUsage })"],
      [{ steps: [{ text: "hi" }] }, "replay.result.steps[0].content: must be an array of content parts, got undefined"],
      [{ steps: [{ content: [{ type: "tool-call", toolCallId: "x", toolName: 7 }] }] }, "replay.result.steps[0].content[0].toolName: must be a string (the tool's name), got the number 7"],
    ];
    for (const [result, message] of cases) {
      expect(() => replayFromAiSdk(result)).toThrow(ReplayError);
      expect(() => replayFromAiSdk(result)).toThrow(message);
    }
  });
});
