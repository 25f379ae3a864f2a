// What the message converters (replayFromMessages, replayFromAiSdk) share: a conversation read
// into turns and tool calls, how it ended (its answer, or where it stopped without one), and the
// Replay built from it with the host's overrides (reference-core §15, the guide's "RubyLLM
// hosts", for TypeScript hosts).
import { Replay } from "./replay.js";
import { ReplayError } from "./replayError.js";
import type { ToolCall } from "./toolCall.js";

/** One turn, as the end of a conversation is judged: system messages are left out. */
export type Turn =
  | { role: "user" }
  | { role: "assistant"; text: string | null; calls: readonly string[] }
  | { role: "tool" };

/** A conversation read from a host's messages or an AI SDK result. */
export interface Conversation {
  turns: Turn[];
  /** In the order the model made them: `{ name, arguments, error }`, and `detail` when it failed. */
  toolCalls: ToolCall[];
  inputTokens: number | null;
  outputTokens: number | null;
}

/** What a host may give beside the messages: each replaces what the messages say. */
export interface ConversationOverrides {
  /** The answer, when the messages do not end on it (a tool that ended the turn); suppresses the "stopped" error. */
  answer?: string | null;
  error?: string | Error | null;
  cost?: number | null;
  durationMs?: number | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  metadata?: Record<string, unknown> | null;
}

const OVERRIDE_KEYS: readonly string[] = ["answer", "error", "cost", "durationMs", "inputTokens", "outputTokens", "metadata"];

/** The Replay of a conversation; the overrides go through `Replay.from`'s checks, naming the key. */
export function replayOf(conversation: Conversation, overrides: ConversationOverrides): Replay {
  for (const key of Object.keys(overrides)) {
    if (!OVERRIDE_KEYS.includes(key)) throw new ReplayError(key, `unknown option (known: ${OVERRIDE_KEYS.join(", ")})`);
  }
  const given = (key: keyof ConversationOverrides) => overrides[key] !== undefined;
  const end = conversationEnd(conversation.turns);
  return Replay.from({
    answer: given("answer") ? overrides.answer : end.answer,
    toolCalls: conversation.toolCalls,
    inputTokens: given("inputTokens") ? overrides.inputTokens : conversation.inputTokens,
    outputTokens: given("outputTokens") ? overrides.outputTokens : conversation.outputTokens,
    error: given("error") ? overrides.error : given("answer") ? null : end.error,
    cost: overrides.cost,
    durationMs: overrides.durationMs,
    metadata: overrides.metadata,
  });
}

/**
 * The answer is the last assistant message after the last user message. A conversation that
 * stopped before answering has none, and the error says where it stopped: on the user's own
 * message (a run that failed after the prompt was saved), or at a tool call or its result (a
 * tool awaiting approval, a step limit reached).
 */
function conversationEnd(turns: readonly Turn[]): { answer: string | null; error: string | null } {
  const last = turns.at(-1);
  if (last === undefined) return { answer: null, error: "The conversation has no messages" };
  if (last.role === "user") return { answer: null, error: "The conversation ended on a user message without a reply" };
  if (last.role === "assistant" && last.calls.length === 0) return { answer: last.text, error: null };
  const assistant = turns.findLast((turn) => turn.role === "assistant");
  const calls = assistant?.role === "assistant" ? assistant.calls : [];
  const where = calls.length > 0 ? `a call to ${calls.join(", ")}` : "a tool result";
  return { answer: null, error: `The conversation stopped at ${where} without a final answer` };
}
