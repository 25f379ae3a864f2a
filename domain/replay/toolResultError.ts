// Whether a tool's result reports that the tool failed, and what it said (reference-core §15,
// the guide's "RubyLLM hosts"). Only an error at the result's top level counts: an object (or
// JSON text of one) whose `error` is a non-empty string, object or array, or `true`, or whose
// `isError` is `true` (an MCP result). Text that merely mentions an error (a log line, source
// code) is a successful result, as are `error: null`, `error: false` and `isError: false`.
// Failing those, text that is a whole inspected Ruby hash with a top-level `error` string counts.
import { isBlank, isPlainObject } from "../support/blank.js";
import { truncateBytes } from "../support/truncate.js";
import { inspectedHashError } from "./inspectedRubyHash.js";

/** A failed call's detail is cut to this many UTF-8 bytes (`…` appended when cut). */
export const TOOL_ERROR_DETAIL_BYTES = 1200;

/** The failure's detail when `result` reports one, else null. */
export function toolResultError(result: unknown): string | null {
  const object = typeof result === "string" ? parseObject(result) : isPlainObject(result) ? result : null;
  if (object === null) {
    const inspected = typeof result === "string" ? inspectedHashError(result) : null;
    return inspected === null ? null : toolErrorDetail(inspected);
  }
  const detail = errorDetail(object) ?? mcpErrorDetail(object);
  return detail === null ? null : toolErrorDetail(detail);
}

/** A detail as stored on a failed call: text as is, anything else as JSON, cut to size. */
export function toolErrorDetail(value: unknown): string {
  const text = typeof value === "string" ? value : value instanceof Error ? value.message : jsonText(value);
  return truncateBytes(text, TOOL_ERROR_DETAIL_BYTES);
}

function errorDetail(object: Record<string, unknown>): unknown {
  const error = object.error;
  if (error === true) return typeof object.message === "string" && !isBlank(object.message) ? object.message : object;
  if (typeof error === "string") return error === "" ? null : error;
  if (Array.isArray(error) || isPlainObject(error)) return isBlank(error) ? null : error;
  return null;
}

function mcpErrorDetail(object: Record<string, unknown>): unknown {
  if (object.isError !== true) return null;
  const parts = Array.isArray(object.content) ? object.content : [];
  const texts = parts.filter((part) => isPlainObject(part) && typeof part.text === "string").map((part) => (part as { text: string }).text);
  return texts.length > 0 ? texts.join("\n") : object;
}

function parseObject(text: string): Record<string, unknown> | null {
  // Only text that is a whole JSON object can carry a top-level `error`.
  if (!text.trimStart().startsWith("{")) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // A cycle or a BigInt in what a tool returned must not cost the replay.
    return String(value);
  }
}
