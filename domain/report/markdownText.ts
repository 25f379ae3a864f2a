// Untrusted text (prompts, answers, tool output, judge prose) placed into Markdown so that it
// can never break the structure around it: a table cell stays one cell, a `<details>` block
// stays open until our own `</details>`, a quote stays a quote. Angle brackets and ampersands
// become entities (so `</details>` or `<script>` in an answer is only text), `|` is escaped in
// cells, line breaks are folded where the construct is one line long, and control and bidi
// characters are shown as their code points (../support/visibleControls.ts). Each function tests its text
// once, for all of these, and returns the usual text with nothing in it as it is.
import { codeAwareLines } from "./markdownCode.js";
import { CONTROL_CLASS, visibleControls } from "../support/visibleControls.js";

const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029\u0085\v\f]/g;
const HAS_BREAK = /[\r\n\u2028\u2029\u0085\v\f]/;
const ENTITY_CHARS = /[&<>]/g;
const HAS_ENTITY_CHAR = /[&<>]/;
const TEXT_CHARS = /[&<>[\\]/g;
const HAS_TEXT_CHAR = /[&<>[\\]/;
const INLINE_CHARS = /[&<>[\\`]/g;
/** Anything inline() changes: an escaped character, a line break or a control. */
const INLINE_CHANGES = new RegExp(`[&<>[\\\\\`\\r\\n\\u2028\\u2029\\u0085\\v\\f${CONTROL_CLASS}]`);
/** Anything code() or htmlInline() must look at: a line break or a control (htmlInline adds its own). */
const BREAK_OR_CONTROL = new RegExp(`[\\r\\n\\u2028\\u2029\\u0085\\v\\f${CONTROL_CLASS}]`);
const HTML_INLINE_CHANGES = new RegExp(`[&<>"\\r\\n\\u2028\\u2029\\u0085\\v\\f${CONTROL_CLASS}]`);
const PIPE = /\|/g;
const HAS_CODE = /`|~~~/;
/** Anything quote() changes: an escaped character, a line break or a control. */
const QUOTE_CHANGES = new RegExp(`[&<>[\\\\\\r\\n\\u2028\\u2029\\u0085\\v\\f${CONTROL_CLASS}]`);
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "[": "\\[", "\\": "\\\\", "`": "\\`" };
const entity = (c: string): string => ENTITIES[c];

/** `&`, `<`, `>` as entities: Markdown renders them back as the characters, HTML never sees a tag. */
function escapeAngles(text: string): string {
  return HAS_ENTITY_CHAR.test(text) ? text.replace(ENTITY_CHARS, entity) : text;
}

/**
 * Untrusted prose for Markdown: angle brackets and ampersands as entities, and `[` escaped so an
 * answer cannot open a link or an image (no `javascript:` target, no tracking pixel loads). A
 * backslash is escaped too, or the answer's own `\\` before a `[` would escape our escape.
 */
export function escapeText(text: string): string {
  return HAS_TEXT_CHAR.test(text) ? text.replace(TEXT_CHARS, entity) : text;
}

/** Every line break (and run of them) becomes one space: for one-line constructs. */
export function foldLines(text: string): string {
  return HAS_BREAK.test(text) ? text.replace(LINE_BREAKS, " ").replace(/ {2,}/g, " ") : text;
}

/**
 * Text inside a running line (a list item, a paragraph line): escaped and folded. Backticks are
 * escaped too: such a line also holds our own code spans (a tool's name, a model's label), and a
 * stray backtick in the text would pair with one of their fences, turning the untrusted text
 * inside that span into live Markdown (a tool named `<img src=…>` loading a pixel).
 */
export function inline(text: string | null | undefined): string {
  if (text == null) return "";
  if (!INLINE_CHANGES.test(text)) return text;
  return foldLines(visibleControls(text).replace(INLINE_CHARS, entity));
}

/** A table cell: inline text with every `|` escaped, so the row keeps its column count. */
export function cell(text: string | null | undefined): string {
  const out = inline(text);
  return out.includes("|") ? out.replace(PIPE, "\\|") : out;
}

/**
 * A code span holding `text` (labels, keys, tool names), fenced with one backtick more than the
 * longest run inside it. Inside a table cell pass `inCell` so `|` is escaped (GFM honours `\|`
 * in a code span within a table).
 */
export function code(text: string, inCell = false): string {
  let body = BREAK_OR_CONTROL.test(text) ? foldLines(visibleControls(text)) : text;
  if (inCell && body.includes("|")) body = body.replace(PIPE, "\\|");
  if (!body.includes("`")) return `\`${body}\``;
  const longest = Math.max(...(body.match(/`+/g) ?? [""]).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence} ${body} ${fence}`;
}

/**
 * A block quote of multi-line text: every line prefixed, blank lines kept as `>` so the quote
 * (and any fence or list an answer opens inside it) ends exactly where the text ends. Code the
 * text fences or puts in a code span stays as written (codeAwareLines).
 */
export function quote(text: string): string {
  // The usual answer: one line with nothing to escape, found by one scan instead of two.
  if (!QUOTE_CHANGES.test(text)) return text.trim() === "" ? ">" : `> ${text}`;
  text = visibleControls(text);
  const lines = HAS_CODE.test(text) ? codeAwareLines(text.split(LINE_BREAKS)) : escapeText(text).split(LINE_BREAKS);
  let out = "";
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    if (i > 0) out += "\n";
    out += line.trim() === "" ? ">" : `> ${line}`;
  }
  return out;
}

/** Text for an HTML element written on one line (a `<summary>`): HTML-escaped and folded. */
export function htmlInline(text: string): string {
  if (!HTML_INLINE_CHANGES.test(text)) return text;
  const escaped = escapeAngles(visibleControls(text));
  return foldLines(escaped.includes('"') ? escaped.replace(/"/g, "&quot;") : escaped);
}
