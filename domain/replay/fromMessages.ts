// A Replay from the ordered messages a conversation produced, for a host that keeps its agent's
// conversations as OpenAI-style chat messages (`tool_calls` on assistant messages, `tool`
// messages answering them by `tool_call_id`), as Anthropic's Messages (`tool_use` blocks, answered
// by `tool_result` blocks in the next user message) or as the AI SDK's model messages
// (`tool-call` and `tool-result` content parts). The shapes may be mixed. The rules are the guide's "RubyLLM
// hosts" (reference-core §15):
//
//   const replay = replayFromMessages(messages, { durationMs: 1840, inputTokens: 2328, outputTokens: 423 });
//
// Tool calls come in the order the model made them; a call fails when the result answering it
// reports an error at its top level (toolResultError). The answer is the last assistant message
// after the last user message; a conversation that stopped before answering has none, and the
// replay's error says where it stopped. Chat messages carry no token counts or cost: pass them.
import { isPlainObject } from "../support/blank.js";
import { replayOf, type Conversation, type ConversationOverrides, type Turn } from "./conversation.js";
import type { Replay } from "./replay.js";
import { describe, ReplayError } from "./replayError.js";
import type { ToolCall } from "./toolCall.js";
import { toolErrorDetail, toolResultError } from "./toolResultError.js";

const ROLES = ["system", "developer", "user", "assistant", "tool"];

interface OpenCall {
  id: string;
  call: ToolCall;
}

export function replayFromMessages(messages: unknown, overrides: ConversationOverrides = {}): Replay {
  return replayOf(readMessages(messages), overrides);
}

function readMessages(messages: unknown): Conversation {
  if (!Array.isArray(messages)) throw new ReplayError("messages", `must be an array of messages, got ${describe(messages)}`);
  const conversation: Conversation = { turns: [], toolCalls: [], inputTokens: null, outputTokens: null };
  const open: OpenCall[] = [];
  messages.forEach((message: unknown, index) => {
    const path = `messages[${index}]`;
    if (!isPlainObject(message)) throw new ReplayError(path, `must be an object with a role, got ${describe(message)}`);
    const role = message.role;
    if (typeof role !== "string" || !ROLES.includes(role)) {
      throw new ReplayError(`${path}.role`, `must be one of ${ROLES.join(", ")}, got ${describe(role)}`);
    }
    const turn = readMessage(message, path, conversation.toolCalls, open);
    if (turn) conversation.turns.push(turn);
  });
  return conversation;
}

function readMessage(message: Record<string, unknown>, path: string, calls: ToolCall[], open: OpenCall[]): Turn | null {
  switch (message.role) {
    case "user": {
      // Anthropic's tool results come in a user message: one holding only results is the tools' turn.
      const answered = answerToolUses(message.content, path, open);
      return answered && contentText(message.content, `${path}.content`) === null ? { role: "tool" } : { role: "user" };
    }
    case "assistant": {
      const made = [...chatToolCalls(message, path), ...partToolCalls(message.content, path)];
      for (const { id, call } of made) {
        calls.push(call);
        open.push({ id, call });
      }
      return { role: "assistant", text: contentText(message.content, `${path}.content`), calls: made.map(({ call }) => String(call.name)) };
    }
    case "tool":
      answerCalls(message, path, open);
      return { role: "tool" };
    default:
      return null; // system and developer messages are the instructions, not the conversation
  }
}

/** OpenAI's `tool_calls: [{ id, type: "function", function: { name, arguments } }]`. */
function chatToolCalls(message: Record<string, unknown>, path: string): OpenCall[] {
  const given = message.tool_calls;
  if (given === undefined || given === null) return [];
  if (!Array.isArray(given)) throw new ReplayError(`${path}.tool_calls`, `must be an array, got ${describe(given)}`);
  return given.map((entry: unknown, index) => {
    const at = `${path}.tool_calls[${index}]`;
    const fn = isPlainObject(entry) ? entry.function : undefined;
    if (!isPlainObject(fn) || typeof fn.name !== "string") {
      throw new ReplayError(`${at}.function.name`, `must be a string (the tool's name), got ${describe(isPlainObject(fn) ? fn.name : fn)}`);
    }
    const id = (entry as Record<string, unknown>).id;
    return { id: typeof id === "string" ? id : "", call: { name: fn.name, arguments: parsedArguments(fn.arguments), error: false } };
  });
}

/** Content parts calling a tool: the AI SDK's `tool-call` (toolCallId, toolName, input), Anthropic's `tool_use` (id, name, input). */
function partToolCalls(content: unknown, path: string): OpenCall[] {
  if (!Array.isArray(content)) return [];
  const made: OpenCall[] = [];
  content.forEach((part: unknown, index) => {
    if (!isPlainObject(part) || (part.type !== "tool-call" && part.type !== "tool_use")) return;
    const [idKey, nameKey] = part.type === "tool-call" ? ["toolCallId", "toolName"] : ["id", "name"];
    const name = part[nameKey];
    if (typeof name !== "string") throw new ReplayError(`${path}.content[${index}].${nameKey}`, `must be a string (the tool's name), got ${describe(name)}`);
    const id = part[idKey];
    made.push({ id: typeof id === "string" ? id : "", call: { name, arguments: part.input, error: false } });
  });
  return made;
}

/** Anthropic's `tool_result` blocks (by `tool_use_id`, `is_error`) settle their calls; true when there were any. */
function answerToolUses(content: unknown, path: string, open: OpenCall[]): boolean {
  if (!Array.isArray(content)) return false;
  let answered = false;
  content.forEach((part: unknown, index) => {
    if (!isPlainObject(part) || part.type !== "tool_result") return;
    const text = contentText(part.content, `${path}.content[${index}].content`);
    settle(open, String(part.tool_use_id ?? ""), part.is_error === true ? toolErrorDetail(text ?? "the tool failed") : toolResultError(text));
    answered = true;
  });
  return answered;
}

/** A `tool` message answers the most recent still-open call with its id: OpenAI's one, or each AI SDK part. */
function answerCalls(message: Record<string, unknown>, path: string, open: OpenCall[]): void {
  const { content, tool_call_id: id } = message;
  if (typeof id === "string") {
    settle(open, id, toolResultError(contentText(content, `${path}.content`)));
  } else if (Array.isArray(content)) {
    // The AI SDK's parts; its other parts (a tool approval's response) settle nothing.
    for (const part of content) {
      if (isPlainObject(part) && part.type === "tool-result") settle(open, String(part.toolCallId ?? ""), modelOutputError(part.output));
    }
  } else {
    throw new ReplayError(`${path}.tool_call_id`, `must be a string (the id of the call it answers), got ${describe(id)}`);
  }
}

function settle(open: OpenCall[], id: string, detail: string | null): void {
  const index = open.findLastIndex((entry) => entry.id === id);
  if (index < 0) return; // a result for no call we saw (the call was trimmed from the history): nothing to mark
  const [{ call }] = open.splice(index, 1);
  if (detail !== null) Object.assign(call, { error: true, detail });
}

/** The AI SDK's tool output: `{ type: "error-text" | "error-json" | "execution-denied" | "text" | "json" | "content", value }`. */
function modelOutputError(output: unknown): string | null {
  if (!isPlainObject(output)) return toolResultError(output);
  switch (output.type) {
    case "error-text":
    case "error-json":
      return toolErrorDetail(output.value);
    case "execution-denied":
      return toolErrorDetail(typeof output.reason === "string" && output.reason !== "" ? output.reason : "execution denied");
    case "text":
    case "json":
      return toolResultError(output.value);
    default:
      return null;
  }
}

/** A message's text: a string, or its text parts joined (an OpenAI refusal counts as text); null for none. */
function contentText(content: unknown, path: string): string | null {
  if (content === undefined || content === null) return null;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new ReplayError(path, `must be a string, an array of parts or null, got ${describe(content)}`);
  const texts: string[] = [];
  for (const part of content) {
    if (!isPlainObject(part)) continue;
    if (part.type === "text" && typeof part.text === "string") texts.push(part.text);
    else if (part.type === "refusal" && typeof part.refusal === "string") texts.push(part.refusal);
  }
  return texts.length > 0 ? texts.join("") : null;
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
