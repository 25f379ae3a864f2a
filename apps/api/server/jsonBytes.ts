// How many bytes JSON writes of a value, in UTF-8: what a leaf of a field's answer adds to the
// response (answerWeight.ts). Not estimatedBytes' byte a character (memory, for the terminal-run
// cache): JSON writes a control character as `\u0001` (6 bytes), a quote, backslash or newline as
// 2, and UTF-8 takes 2-4 bytes a character past ASCII, so 100,000 characters of \u0001 weighed
// 100,000 were sent as 600,015 bytes and one request could answer ~6x its budget.
//
// Cost, measured on 20 MB strings (Node 20, one core): ~15-26 ms for text with nothing to escape
// (ASCII, CJK, emoji: Buffer.byteLength, one regex test, isWellFormed), ~50-55 ms when some
// character needs escaping (one pass over the characters), ~85 ms with lone surrogates too;
// JSON.stringify of the same strings, which the answer then costs anyway, took 155-1,500 ms.

/** Characters JSON.stringify escapes: control characters, the quote and the backslash. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const ESCAPED = /[\u0000-\u001f"\\]/;

/** `isWellFormed` is ES2024 (Node 20 has it; the lib this repo compiles against does not name it). */
type WellFormedAware = string & { isWellFormed(): boolean };

/** The exact UTF-8 length of JSON.stringify(text), quotes included. */
function jsonStringBytes(text: string): number {
  let bytes = Buffer.byteLength(text, "utf8") + 2;
  if (ESCAPED.test(text)) bytes += escapeBytes(text);
  // A lone surrogate: Buffer.byteLength counts its replacement (3 bytes); JSON writes `\udxxx` (6).
  if (!(text as WellFormedAware).isWellFormed()) bytes += 3 * loneSurrogates(text);
  return bytes;
}

/** What escaping adds past a byte a character: 1 for \b \t \n \f \r " \\, 5 for other control characters (\u00XX). */
function escapeBytes(text: string): number {
  let extra = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) extra += 1;
    else if (code < 0x20) extra += code >= 0x08 && code <= 0x0d && code !== 0x0b ? 1 : 5;
  }
  return extra;
}

function loneSurrogates(text: string): number {
  let lone = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i += 1; // a pair: 4 bytes either way
    else lone += 1;
  }
  return lone;
}

/**
 * About what JSON writes of a value answered whole (a scalar, or a JSON scalar's object): strings
 * exactly, numbers as written, separators counted. A shared object counts once (as in
 * estimatedBytes): it keeps a cycle from looping, and values parsed from the log share none.
 * Walked with a stack: histories nest deep.
 */
export function jsonBytes(value: unknown): number {
  const seen = new WeakSet<object>();
  const pending: unknown[] = [value];
  let bytes = 0;
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") bytes += jsonStringBytes(next);
    else if (typeof next === "number") bytes += Number.isFinite(next) ? String(next).length : 4;
    else if (typeof next === "boolean") bytes += next ? 4 : 5;
    else if (next === null || typeof next !== "object") bytes += 4; // null; undefined and functions as null (an upper bound)
    else if (typeof (next as { toJSON?: unknown }).toJSON === "function") pending.push((next as { toJSON(): unknown }).toJSON()); // a Date: its ISO string
    else if (!seen.has(next)) {
      seen.add(next);
      bytes += 2; // {} or []
      for (const [key, item] of entriesOf(next)) {
        bytes += (key === null ? 0 : jsonStringBytes(key) + 1) + 1; // "key": and the comma
        pending.push(item); // not push(...): a spread of 100,000s overflows
      }
    }
  }
  return bytes;
}

/** An array's items (no keys), else an object's own keys and values; a Map's or Set's items as an array's (JSON writes them `{}`, an upper bound). */
function* entriesOf(value: object): Iterable<[string | null, unknown]> {
  if (Array.isArray(value) || value instanceof Set) {
    for (const item of value) yield [null, item];
  } else if (value instanceof Map) {
    for (const item of value.values()) yield [null, item];
  } else {
    yield* Object.entries(value);
  }
}
