// The whole report's Markdown source on the page (1.6 MB for 5,000 results) escaped in one pass
// into bytes. escapeHtml builds its result from slices and entities: on the Markdown (tens of
// thousands of emoji, `>` and `<`) that was a rope of as many pieces, stored two bytes a
// character because the input is, and then flattened and narrowed to one byte by the page's
// chunks. Here each character is written once into a Latin-1 buffer and the text comes back
// flat and one-byte. Same entities as escapeHtml, plus the two characters a parser would change
// inside a <pre> (a carriage return becomes a line feed, NUL is dropped), so what the page reads
// back through textContent is the Markdown unit for unit.

import { Buffer } from "node:buffer";

// Reused between calls (the page is written synchronously): at most 8 bytes a UTF-16 unit
// (`&#65533;`; a surrogate pair is two units for at most 10 bytes).
let scratch = Buffer.allocUnsafe(64 * 1024 * 8);

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

/**
 * `text[from, to)` escaped for the body of a <pre>, as a flat one-byte string. The caller keeps
 * surrogate pairs whole (`to` never falls between the two halves).
 */
export function escapeSource(text: string, from: number, to: number): string {
  if (scratch.length < (to - from) * 8) scratch = Buffer.allocUnsafe((to - from) * 8);
  const out = scratch;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x100) {
      if (c > 62) out[n++] = c;
      else if (c === 38) n = put(out, n, AMP);
      else if (c === 60) n = put(out, n, LT);
      else if (c === 62) n = put(out, n, GT);
      else if (c === 34) n = put(out, n, QUOT);
      else if (c === 39 || c === 13 || c === 0) n = putReference(out, n, c);
      else out[n++] = c;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate pair is one character (one reference); a lone surrogate is not text at all.
      const next = c <= 0xdbff && i + 1 < to ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        n = putReference(out, n, (c - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000);
        i += 1;
      } else {
        n = putReference(out, n, 65533);
      }
    } else {
      n = putReference(out, n, c);
    }
  }
  return out.toString("latin1", 0, n);
}
