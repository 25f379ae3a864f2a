// Excerpts of an answer, in characters as Ruby counts them (code points), so an emoji is never
// split; and Ruby's `strip`, which trims ASCII whitespace and NUL only.
import { truncate as rubyTruncate } from "../support/truncate.js";

const SURROGATE = /[\uD800-\uDFFF]/;

/** ActiveSupport `truncate`; a string no longer than `length` UTF-16 units is returned without counting. */
export function truncate(text: string, length: number): string {
  return text.length <= length ? text : rubyTruncate(text, length);
}
const EDGE_WHITESPACE = /^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g;

function rubyStrip(text: string): string {
  return text.replace(EDGE_WHITESPACE, "");
}

/**
 * `text[[at - before, 0].max, length].strip`, where `at` is a UTF-16 index (a RegExp match
 * index) and the window is counted in characters.
 */
export function excerptAround(text: string, at: number, before: number, length: number): string {
  if (!SURROGATE.test(text)) {
    const start = Math.max(at - before, 0);
    return rubyStrip(text.slice(start, start + length));
  }
  const chars = Array.from(text);
  const charAt = Array.from(text.slice(0, at)).length;
  const start = Math.max(charAt - before, 0);
  return rubyStrip(chars.slice(start, start + length).join(""));
}

/** Ruby `to_s` of a tool call's detail: a string as is, nil as empty, anything else as JSON. */
export function detailText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") return JSON.stringify(value) ?? "";
  return String(value);
}
