// The whole report's Markdown source on the page (1.6 MB for 5,000 results) escaped in one pass
// into bytes. escapeHtml builds its result from slices and entities: on the Markdown (tens of
// thousands of emoji, `>` and `<`) that was a rope of as many pieces, stored two bytes a
// character because the input is, and then flattened and narrowed to one byte. Here each
// character is written once into a Latin-1 buffer and the text comes back flat and one-byte.
// Same entities as escapeHtml, plus the two characters a parser would change inside a <pre>
// (a carriage return becomes a line feed, NUL is dropped), so what the page reads back through
// textContent is the Markdown unit for unit.

import { Buffer } from "node:buffer";

// Reused between calls of escapeSource (synchronous).
let scratch = Buffer.allocUnsafe(64 * 1024);

/** 1 for a Latin-1 character written as it is: all but & < > " ' and the CR and NUL a parser would change. */
const PLAIN = new Uint8Array(256).fill(1);
for (const c of [38, 60, 62, 34, 39, 13, 0]) PLAIN[c] = 0;

const AMP = [38, 97, 109, 112, 59]; // &amp;
const LT = [38, 108, 116, 59]; // &lt;
const GT = [38, 103, 116, 59]; // &gt;
const QUOT = [38, 113, 117, 111, 116, 59]; // &quot;

function put(out: Buffer, n: number, bytes: readonly number[]): number {
  for (let k = 0; k < bytes.length; k++) out[n + k] = bytes[k];
  return n + bytes.length;
}

/** `&#code;` */
function putReference(out: Buffer, n: number, code: number): number {
  out[n++] = 38;
  out[n++] = 35;
  const digits = code < 10 ? 1 : code < 100 ? 2 : code < 1000 ? 3 : code < 10000 ? 4 : code < 100000 ? 5 : code < 1000000 ? 6 : 7;
  for (let k = digits - 1; k >= 0; k--) {
    out[n + k] = 48 + (code % 10);
    code = Math.floor(code / 10);
  }
  n += digits;
  out[n++] = 59;
  return n;
}

/** At most this many bytes per UTF-16 unit of input (`&#65533;`; a surrogate pair is two units for at most 10 bytes). */
const SOURCE_BYTES_PER_UNIT = 8;

/**
 * `text[from, to)` escaped for the body of a <pre>, as a flat one-byte string. The caller keeps
 * surrogate pairs whole (`to` never falls between the two halves).
 */
export function escapeSource(text: string, from: number, to: number): string {
  if (scratch.length < (to - from) * SOURCE_BYTES_PER_UNIT) scratch = Buffer.allocUnsafe((to - from) * SOURCE_BYTES_PER_UNIT);
  return scratch.toString("latin1", 0, escapeSourceInto(text, from, to, scratch, 0));
}

/** The escaped bytes written into `out` from `at` (room for SOURCE_BYTES_PER_UNIT a unit); returns where they end. */
function escapeSourceInto(text: string, from: number, to: number, out: Buffer, at: number): number {
  let n = at;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    // Nearly every character is written as it is (one in ~50 of a report's Markdown is not).
    if (c < 0x100 && PLAIN[c] === 1) out[n++] = c;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A surrogate pair is one character (one reference).
      n = putReference(out, n, (c - 0xd800) * 0x400 + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000);
      i += 1;
    } else {
      n = putSpecial(out, n, c);
    }
  }
  return n;
}

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** An entity or reference for one UTF-16 unit that is not written as it is (a lone surrogate is not text: U+FFFD). */
function putSpecial(out: Buffer, n: number, c: number): number {
  if (c === 38) return put(out, n, AMP);
  if (c === 60) return put(out, n, LT);
  if (c === 62) return put(out, n, GT);
  if (c === 34) return put(out, n, QUOT);
  return putReference(out, n, c >= 0xd800 && c <= 0xdfff ? 65533 : c);
}
