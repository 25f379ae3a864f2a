// Public surface of domain/replay: `Replay` (`Replay.from(objectLike)`, `Replay.failed(error)`),
// its tool calls and the error `Replay.from` throws.
//
//   const replay = Replay.from({ answer: "Order 4821 shipped on May 2.", tool_calls: [{ name: "lookup_order" }],
//                                durationMs: 1840, input_tokens: 2328, output_tokens: 423, cost: 0.0243 });
//   replay.toolNames   // ["lookup_order"]
//   Replay.failed(new Error("401 Unauthorized")).errored  // true
//
// and the converters for TypeScript hosts: `replayFromMessages(messages, overrides)` (OpenAI-style
// chat messages or the AI SDK's model messages) and `replayFromAiSdk(generateTextResult, overrides)`.
export { RECORDED_REPLAY_KEYS, Replay, REPLAY_KEYS, replayKeysAsRecorded } from "./replay.js";
export type { ReplayInit, ReplayJSON, CostSource } from "./replay.js";
export { ReplayError } from "./replayError.js";
export { TOOL_CALL_KEYS, toolCallFailed, toolCallName } from "./toolCall.js";
export type { ToolCall } from "./toolCall.js";
export { replayFromMessages } from "./fromMessages.js";
export { replayFromAiSdk } from "./fromAiSdk.js";
export type { ConversationOverrides } from "./conversation.js";
export { TOOL_ERROR_DETAIL_BYTES } from "./toolResultError.js";
export { storableReplay } from "./storableReplay.js";
