import { describe, expect, it } from "vitest";
import { ReplayError, replayFromMessages } from "./index.js";

const openAiConversation = [
  { role: "system", content: "You are the support agent of Acme." },
  { role: "user", content: "Where is my order 4821?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_1", type: "function", function: { name: "lookup_order", arguments: '{"number":"4821"}' } },
      { id: "call_2", type: "function", function: { name: "lookup_customer", arguments: "not json" } },
    ],
  },
  { role: "tool", tool_call_id: "call_2", content: '{"error": "customer service is down"}' },
  { role: "tool", tool_call_id: "call_1", content: '{"status": "shipped", "log": "error: none"}' },
  { role: "assistant", content: "Order 4821 shipped on May 2." },
];

describe("replayFromMessages (OpenAI-style chat messages)", () => {
  it("reads calls in the order made, marks the one whose result reports an error, and takes the last answer", () => {
    const replay = replayFromMessages(openAiConversation, { durationMs: 1840, inputTokens: 2328, outputTokens: 423, cost: 0.0243 });
    expect(replay.answer).toBe("Order 4821 shipped on May 2.");
    expect(replay.error).toBeNull();
    expect(replay.toolCalls).toEqual([
      { name: "lookup_order", arguments: { number: "4821" }, error: false },
      { name: "lookup_customer", arguments: "not json", error: true, detail: "customer service is down" },
    ]);
    expect(replay.failedToolCalls.map((call) => call.name)).toEqual(["lookup_customer"]);
    expect([replay.durationMs, replay.inputTokens, replay.outputTokens, replay.cost]).toEqual([1840, 2328, 423, 0.0243]);
  });

  it("marks a call whose result is a RubyLLM host's inspected hash with an error, as reference-core §15 reads one", () => {
    const conversation = (content: string) => [
      { role: "user", content: "Where is order 4821?" },
      { role: "assistant", content: null, tool_calls: [{ id: "1", type: "function", function: { name: "lookup_order", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "1", content },
      { role: "assistant", content: "I could not look it up." },
    ];
    expect(replayFromMessages(conversation('{:error=>"order service is down"}')).toolCalls).toEqual([
      { name: "lookup_order", arguments: {}, error: true, detail: "order service is down" },
    ]);
    expect(replayFromMessages(conversation("{:error=>nil, :order=>4821}")).toolCalls).toEqual([{ name: "lookup_order", arguments: {}, error: false }]);
  });

  it("says where a conversation stopped without an answer", () => {
    const atCall = openAiConversation.slice(0, 3);
    expect(replayFromMessages(atCall).error).toBe("The conversation stopped at a call to lookup_order, lookup_customer without a final answer");
    expect(replayFromMessages(atCall).answer).toBeNull();
    expect(replayFromMessages(openAiConversation.slice(0, 5)).error).toBe(
      "The conversation stopped at a call to lookup_order, lookup_customer without a final answer",
    );
    expect(replayFromMessages(openAiConversation.slice(0, 2)).error).toBe("The conversation ended on a user message without a reply");
    expect(replayFromMessages([{ role: "system", content: "rules" }]).error).toBe("The conversation has no messages");
    expect(replayFromMessages([{ role: "tool", tool_call_id: "x", content: "ok" }]).error).toBe(
      "The conversation stopped at a tool result without a final answer",
    );
  });

  it("takes the answer after the last user message only", () => {
    const replay = replayFromMessages([
      { role: "user", content: "hi" },
      { role: "assistant", content: "Hello!" },
      { role: "user", content: "Where is my order?" },
    ]);
    expect(replay.answer).toBeNull();
    expect(replay.errored).toBe(true);
  });

  it("lets the host's answer replace a missing one and its error, and its error replace the stop", () => {
    const atCall = openAiConversation.slice(0, 3);
    const answered = replayFromMessages(atCall, { answer: "Handed to a human." });
    expect([answered.answer, answered.error]).toEqual(["Handed to a human.", null]);
    expect(replayFromMessages(atCall, { error: new RangeError("step limit") }).error).toBe("RangeError: step limit");
  });

  it("reads content parts, a refusal as text, and an answered call once", () => {
    const replay = replayFromMessages([
      { role: "user", content: [{ type: "text", text: "Delete every order" }] },
      { role: "assistant", content: [{ type: "refusal", refusal: "I can't do that." }] },
    ]);
    expect(replay.answer).toBe("I can't do that.");
    // A chat completion's refusal: content null, the refusal beside it (was no answer and no error).
    const refused = replayFromMessages([
      { role: "user", content: "Tell me how to pick a lock" },
      { role: "assistant", content: null, refusal: "I can't help with that." },
    ]);
    expect([refused.answer, refused.error]).toEqual(["I can't help with that.", null]);
    expect(replayFromMessages([{ role: "assistant", content: "Sure.", refusal: null }]).answer).toBe("Sure.");
    expect(() => replayFromMessages([{ role: "assistant", content: null, refusal: 1 }])).toThrow(/messages\[0\]\.refusal: must be a string/);
    const repeated = replayFromMessages([
      { role: "assistant", tool_calls: [{ id: "a", function: { name: "search", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "a", content: "ok" },
      { role: "assistant", tool_calls: [{ id: "a", function: { name: "search", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "a", content: [{ type: "text", text: '{"error":"quota"}' }] },
      { role: "assistant", content: "Done." },
    ]);
    expect(repeated.toolCalls.map((call) => call.error)).toEqual([false, true]);
  });

  it("refuses what is not a conversation, naming the message and the field", () => {
    const cases: Array<[unknown, string]> = [
      ["hello", "replay.messages: must be an array of messages, got the string \"hello\""],
      [[null], "replay.messages[0]: must be an object with a role, got null"],
      [[{ role: "bot", content: "hi" }], "replay.messages[0].role: must be one of system, developer, user, assistant, tool, function, got the string \"bot\""],
      [[{ role: "assistant", content: 42 }], "replay.messages[0].content: must be a string, an array of parts or null, got the number 42"],
      [[{ role: "assistant", tool_calls: {} }], "replay.messages[0].tool_calls: must be an array, got object"],
      [[{ role: "assistant", tool_calls: [{ id: "a", function: {} }] }], "replay.messages[0].tool_calls[0].function.name: must be a string (the tool's name), got undefined"],
      [[{ role: "tool", content: "ok" }], "replay.messages[0].tool_call_id: must be a string (the id of the call it answers), got undefined"],
    ];
    for (const [messages, message] of cases) {
      expect(() => replayFromMessages(messages)).toThrow(ReplayError);
      expect(() => replayFromMessages(messages)).toThrow(message);
    }
  });

  it("refuses an unknown option and a bad value, naming it", () => {
    const conversation = openAiConversation.slice(0, 2);
    expect(() => replayFromMessages(conversation, { duration_ms: 5 } as never)).toThrow(
      "replay.duration_ms: unknown option (known: answer, error, cost, durationMs, inputTokens, outputTokens, metadata)",
    );
    expect(() => replayFromMessages(conversation, { inputTokens: -1 })).toThrow("replay.inputTokens: must be a non-negative number or null, got the number -1");
  });
});

describe("replayFromMessages (the AI SDK's model messages)", () => {
  it("reads tool-call and tool-result parts, and the SDK's error outputs", () => {
    const replay = replayFromMessages([
      { role: "user", content: "Refund order 4821" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool-call", toolCallId: "t1", toolName: "lookup_order", input: { number: "4821" } },
          { type: "tool-call", toolCallId: "t2", toolName: "refund", input: { number: "4821" } },
          { type: "tool-call", toolCallId: "t3", toolName: "notify", input: {} },
          { type: "tool-call", toolCallId: "t4", toolName: "audit", input: {} },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "t1", toolName: "lookup_order", output: { type: "json", value: { status: "paid" } } },
          { type: "tool-result", toolCallId: "t2", toolName: "refund", output: { type: "error-text", value: "refunds are closed" } },
          { type: "tool-result", toolCallId: "t3", toolName: "notify", output: { type: "execution-denied", reason: "the user said no" } },
          { type: "tool-result", toolCallId: "t4", toolName: "audit", output: { type: "text", value: '{"error": "audit log full"}' } },
        ],
      },
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: "a1", approved: true }] },
      { role: "assistant", content: [{ type: "text", text: "Refunds are closed today." }] },
    ]);
    expect(replay.answer).toBe("Refunds are closed today.");
    expect(replay.toolCalls).toEqual([
      { name: "lookup_order", arguments: { number: "4821" }, error: false },
      { name: "refund", arguments: { number: "4821" }, error: true, detail: "refunds are closed" },
      { name: "notify", arguments: {}, error: true, detail: "the user said no" },
      { name: "audit", arguments: {}, error: true, detail: "audit log full" },
    ]);
  });
});

describe("replayFromMessages (Anthropic's Messages)", () => {
  const conversation = [
    { role: "user", content: "Refund order 4821" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "toolu_1", name: "lookup_order", input: { number: "4821" } },
        { type: "tool_use", id: "toolu_2", name: "refund", input: { number: "4821" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: '{"status": "paid"}' },
        { type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: "refunds are closed" }], is_error: true },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "Refunds are closed today." }] },
  ];

  it("reads tool_use blocks and the user message of tool_result blocks answering them", () => {
    const replay = replayFromMessages(conversation);
    expect(replay.answer).toBe("Refunds are closed today.");
    expect(replay.toolCalls).toEqual([
      { name: "lookup_order", arguments: { number: "4821" }, error: false },
      { name: "refund", arguments: { number: "4821" }, error: true, detail: "refunds are closed" },
    ]);
  });

  it("takes a user message of tool results as the tools' turn, and one with text as the user's", () => {
    expect(replayFromMessages(conversation.slice(0, 3)).error).toBe("The conversation stopped at a call to lookup_order, refund without a final answer");
    const followUp = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_9", content: "ok" }, { type: "text", text: "And my other order?" }] };
    expect(replayFromMessages([...conversation, followUp]).error).toBe("The conversation ended on a user message without a reply");
    expect(() => replayFromMessages([{ role: "assistant", content: [{ type: "tool_use", id: "t", name: null }] }])).toThrow(
      "replay.messages[0].content[0].name: must be a string (the tool's name), got null",
    );
  });
});

describe("replayFromMessages: what a review of the converters found", () => {
  it("gives parallel calls sharing an id their results in order", () => {
    const replay = replayFromMessages([
      { role: "assistant", tool_calls: [{ id: "x", function: { name: "first", arguments: "{}" } }, { id: "x", function: { name: "second", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "x", content: "ok" },
      { role: "tool", tool_call_id: "x", content: '{"error": "second failed"}' },
      { role: "assistant", content: "Done." },
    ]);
    expect(replay.toolCalls.map((call) => [call.name, call.error])).toEqual([["first", false], ["second", true]]);
  });

  it("reads a provider-executed call and its result inside the assistant's message (the SDK's and Anthropic's)", () => {
    const sdk = replayFromMessages([
      { role: "user", content: "Where is order 4821?" },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "ws", toolName: "web_search", input: {}, providerExecuted: true },
          { type: "tool-result", toolCallId: "ws", toolName: "web_search", output: { type: "error-json", value: { errorCode: "unavailable" } } },
          { type: "text", text: "I could not search." },
        ],
      },
    ]);
    expect([sdk.answer, sdk.error, sdk.toolCalls]).toEqual(["I could not search.", null, [{ name: "web_search", arguments: {}, error: true, detail: '{"errorCode":"unavailable"}' }]]);
    const anthropic = replayFromMessages([
      { role: "user", content: "Where is order 4821?" },
      {
        role: "assistant",
        content: [
          { type: "server_tool_use", id: "srv", name: "web_search", input: { query: "4821" } },
          { type: "web_search_tool_result", tool_use_id: "srv", content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" } },
          { type: "text", text: "No luck." },
        ],
      },
    ]);
    expect([anthropic.answer, anthropic.failedToolCalls.map((call) => call.detail)]).toEqual(["No luck.", ['{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}']]);
  });

  it("reads OpenAI's older function_call and function messages, and SDK 4's args, result and isError", () => {
    const legacy = replayFromMessages([
      { role: "assistant", content: null, function_call: { name: "lookup_order", arguments: '{"number":"4821"}' } },
      { role: "function", name: "lookup_order", content: '{"error": "not found"}' },
      { role: "assistant", content: "No such order." },
    ]);
    expect(legacy.toolCalls).toEqual([{ name: "lookup_order", arguments: { number: "4821" }, error: true, detail: "not found" }]);
    const sdk4 = replayFromMessages([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "a", toolName: "refund", args: { number: "4821" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "a", toolName: "refund", result: "refunds are closed", isError: true }] },
      { role: "assistant", content: "Closed." },
    ]);
    expect(sdk4.toolCalls).toEqual([{ name: "refund", arguments: { number: "4821" }, error: true, detail: "refunds are closed" }]);
    const content = replayFromMessages([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c", toolName: "fetch", input: {} }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c", toolName: "fetch", output: { type: "content", value: [{ type: "text", text: '{"error": "403"}' }] } }] },
    ]);
    expect(content.failedToolCalls.map((call) => call.detail)).toEqual(["403"]);
  });

  it("refuses a UI message and a tool message that answers no call, rather than reading nothing from them", () => {
    expect(() => replayFromMessages([{ role: "user", parts: [{ type: "text", text: "hi" }] }])).toThrow(
      "replay.messages[0].content: is missing: this is a UI message (parts); convert the list with the AI SDK's convertToModelMessages first",
    );
    expect(() => replayFromMessages([{ role: "tool", content: [{ type: "text", text: '{"error":"x"}' }] }])).toThrow(
      "replay.messages[0].tool_call_id: must be a string (the id of the call it answers), got undefined",
    );
    expect(() => replayFromMessages([{ role: "function", content: "ok" }])).toThrow("replay.messages[0].name: must be a string (the function it answers), got undefined");
  });
});
