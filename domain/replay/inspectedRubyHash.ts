// A tool result a RubyLLM host passes on as text: a Ruby hash's `inspect` (reference-core §15),
// `{:error=>"boom"}` (Ruby before 3.4) or `{error: "boom"}` / `{"error" => "boom"}` (3.4). Only a
// top-level `error` key holding a string literal reports a failure (`{:error=>nil}` does not), and
// only in text that is one whole hash: a log line that quotes one is a successful result.

const ERROR_KEY = /(?::error\s*=>|error:|"error"\s*=>)\s*(?=")/y;
const ESCAPE = /\\(?:u\{([0-9a-fA-F]{1,6}(?: [0-9a-fA-F]{1,6})*)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{1,2})|([\s\S]))/g;
const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", e: "\x1b", s: " ", a: "\x07", b: "\b", f: "\f", v: "\v", "0": "\0" };
const OPENERS = "{[(";
const CLOSERS = "}])";

/** The unescaped `error` string of an inspected Ruby hash, or null when the text is not one with such a key. */
export function inspectedHashError(text: string): string | null {
  const body = text.trim();
  if (!body.startsWith("{") || !body.endsWith("}")) return null;
  let depth = 0;
  let entryStart = false;
  let error: string | null = null;
  for (let at = 0; at < body.length; ) {
    const char = body[at];
    if (depth === 1 && entryStart && char.trim() !== "") {
      entryStart = false;
      ERROR_KEY.lastIndex = at;
      if (error === null && ERROR_KEY.test(body)) {
        const open = ERROR_KEY.lastIndex;
        const end = quotedEnd(body, open);
        if (end < 0) return null;
        error = unescape(body.slice(open + 1, end - 1));
        at = end;
        continue;
      }
    }
    if (char === '"' || char === "'") {
      at = quotedEnd(body, at);
      if (at < 0) return null;
      continue;
    }
    if (OPENERS.includes(char)) {
      depth += 1;
      entryStart = depth === 1;
    } else if (CLOSERS.includes(char)) {
      depth -= 1;
      // The hash closed before the text's end: this is not one whole hash.
      if (depth === 0 && at !== body.length - 1) return null;
    } else if (char === "," && depth === 1) {
      entryStart = true;
    }
    at += 1;
  }
  return depth === 0 && error !== "" ? error : null;
}

/**
 * Where the quoted text opening at `open` ends (past its closing quote), or -1 when it does not
 * close. Walked by hand, not by a regex: a regex over a multi-megabyte literal ran out of stack.
 */
function quotedEnd(text: string, open: number): number {
  const quote = text.charCodeAt(open);
  for (let at = open + 1; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === BACKSLASH) at += 1;
    else if (code === quote) return at + 1;
  }
  return -1;
}

const BACKSLASH = 0x5c;

/** A Ruby double-quoted literal's escapes, as `inspect` writes them; a stray byte (`\xNN`) or a code point past U+10FFFF reads as U+FFFD. */
function unescape(literal: string): string {
  return literal.replace(ESCAPE, (_all, braced?: string, four?: string, byte?: string, other?: string) => {
    if (braced !== undefined) {
      let text = "";
      for (const hex of braced.split(" ")) text += codePointText(parseInt(hex, 16));
      return text;
    }
    if (four !== undefined) return String.fromCharCode(parseInt(four, 16));
    if (byte !== undefined) return "\ufffd";
    return SIMPLE_ESCAPES[other!] ?? other!;
  });
}

function codePointText(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
}
