// A Replay from what the AI SDK's `generateText` returned, for a host whose agent runs on the AI
// SDK (DESIGN.md: "a Runner whose replay calls its agent and converts the result"). The result is
// read by its shape, so @verdict/domain takes on no dependency on the `ai` package:
//
//   const started = performance.now();
//   const result = await generateText({ model, tools, prompt: scenario.prompt, stopWhen: stepCountIs(5) });
//   return replayFromAiSdk(result, { durationMs: performance.now() - started });
//
// (From `streamText`: `replayFromAiSdk({ steps: await stream.steps, totalUsage: await stream.totalUsage })`.)
//
// Each step is one assistant turn: its text, and the tools it called in the order the model made
// them. A call fails when the SDK reports a `tool-error` for it, when the model's call was invalid
// (an unknown tool, input that fails the tool's schema), or when the tool's output reports an
// error at its top level (toolResultError). Tokens are the steps' usage summed (the SDK's input
// count already holds cache reads and writes). The answer is the last step's text when that step
// called no tool of the host's (a tool the provider ran, a web search, answers in its step); a
// run cut short at a tool call (its step limit reached, a tool awaiting approval) has no answer,
// and its error names the calls. The SDK prices nothing: pass `cost`.
import { isPlainObject } from "../support/blank.js";
import { replayOf, type Conversation, type ConversationOverrides } from "./conversation.js";
import type { Replay } from "./replay.js";
import { callId, OpenCalls } from "./openCalls.js";
import { describe, ReplayError } from "./replayError.js";
import { textOfParts } from "./textParts.js";
import type { ToolCall } from "./toolCall.js";
import { toolErrorDetail, toolResultError } from "./toolResultError.js";

export function replayFromAiSdk(result: unknown, overrides: ConversationOverrides = {}): Replay {
  return replayOf(readResult(result), overrides);
}

function readResult(result: unknown): Conversation {
  // Not isPlainObject: the SDK's result and steps are class instances.
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    throw new ReplayError("result", `must be the AI SDK's generateText result (an object with steps), got ${describe(result)}`);
  }
  const { steps, totalUsage } = result as { steps?: unknown; totalUsage?: unknown };
  if (!Array.isArray(steps)) {
    const hint = steps instanceof Promise ? " (a promise: from streamText pass { steps: await stream.steps, totalUsage: await stream.totalUsage })" : "";
    throw new ReplayError("result.steps", `must be an array of the SDK's steps, got ${describe(steps)}${hint}`);
  }
  const conversation: Conversation = { turns: [], toolCalls: [], inputTokens: null, outputTokens: null };
  const open = new OpenCalls();
  steps.forEach((step: unknown, index) => readStep(step, index, conversation, open));
  const usages = usagesOf(steps, totalUsage);
  conversation.inputTokens = summedTokens(usages, "inputTokens");
  conversation.outputTokens = summedTokens(usages, "outputTokens");
  return conversation;
}

/**
 * Each step's usage when every step has one: the SDK's `totalUsage` counts a step without a count
 * as 0, a part of the count. `totalUsage` only for steps given without theirs.
 */
function usagesOf(steps: unknown[], totalUsage: unknown): unknown[] {
  const usages = steps.map((step) => (step !== null && typeof step === "object" ? (step as { usage?: unknown }).usage : undefined));
  if (usages.length > 0 && usages.every((usage) => typeof usage === "object" && usage !== null)) return usages;
  return typeof totalUsage === "object" && totalUsage !== null ? [totalUsage] : usages;
}

function readStep(step: unknown, index: number, conversation: Conversation, open: OpenCalls): void {
  const path = `result.steps[${index}]`;
  const content = step !== null && typeof step === "object" ? (step as { content?: unknown }).content : undefined;
  if (!Array.isArray(content)) throw new ReplayError(`${path}.content`, `must be an array of content parts, got ${describe(content)}`);
  const names: string[] = [];
  for (const [at, part] of (content as unknown[]).entries()) {
    if (!isPlainObject(part)) continue;
    if (part.type === "tool-call") {
      const call = toolCall(part, `${path}.content[${at}]`);
      conversation.toolCalls.push(call);
      open.add(callId(part.toolCallId), call, index);
      const name = call.name as string;
      // The provider ran it (a web search) and the model answered in the same step: it stops nothing.
      if (part.providerExecuted !== true) names.push(name);
    } else if (part.type === "tool-result") open.settle(callId(part.toolCallId), toolResultError(part.output));
    else if (part.type === "tool-error") open.settle(callId(part.toolCallId), toolErrorDetail(part.error));
  }
  // A step that called tools of the host is not a final answer, whether or not the tools answered.
  conversation.turns.push({ role: "assistant", text: textOfParts(content), calls: names });
}

function toolCall(part: Record<string, unknown>, path: string): ToolCall {
  const name = part.toolName;
  if (typeof name !== "string") throw new ReplayError(`${path}.toolName`, `must be a string (the tool's name), got ${describe(name)}`);
  // An invalid call (an unknown tool, input the tool's schema refused) never ran: it failed.
  return part.invalid === true
    ? { name, arguments: part.input, error: true, detail: toolErrorDetail(part.error ?? "the model's call was invalid") }
    : { name, arguments: part.input, error: false };
}

/** The sum of one count over the usages given; null when any of them lacks it (part of a count is not the count). */
function summedTokens(usages: unknown[], key: "inputTokens" | "outputTokens"): number | null {
  if (usages.length === 0) return null;
  let total = 0;
  for (const usage of usages) {
    const count = usage !== null && typeof usage === "object" ? (usage as Record<string, unknown>)[key] : undefined;
    if (typeof count !== "number" || !Number.isFinite(count) || count < 0) return null;
    total += count;
  }
  return total;
}
