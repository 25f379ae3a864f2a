// A small seeded PRNG and input generators for the parser fuzz test (tests only): random
// texts from YAML/JSON/line-format tokens, and mutations of the real fixtures.

export { seededRandom } from "../stats/prng.js";

const TOKENS = [
  "\n", "\n  ", "\n    - ", " ", "  ", "\t", "- ", "* ", "1. ", "# ", "**", "__", "`", "|", " | ", ": ", ":", "?",
  "[", "]", "{", "}", ",", '"', "'", "\\", "&a ", "*a", "!!str ", "!!binary ", "!ruby/object ", "---", "...", "~", "null",
  "true", "yes", "0x1F", "1e3", "2024-01-01", "suite:", "groups:", "catalog:", "products:", "sets:", "scenarios:",
  "key:", "prompt:", "expect:", "tools:", "contains:", "not_contains:", "notes:", "tags:", "params:", "production_only:",
  "| tools: a, b", "| contains: /x(/", "| key: k", "/a+/i", "/(/", "—", "é", "😀", "\u0000", "\r\n", "<<: *a",
  '{"prompt": "p"}', '[{"prompt": 1}]', '"tools": [1]', "%YAML 1.2\n", "__proto__:", "constructor:", "toString:",
];

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

export function randomText(random: () => number): string {
  const parts: string[] = [];
  const count = Math.floor(random() * 40);
  for (let i = 0; i < count; i += 1) {
    parts.push(random() < 0.7 ? pick(random, TOKENS) : String.fromCharCode(32 + Math.floor(random() * 95)));
  }
  return parts.join("");
}

export function mutate(random: () => number, text: string): string {
  let out = text;
  const edits = 1 + Math.floor(random() * 4);
  for (let i = 0; i < edits; i += 1) {
    const at = Math.floor(random() * (out.length + 1));
    const roll = random();
    if (roll < 0.3) out = out.slice(0, at) + pick(random, TOKENS) + out.slice(at);
    else if (roll < 0.55) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 8));
    else if (roll < 0.75) out = swapLines(random, out);
    else if (roll < 0.9) out = out.slice(0, at) + String.fromCharCode(Math.floor(random() * 128)) + out.slice(at + 1);
    else out = duplicateLine(random, out);
  }
  return out;
}

function swapLines(random: () => number, text: string): string {
  const lines = text.split("\n");
  const a = Math.floor(random() * lines.length);
  const b = Math.floor(random() * lines.length);
  [lines[a], lines[b]] = [lines[b], lines[a]];
  return lines.join("\n");
}

function duplicateLine(random: () => number, text: string): string {
  const lines = text.split("\n");
  const at = Math.floor(random() * lines.length);
  lines.splice(at, 0, lines[at]);
  return lines.join("\n");
}

/** A random JSON-like value, as Suite.fromDocuments / new Catalog receive already-parsed documents. */
export function randomValue(random: () => number, depth = 0): unknown {
  const roll = random();
  if (depth > 4 || roll < 0.3) return pick(random, [null, true, false, 0, -1.5, "", "x", "prompt", "/(/", [], {}, Number.POSITIVE_INFINITY]);
  if (roll < 0.65) {
    const obj: Record<string, unknown> = {};
    const keys = ["catalog", "suite", "groups", "products", "sets", "scenarios", "key", "prompt", "expect", "tools", "contains", "params", "tags", "judge", "criteria", "name"];
    const count = Math.floor(random() * 5);
    for (let i = 0; i < count; i += 1) obj[pick(random, keys)] = randomValue(random, depth + 1);
    return obj;
  }
  return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
}
