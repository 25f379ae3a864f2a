// The agent's tool roster as the Runner takes it (reference-core §11): a map name -> description,
// or a list of names or of `{ name, description }` objects; always `name -> description` strings.
// Anything else is refused: a roster read as empty would blame every tool call on the agent.
import { isPlainObject, keyedRecord } from "../support/index.js";
import { described } from "../support/index.js";

export type AvailableToolsInput =
  | Readonly<Record<string, unknown>>
  | readonly (string | { name: string; description?: string | null })[]
  | null
  | undefined;

export function normalizeTools(input: AvailableToolsInput): Record<string, string> {
  const out: Record<string, string> = keyedRecord();
  if (input === null || input === undefined) return out;
  if (Array.isArray(input)) {
    input.forEach((entry: unknown, i) => {
      if (typeof entry === "string") out[entry] = "";
      else if (isTool(entry)) out[entry.name] = entry.description == null ? "" : String(entry.description);
      else throw new TypeError(`Runner: availableTools[${i}] must be a tool name or { name, description }, got ${described(entry)}`);
    });
    return out;
  }
  if (!isPlainObject(input)) {
    throw new TypeError(`Runner: availableTools must be a map of name -> description or a list of names or { name, description }, got ${described(input)}`);
  }
  for (const [name, description] of Object.entries(input)) out[name] = description == null ? "" : String(description);
  return out;
}

function isTool(entry: unknown): entry is { name: string; description?: unknown } {
  return typeof entry === "object" && entry !== null && typeof (entry as { name?: unknown }).name === "string";
}
