// The failure a tool result reports, as the message formats write results beside the plain
// content toolResultError reads: the AI SDK's typed outputs and Anthropic's server tool results.
import { isPlainObject } from "../support/blank.js";
import { textOfParts } from "./textParts.js";
import { toolErrorDetail, toolResultError } from "./toolResultError.js";

/**
 * An AI SDK `tool-result` part's failure: its `output` (`error-text`, `error-json` and
 * `execution-denied` fail; `text`, `json` and `content` fail when what they hold reports an
 * error), or, from SDK 4's messages, its `result` with `isError`.
 */
export function sdkResultError(part: Record<string, unknown>): string | null {
  if (!("output" in part) && "result" in part) return part.isError === true ? toolErrorDetail(part.result) : toolResultError(part.result);
  const output = part.output;
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
    case "content":
      return toolResultError(Array.isArray(output.value) ? textOfParts(output.value) : null);
    default:
      return null;
  }
}

/** An Anthropic server tool's result block (`web_search_tool_result`, …): failed when its content is an `…_error`. */
export function serverToolResultError(part: Record<string, unknown>): string | null {
  const content = part.content;
  return isPlainObject(content) && typeof content.type === "string" && content.type.endsWith("_error") ? toolErrorDetail(content) : null;
}
