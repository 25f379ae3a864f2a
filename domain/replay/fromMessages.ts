// A Replay from the ordered messages a conversation produced, for a host that keeps its agent's
// conversations as OpenAI-style chat messages (`tool_calls` on assistant messages, `tool`
// messages answering them by `tool_call_id`; the older `function_call` and `function` messages),
// as Anthropic's Messages (`tool_use` blocks, answered by `tool_result` blocks in the next user
// message) or as the AI SDK's model messages (`tool-call` and `tool-result` content parts). The
// shapes may be mixed. A UI message (`parts`, no `content`) is refused: convert the list with
// the SDK's convertToModelMessages first. The rules are the guide's "RubyLLM hosts"
// (reference-core §15):
//
//   const replay = replayFromMessages(messages, { durationMs: 1840, inputTokens: 2328, outputTokens: 423 });
//
// Tool calls come in the order the model made them; a call fails when the result answering it
// reports an error at its top level (toolResultError, toolOutputError). A call the provider ran
// (a web search, its result in the assistant's own message) stops nothing. The answer is the
// last assistant message after the last user message; a conversation that stopped before
// answering has none, and the replay's error says where it stopped. Chat messages carry no
// token counts or cost: pass them.
import { isPlainObject } from "../support/blank.js";
import { replayOf, type Conversation, type ConversationOverrides, type Turn } from "./conversation.js";
import { callId, OpenCalls } from "./openCalls.js";
import type { Replay } from "./replay.js";
import { describe, ReplayError } from "./replayError.js";
import type { ToolCall } from "./toolCall.js";
import { textOfParts } from "./textParts.js";
import { sdkResultError, serverToolResultError } from "./toolOutputError.js";
import { toolErrorDetail, toolResultError } from "./toolResultError.js";

const ROLES = ["system", "developer", "user", "assistant", "tool", "function"];

/** A call as a message made it; `stops` is false for one the provider ran (a web search). */
interface MadeCall {
  id: string;
  call: ToolCall;
  stops: boolean;
}

export function replayFromMessages(messages: unknown, overrides: ConversationOverrides = {}): Replay {
  return replayOf(readMessages(messages), overrides);
}

function readMessages(messages: unknown): Conversation {
  if (!Array.isArray(messages)) throw new ReplayError("messages", `must be an array of messages, got ${describe(messages)}`);
  const conversation: Conversation = { turns: [], toolCalls: [], inputTokens: null, outputTokens: null };
  const open = new OpenCalls();
  messages.forEach((message: unknown, index) => {
    const path = `messages[${index}]`;
    if (!isPlainObject(message)) throw new ReplayError(path, `must be an object with a role, got ${describe(message)}`);
    const role = message.role;
    if (typeof role !== "string" || !ROLES.includes(role)) {
      throw new ReplayError(`${path}.role`, `must be one of ${ROLES.join(", ")}, got ${describe(role)}`);
    }
    if (message.content === undefined && Array.isArray(message.parts)) {
      throw new ReplayError(`${path}.content`, "is missing: this is a UI message (parts); convert the list with the AI SDK's convertToModelMessages first");
    }
    const turn = readMessage(message, path, { calls: conversation.toolCalls, open, turn: index });
    if (turn) conversation.turns.push(turn);
  });
  return conversation;
}

interface Reading {
  calls: ToolCall[];
  open: OpenCalls;
  /** The message's index: results go to the most recent turn with an open call of their id. */
  turn: number;
}

function readMessage(message: Record<string, unknown>, path: string, reading: Reading): Turn | null {
  switch (message.role) {
    case "user": {
      // Anthropic's tool results come in a user message: one holding only results is the tools' turn.
      const answered = settleToolResultBlocks(message.content, path, reading.open);
      return answered && contentText(message.content, `${path}.content`) === null ? { role: "tool" } : { role: "user" };
    }
    case "assistant": {
      const made = [...chatToolCalls(message, path), ...partToolCalls(message.content, path)];
      for (const { id, call } of made) {
        reading.calls.push(call);
        reading.open.add(id, call, reading.turn);
      }
      settleProviderResults(message.content, reading.open);
      const calls = made.filter((entry) => entry.stops).map((entry) => String(entry.call.name));
      return { role: "assistant", text: assistantText(message, path), calls };
    }
    case "tool":
      settleToolMessage(message, path, reading.open);
      return { role: "tool" };
    case "function":
      if (typeof message.name !== "string") throw new ReplayError(`${path}.name`, `must be a string (the function it answers), got ${describe(message.name)}`);
      reading.open.settle(`function:${message.name}`, toolResultError(contentText(message.content, `${path}.content`)));
      return { role: "tool" };
    default:
      return null; // system and developer messages are the instructions, not the conversation
  }
}

/** OpenAI's `tool_calls: [{ id, type: "function", function: { name, arguments } }]`, and the older `function_call`. */
function chatToolCalls(message: Record<string, unknown>, path: string): MadeCall[] {
  const made: MadeCall[] = [];
  const given = message.tool_calls;
  if (given !== undefined && given !== null) {
    if (!Array.isArray(given)) throw new ReplayError(`${path}.tool_calls`, `must be an array, got ${describe(given)}`);
    given.forEach((entry: unknown, index) => {
      const id = isPlainObject(entry) ? callId(entry.id) : "";
      made.push({ id, call: functionCall(isPlainObject(entry) ? entry.function : undefined, `${path}.tool_calls[${index}].function`), stops: true });
    });
  }
  if (message.function_call !== undefined && message.function_call !== null) {
    const call = functionCall(message.function_call, `${path}.function_call`);
    made.push({ id: `function:${String(call.name)}`, call, stops: true });
  }
  return made;
}

function functionCall(fn: unknown, path: string): ToolCall {
  if (!isPlainObject(fn) || typeof fn.name !== "string") {
    throw new ReplayError(`${path}.name`, `must be a string (the tool's name), got ${describe(isPlainObject(fn) ? fn.name : fn)}`);
  }
  return { name: fn.name, arguments: parsedArguments(fn.arguments), error: false };
}

/**
 * Content parts calling a tool: the AI SDK's `tool-call` (toolCallId, toolName, input; `args` in
 * SDK 4), Anthropic's `tool_use` and `server_tool_use` (id, name, input).
 */
function partToolCalls(content: unknown, path: string): MadeCall[] {
  if (!Array.isArray(content)) return [];
  const made: MadeCall[] = [];
  content.forEach((part: unknown, index) => {
    if (!isPlainObject(part)) return;
    const sdk = part.type === "tool-call";
    if (!sdk && part.type !== "tool_use" && part.type !== "server_tool_use") return;
    const [idKey, nameKey] = sdk ? ["toolCallId", "toolName"] : ["id", "name"];
    const name = part[nameKey];
    if (typeof name !== "string") throw new ReplayError(`${path}.content[${index}].${nameKey}`, `must be a string (the tool's name), got ${describe(name)}`);
    const id = callId(part[idKey]);
    const stops = sdk ? part.providerExecuted !== true : part.type === "tool_use";
    made.push({ id, call: { name, arguments: sdk && !("input" in part) ? part.args : part.input, error: false }, stops });
  });
  return made;
}

/** Results the provider wrote into the assistant's own message: the AI SDK's `tool-result` parts, Anthropic's `…_tool_result` blocks. */
function settleProviderResults(content: unknown, open: OpenCalls): void {
  if (!Array.isArray(content)) return;
  for (const part of content) {
    if (!isPlainObject(part) || typeof part.type !== "string") continue;
    if (part.type === "tool-result") open.settle(callId(part.toolCallId), sdkResultError(part));
    else if (part.type.endsWith("_tool_result")) open.settle(callId(part.tool_use_id), serverToolResultError(part));
  }
}

/** Anthropic's `tool_result` blocks (by `tool_use_id`, `is_error`) settle their calls; true when there were any. */
function settleToolResultBlocks(content: unknown, path: string, open: OpenCalls): boolean {
  if (!Array.isArray(content)) return false;
  let answered = false;
  content.forEach((part: unknown, index) => {
    if (!isPlainObject(part) || part.type !== "tool_result") return;
    const text = contentText(part.content, `${path}.content[${index}].content`);
    open.settle(callId(part.tool_use_id), part.is_error === true ? toolErrorDetail(text ?? "the tool failed") : toolResultError(text));
    answered = true;
  });
  return answered;
}

/** A `tool` message: OpenAI's one result by `tool_call_id`, or the AI SDK's `tool-result` parts. */
function settleToolMessage(message: Record<string, unknown>, path: string, open: OpenCalls): void {
  const { content, tool_call_id: id } = message;
  if (typeof id === "string") {
    open.settle(id, toolResultError(contentText(content, `${path}.content`)));
    return;
  }
  const sdkParts = Array.isArray(content) ? content.filter((part) => isPlainObject(part) && typeof part.type === "string" && part.type.startsWith("tool-")) : [];
  if (sdkParts.length === 0) throw new ReplayError(`${path}.tool_call_id`, `must be a string (the id of the call it answers), got ${describe(id)}`);
  // Other SDK parts (a tool approval's response) settle nothing.
  for (const part of sdkParts as Record<string, unknown>[]) {
    if (part.type === "tool-result") open.settle(callId(part.toolCallId), sdkResultError(part));
  }
}

/** A message's text: a string, or its text parts joined (an OpenAI refusal counts as text); null for none. */
function contentText(content: unknown, path: string): string | null {
  if (content === undefined || content === null) return null;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new ReplayError(path, `must be a string, an array of parts or null, got ${describe(content)}`);
  return textOfParts(content);
}

/**
 * An assistant message's text: its content, and OpenAI's message-level `refusal` (a chat
 * completion that refuses has `content: null` and the refusal beside it), read as the answer the
 * way a `refusal` content part is.
 */
function assistantText(message: Record<string, unknown>, path: string): string | null {
  const text = contentText(message.content, `${path}.content`);
  const { refusal } = message;
  if (refusal === undefined || refusal === null) return text;
  if (typeof refusal !== "string") throw new ReplayError(`${path}.refusal`, `must be a string (the model's refusal) or null, got ${describe(refusal)}`);
  return (text ?? "") + refusal;
}

/** OpenAI sends arguments as JSON text: kept as the value it encodes, or as given when it is not JSON. */
function parsedArguments(given: unknown): unknown {
  if (typeof given !== "string") return given;
  try {
    return JSON.parse(given);
  } catch {
    return given;
  }
}
