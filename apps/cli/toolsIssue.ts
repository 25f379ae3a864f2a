// A tools file's first problem (`--tools FILE`, `tools: [{ name, description?, server? }]`) in
// plain words, as a catalog's are worded: a misspelt key is named as unknown, with the keys
// allowed and the one it most likely meant; a path is written `tools[0].name`. zod's own words
// ("tools.0.name: Invalid input: expected string, received undefined") pointed at the missing
// `name`, not at the `nme` beside it that caused it.
import type { z } from "zod";
import { likelyMeant } from "@verdict/domain";

/** What each expected type is called in a refusal. */
const NOUNS: Record<string, string> = { string: "text", array: "a list", object: "a mapping" };

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), "");
}

function unknownKey(path: readonly PropertyKey[], key: string, toolKeys: readonly string[]): string {
  const inTool = path.length > 0;
  const allowed = inTool ? toolKeys : ["tools"];
  const rule = inTool ? `unknown key; a tool takes ${allowed.join(", ")}` : "unknown key; a tools file takes tools";
  const meant = likelyMeant(key, allowed);
  return `${pathText([...path, key])}: ${rule}${meant ? ` (did you mean ${meant}?)` : ""}`;
}

/** The refusal of `issues` (a tools document's): an unknown key first, as it explains a key missing beside it. */
export function toolsIssueText(issues: readonly z.core.$ZodIssue[], document: unknown, toolKeys: readonly string[]): string {
  const unrecognized = issues.find((issue) => issue.code === "unrecognized_keys");
  if (unrecognized) return unknownKey(unrecognized.path, unrecognized.keys[0], toolKeys);
  const issue = issues[0];
  const where = pathText(issue.path) || "the file";
  if (issue.code !== "invalid_type") return `${where}: ${issue.message}`;
  const value = issue.path.reduce<unknown>((at, part) => (at as Record<PropertyKey, unknown> | null | undefined)?.[part], document);
  const expected = NOUNS[issue.expected] ?? issue.expected;
  return value === undefined ? `${where}: missing; it must be ${expected}` : `${where}: must be ${expected}`;
}
