// The JSON reader (reference-core §2.3): an array of strings or objects, `{ "scenarios": [...] }`,
// a single object, or a grouped suite (`{ "groups": [...] }`, read by the suite reader).
import { isBlank, isPlainObject } from "../support/index.js";
import { ParseError } from "./errors.js";
import { expectationsOf, type ReadEntry } from "./parsedScenario.js";
import { assertIdentifier, expectationHash, scalarText, textList } from "./scenarioFields.js";

const PROMPT_FIELDS = ["prompt", "message", "input", "question"] as const;

export function readJsonEntries(value: unknown): ReadEntry[] {
  const { items, path } = itemsOf(value);
  const entries: ReadEntry[] = [];
  items.forEach((item, index) => {
    const itemPath = `${path}[${index}]`;
    if (typeof item === "string") {
      if (!isBlank(item)) entries.push(stringEntry(item.trim()));
    } else if (isPlainObject(item)) {
      entries.push(objectEntry(item, itemPath));
    }
  });
  return entries;
}

function itemsOf(value: unknown): { items: unknown[]; path: string } {
  if (Array.isArray(value)) return { items: value, path: "" };
  if (isPlainObject(value) && "scenarios" in value) {
    const inner = value.scenarios;
    if (inner === null || inner === undefined) return { items: [], path: "scenarios" };
    return { items: Array.isArray(inner) ? inner : [inner], path: "scenarios" };
  }
  return { items: [value], path: "" };
}

function stringEntry(prompt: string): ReadEntry {
  return { prompt, group: null, group_name: null, key: null, notes: null, expectations: {}, production_only: false };
}

function objectEntry(item: Record<string, unknown>, path: string): ReadEntry {
  const field = PROMPT_FIELDS.find((name) => item[name] !== null && item[name] !== undefined) ?? "prompt";
  const prompt = scalarText(item[field], `${path}.${field}`, ParseError);
  if (prompt === null || isBlank(prompt)) throw new ParseError("each evaluation scenario must contain a prompt", { path: `${path}.${field}` });
  const nested = expectationHash(item, path, ParseError);
  // A top-level tools / contains / not_contains replaces the nested one (reference-core §2.3).
  const pick = (name: string) => (name in item ? { value: item[name], path: `${path}.${name}` } : { value: nested.value[name], path: `${nested.path}.${name}` });
  const tools = pick("tools");
  const contains = pick("contains");
  const notContains = pick("not_contains");
  return {
    prompt: prompt.trim(),
    group: identifier(item.group, `${path}.group`),
    group_name: text(item.group_name, `${path}.group_name`),
    key: identifier(item.key, `${path}.key`),
    notes: notes(item.notes, `${path}.notes`),
    expectations: expectationsOf(
      textList(tools.value, tools.path, ParseError, "tool"),
      textList(contains.value, contains.path, ParseError, "pattern"),
      textList(notContains.value, notContains.path, ParseError, "pattern"),
    ),
    production_only: item.production_only === true,
  };
}

function text(value: unknown, path: string): string | null {
  const out = scalarText(value, path, ParseError);
  return out === null || isBlank(out) ? null : out.trim();
}

function identifier(value: unknown, path: string): string | null {
  const out = text(value, path);
  assertIdentifier(out, path, ParseError);
  return out;
}

function notes(value: unknown, path: string): string | null {
  const out = scalarText(value, path, ParseError);
  return out === null || isBlank(out) ? null : out;
}
