// Text PostgreSQL can store: `text` and `jsonb` refuse a NUL character and an unpaired UTF-16
// surrogate, though a JS string (and JSON, as an escape) carries both. An event holding one
// cannot be appended to the PostgreSQL or PGlite store, and a read model cannot project it, so
// it is refused before the append (or, for an agent's answer, replaced: see storableTextOf).

export const TEXT_RULE = "must not contain a NUL character (\\u0000) or an unpaired surrogate";

// eslint-disable-next-line no-control-regex -- NUL is what it finds
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex -- NUL is what it finds
const UNSTORABLE_ALL = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// A NUL or any surrogate at all: most text has neither, and this test has no lookaround.
// eslint-disable-next-line no-control-regex -- NUL is what it finds
const MAYBE_UNSTORABLE = /[\u0000\ud800-\udfff]/;

export function isStorableText(text: string): boolean {
  return !MAYBE_UNSTORABLE.test(text) || !UNSTORABLE.test(text);
}

/** The text with each NUL and unpaired surrogate replaced by U+FFFD, as a decoder would. */
export function storableTextOf(text: string): string {
  return isStorableText(text) ? text : text.replace(UNSTORABLE_ALL, "\ufffd");
}

/**
 * Where in a JSON-like value the first string (or object key) breaks the rule: `prefix` followed
 * by `.key` and `[i]` steps, with " (a key)" when it is a key; null when there is none.
 */
export function unstorableTextPath(value: unknown, prefix = "", depth = 0): string | null {
  if (typeof value === "string") return isStorableText(value) ? null : prefix;
  if (depth > 200 || value === null || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextPath(value[i], `${prefix}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    if (!isStorableText(key)) return `${prefix} (a key)`;
    const found = unstorableTextPath((value as Record<string, unknown>)[key], `${prefix}.${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

// JSON.stringify writes a NUL as \u0000 and an unpaired surrogate as a \udXXX escape (a paired
// one is written as it is), and writes no other \u0000 or \ud800-\udfff escape: a backslash of
// the text itself comes out doubled, so an escape is a \u after an even run of backslashes.
const ESCAPED_UNSTORABLE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/** Whether JSON text written by JSON.stringify holds no NUL and no unpaired surrogate. */
export function isStorableJson(json: string): boolean {
  // Almost every event has no \u escape at all.
  return !json.includes("\\u") || !ESCAPED_UNSTORABLE.test(json);
}

/**
 * A JSON-like value with storableTextOf applied to every string and key; the value itself when
 * nothing needed replacing (the usual case, so nothing is copied).
 */
export function storableJsonOf<T>(value: T, depth = 0): T {
  if (typeof value === "string") return storableTextOf(value) as T;
  if (depth > 200 || value === null || typeof value !== "object" || unstorableTextPath(value) === null) return value;
  if (Array.isArray(value)) return value.map((item) => storableJsonOf(item, depth + 1)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) copy[storableTextOf(key)] = storableJsonOf(inner, depth + 1);
  return copy as T;
}
