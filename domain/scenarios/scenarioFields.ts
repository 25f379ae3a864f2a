// Reading one scenario's fields from a YAML/JSON mapping, with the checks every input form
// shares: a prompt is a non-blank string, tool names are strings, a `/regex/` compiles,
// expectations are a mapping of known keys. Errors name the document path of the offending value.
import { identifierTextProblem, isBlank, isPlainObject, lookAlikePair, lookAlikeRule } from "../support/index.js";
import type { InputErrorClass } from "./errors.js";
import { expectationKeyProblem } from "./expectationKeys.js";
import { patternProblem } from "./pattern.js";
import type { ScenarioInit } from "./scenario.js";

type Kind = "tool" | "pattern" | "tag";

/** A scalar as text (`nil` -> null); a list or mapping where text belongs is an error. */
export function scalarText(value: unknown, path: string, Err: InputErrorClass): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value instanceof Date) return value.toISOString();
  throw new Err("must be a string", { path });
}

/** The reference's `list(v)`: a scalar becomes a one-element list, blanks are dropped. */
export function textList(value: unknown, path: string, Err: InputErrorClass, kind: Kind): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  if (!Array.isArray(value) && isPlainObject(value)) throw new Err("must be a string or a list of strings", { path });
  const out: string[] = [];
  items.forEach((item, index) => {
    const itemPath = Array.isArray(value) ? `${path}[${index}]` : path;
    const text = listItem(item, itemPath, Err, kind);
    if (text !== null && !isBlank(text)) out.push(text);
  });
  return out;
}

function listItem(item: unknown, path: string, Err: InputErrorClass, kind: Kind): string | null {
  if (item === null || item === undefined) return null;
  if (kind === "tool" && typeof item !== "string") throw new Err("tool name must be a string", { path });
  const text = scalarText(item, path, Err);
  if (kind === "tool" && text !== null) assertIdentifier(text, path, Err);
  if (kind === "pattern" && text !== null) {
    const problem = patternProblem(text);
    if (problem) throw new Err(problem, { path });
  }
  return text;
}

/**
 * `expectations`, else `expect`, else {} (reference-core §1); a non-mapping is refused, and so is
 * a key in it other than tools / contains / not_contains (a typo there was a check silently lost).
 */
export function expectationHash(entry: Record<string, unknown>, path: string, Err: InputErrorClass): { value: Record<string, unknown>; path: string } {
  const name = entry.expectations !== undefined && entry.expectations !== null ? "expectations" : "expect";
  const value = entry[name];
  if (value === undefined || value === null) return { value: {}, path: `${path}.${name}` };
  if (!isPlainObject(value)) throw new Err("scenario expectations must be an object", { path: `${path}.${name}` });
  for (const key of Object.keys(value)) {
    const problem = expectationKeyProblem(key);
    if (problem) throw new Err(problem, { path: `${path}.${name}.${key}` });
  }
  return { value, path: `${path}.${name}` };
}

function tagsOf(value: unknown, path: string, Err: InputErrorClass): string[] {
  return textList(value, path, Err, "tag");
}

function paramsOf(value: unknown, path: string, Err: InputErrorClass): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (!isPlainObject(value)) throw new Err("params must be a mapping", { path });
  return { ...value };
}

/** Refuses a key, group or tool name a reader could not tell from another (support/identifierText). */
export function assertIdentifier(text: string | null, path: string, Err: InputErrorClass): void {
  const problem = text === null ? null : identifierTextProblem(text);
  if (problem) throw new Err(problem, { path });
}

/**
 * Refuses two scenario keys of one set that read alike (`a` and a Cyrillic `а`), at the second's
 * path: `scenarios[i].key`, i its place in `keys` (or `indexes[place]` when some were skipped).
 */
export function assertDistinctKeys(keys: readonly string[], path: string, Err: InputErrorClass, indexes?: readonly number[]): void {
  const pair = lookAlikePair(keys);
  if (!pair) return;
  const place = keys.indexOf(pair.second);
  throw new Err(lookAlikeRule(pair, "scenario keys"), { path: `${path}[${indexes?.[place] ?? place}].key` });
}

export interface ScenarioDefaults {
  group?: string | null;
  groupName?: string | null;
}

/**
 * `Scenario.from_hash` (reference-core §1) with validation: the nested expectation wins over
 * a top-level `tools` / `contains` / `not_contains`.
 */
export function readScenarioHash(entry: unknown, path: string, Err: InputErrorClass, defaults: ScenarioDefaults = {}): ScenarioInit {
  if (!isPlainObject(entry)) throw new Err("each evaluation scenario must contain a prompt", { path });
  const prompt = entry.prompt;
  if (typeof prompt !== "string" || isBlank(prompt)) throw new Err("each evaluation scenario must contain a prompt", { path: `${path}.prompt` });
  const expect = expectationHash(entry, path, Err);
  const pick = (field: string) =>
    expect.value[field] !== undefined && expect.value[field] !== null
      ? { value: expect.value[field], path: `${expect.path}.${field}` }
      : { value: entry[field], path: `${path}.${field}` };
  const tools = pick("tools");
  const contains = pick("contains");
  const notContains = pick("not_contains");
  const group = scalarText(entry.group, `${path}.group`, Err);
  const groupName = scalarText(entry.group_name, `${path}.group_name`, Err);
  const notes = scalarText(entry.notes, `${path}.notes`, Err);
  const key = scalarText(entry.key, `${path}.key`, Err)?.trim() ?? "";
  assertIdentifier(key, `${path}.key`, Err);
  assertIdentifier(isBlank(group) ? null : (group as string).trim(), `${path}.group`, Err);
  // key, group and group_name: nil when blank, else stripped (reference-core §2.1).
  return {
    key,
    prompt: prompt.trim(),
    group: isBlank(group) ? (defaults.group ?? null) : (group as string).trim(),
    groupName: isBlank(groupName) ? (defaults.groupName ?? null) : (groupName as string).trim(),
    expectedTools: textList(tools.value, tools.path, Err, "tool"),
    expectedPatterns: textList(contains.value, contains.path, Err, "pattern"),
    forbiddenPatterns: textList(notContains.value, notContains.path, Err, "pattern"),
    notes: isBlank(notes) ? null : notes,
    productionOnly: entry.production_only === true,
    position: typeof entry.position === "number" ? entry.position : null,
    tags: tagsOf(entry.tags, `${path}.tags`, Err),
    params: paramsOf(entry.params, `${path}.params`, Err),
  };
}
