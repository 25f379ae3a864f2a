// The one escape function of the page. Everything that is not a literal of this module passes
// through it, in text and in attributes alike (quotes are escaped too, so one function serves
// both). Characters beyond Latin-1 become numeric references, so the whole page stays a one-byte
// string in V8 (half the memory and copying of a page that has a single dash or emoji in it).
// A string with nothing to escape is returned as is, which keeps the common case cheap.
// Control and bidi characters are shown as their code points, `⟨U+202E⟩`, as the Markdown shows
// them (../../support/visibleControls.ts): a right-to-left override in a label reversed the rest of its line.

import { Buffer } from "node:buffer";
import { codePointLabel } from "../../support/identifierText.js";

// Controls too (tab, LF and CR are text): the HTML parser drops NUL, so an answer's `x\0y` read
// `xy` on the page, and the others showed as nothing. The bidi controls are beyond Latin-1.
// eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
const SPECIAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f&<>"'\u007f-\u009f\u0100-\uffff]/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;

export function escapeHtml(value: unknown): string {
  const text = value == null ? "" : typeof value === "string" ? value : String(value);
  // The regex test is native and fast on the many strings with nothing to escape.
  if (!SPECIAL.test(text)) return text;
  return escapeFrom(text);
}

/**
 * One pass over text that has something to escape: runs of plain characters are sliced, each
 * special one replaced. Measured ~1.5x faster than the two native replaces with a callback per
 * match it replaces (an answer may carry a wide character on every line).
 */
function escapeFrom(text: string): string {
  let out = "";
  let last = 0;
  let wide = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let entity: string;
    if (c < 0x100) {
      if (c === 38) entity = "&amp;";
      else if (c === 60) entity = "&lt;";
      else if (c === 62) entity = "&gt;";
      else if (c === 34) entity = "&quot;";
      else if (c === 39) entity = "&#39;";
      else if (c < 32 ? c !== 9 && c !== 10 && c !== 13 : c >= 0x7f && c <= 0x9f) entity = shown(c);
      else continue;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      wide = true;
      // A surrogate pair is one character (one reference); a lone surrogate is not text at all.
      const next = c <= 0xdbff && i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        if (i > last) out += text.slice(last, i);
        out += `&#${(c - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000};`;
        i += 1;
        last = i + 1;
        continue;
      }
      entity = "&#65533;";
    } else {
      wide = true;
      entity = (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ? shown(c) : `&#${c};`;
    }
    if (i > last) out += text.slice(last, i);
    out += entity;
    last = i + 1;
  }
  out = last < n ? out + text.slice(last) : out;
  // The input held a character beyond Latin-1, so it is stored two bytes a character and so
  // are the slices above; the result holds none (each became a reference) and comes back
  // one-byte through a latin1 round trip, or the page chunk it joins would be two-byte.
  return wide ? Buffer.from(out, "latin1").toString("latin1") : out;
}

/** A control character as the page shows it, `⟨U+001B⟩`, in one-byte references. */
function shown(unit: number): string {
  return `&#10216;${codePointLabel(unit)}&#10217;`;
}

/**
 * An href the page may link to: a same-site path, a fragment, or an http(s) URL. Anything
 * else (`javascript:`, `data:`, protocol-relative `//host`) is refused and the caller renders
 * plain text instead. So is any control character: a browser drops tabs and line breaks from a
 * URL before reading it, so `/<tab>/evil.example` would open `//evil.example`.
 */
export function safeHref(path: unknown): string | null {
  if (typeof path !== "string") return null;
  const trimmed = path.trim();
  if (trimmed === "" || CONTROL.test(trimmed)) return null;
  if (/^https?:\/\/[^\s]/i.test(trimmed)) return trimmed;
  if ((trimmed.startsWith("/") && !trimmed.startsWith("//") && !trimmed.startsWith("/\\")) || trimmed.startsWith("#")) {
    return trimmed;
  }
  return null;
}

/**
 * Ruby's String#truncate counting code points as Ruby does: longer than n keeps n - 3 characters
 * plus `...`. Walks at most n characters, so a 1 MB answer costs no more than a short one.
 */
export function truncate(text: string, n: number): string {
  if (text.length <= n) return text;
  const keep = Math.max(0, n - 3);
  let units = 0;
  let chars = 0;
  let cutAt = -1;
  while (units < text.length) {
    if (chars === keep) cutAt = units;
    if (chars === n) return text.slice(0, cutAt) + "...";
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < text.length ? 2 : 1;
    chars += 1;
  }
  return text;
}
