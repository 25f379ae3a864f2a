// One tool call inside a replay, stored as a shallow snake_case record (reference-core §6):
// `name`, and optionally `arguments`, `result`, `error` (the tool failed when it is anything but
// null/undefined/false, as Ruby truthiness reads it: `"timeout"`, `0` and `""` all count),
// `detail` (the error or a preview of the result), `duration_ms`. Other keys are kept as given.
import { isBlank } from "../support/index.js";
import { describe } from "./replayError.js";

export interface ToolCall {
  name?: unknown;
  arguments?: unknown;
  result?: unknown;
  error?: unknown;
  detail?: unknown;
  duration_ms?: unknown;
  [key: string]: unknown;
}

/** The keys a tool call is read by (the rest are kept as given). */
export const TOOL_CALL_KEYS: readonly string[] = ["name", "arguments", "result", "error", "detail", "duration_ms", "durationMs"];

/**
 * Where other shapes put a tool's name (OpenAI's `function`, the AI SDK's `toolName`): a call
 * written so had no name and scored as the expected tool not called, with no hint of why.
 */
const NAME_ELSEWHERE: readonly string[] = ["tool", "toolName", "tool_name", "function", "functionName", "function_name"];

/**
 * Why a call the host gave cannot be read, as its key and the rule, or null: a call with no
 * name, pointed at the key that seems to hold it (`tool`, OpenAI's `function`, `Name`). A call
 * with a name keeps every other key as given (reference-core §6 stores the call's hash as it
 * is): a host's `time`, `node` or `function` beside its `name` is its own. A call that is not an
 * object is a name (§6), as before.
 */
export function toolCallProblem(value: unknown): [key: string, rule: string] | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const call = value as Record<string, unknown>;
  const name = call.name;
  if (typeof name === "string" && !isBlank(name)) return null;
  const elsewhere = Object.keys(call).find((key) => key !== "name" && (NAME_ELSEWHERE.includes(key) || key.toLowerCase() === "name"));
  if (elsewhere !== undefined) return [elsewhere, "unknown key; did you mean name?"];
  return ["name", `must be the tool's name, a non-blank string, got ${describe(name)}`];
}

/** camelCase spellings a TypeScript host may use, stored under the guide's keys. */
const SNAKE_KEYS: Readonly<Record<string, string>> = { durationMs: "duration_ms" };

/** A tool call from whatever the host gave: an object is copied shallowly, anything else is a name. */
export function toToolCall(value: unknown): ToolCall {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const call: ToolCall = {};
    const source = value as Record<string, unknown>;
    for (const key of Object.keys(source)) call[SNAKE_KEYS[key] ?? key] = source[key];
    return call;
  }
  return { name: value === null || value === undefined ? "" : String(value) };
}

/** Ruby truthiness of the call's `error`: only nil and false mean the tool succeeded. */
export function toolCallFailed(call: ToolCall): boolean {
  const error = call.error;
  return error !== undefined && error !== null && error !== false;
}

/** The call's name as a string (`""` when it has none), as `tool_names` reads it. */
export function toolCallName(call: ToolCall): string {
  const name = call.name;
  return name === undefined || name === null ? "" : String(name);
}

