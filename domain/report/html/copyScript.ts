// The page's one script: the Copy as Markdown buttons. A button names the hidden <pre> sources
// that hold its Markdown (HTML-escaped like everything else, read back through textContent),
// one id or several joined in order; a button with a `data-range` copies that slice of the
// whole report's source (#md-report), so a piece of the report is not on the page twice. When the Clipboard API is missing or refuses, the text is
// shown in a <pre> right after the button and selected, so the reader can copy it by hand.

import { createHash } from "node:crypto";
import type { Chunks } from "./chunks.js";
import { escapeHtml } from "./escape.js";
import { escapeSource } from "./escapeSource.js";

export const COPY_SCRIPT = [
  "(function () {",
  "  function select(button, text) {",
  // A rendered <pre> drops its last line break from a selection; a second one keeps it.
  '    var shown = button.nextElementSibling;',
  '    if (!shown || !shown.classList.contains("md-shown")) {',
  '      shown = document.createElement("pre");',
  '      shown.className = "md-source md-shown";',
  '      shown.textContent = text.charAt(text.length - 1) === "\\n" ? text + "\\n" : text;',
  "      button.parentNode.insertBefore(shown, button.nextSibling);",
  "    }",
  "    shown.hidden = false;",
  "    var range = document.createRange();",
  "    range.selectNodeContents(shown);",
  "    var selection = window.getSelection();",
  "    selection.removeAllRanges();",
  "    selection.addRange(range);",
  '    button.textContent = "Selected: press Ctrl+C / \\u2318C";',
  "  }",
  '  document.addEventListener("click", function (event) {',
  '    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;',
  "    if (!button) return;",
  '    var ids = button.getAttribute("data-copy").split(" ");',
  '    var range = button.getAttribute("data-range");',
  '    var text = "";',
  "    if (range) {",
  '      var whole = document.getElementById("md-report");',
  "      if (!whole) return;",
  '      var at = range.split(" ");',
  "      text = whole.textContent.slice(Number(at[0]), Number(at[1]));",
  "    } else {",
  "      for (var i = 0; i < ids.length; i++) {",
  "        var source = document.getElementById(ids[i]);",
  "        if (!source) return;",
  "        text += source.textContent;",
  "      }",
  "    }",
  "    var clipboard = navigator.clipboard;",
  "    if (!clipboard || !clipboard.writeText) { select(button, text); return; }",
  "    clipboard.writeText(text).then(function () {",
  '      button.textContent = "Copied";',
  '      button.setAttribute("data-copied", "true");',
  "    }, function () { select(button, text); });",
  "  });",
  "})();",
].join("\n");

/** For the page's Content-Security-Policy: only this script may run. */
export const COPY_SCRIPT_HASH = `sha256-${createHash("sha256").update(COPY_SCRIPT, "utf8").digest("base64")}`;

/** A hidden Markdown source. The parser drops one newline right after <pre>; this one, so the Markdown's own survive. */
export function markdownSource(id: string, markdown: string): string {
  return `<pre class="md-source" id="${escapeHtml(id)}" hidden>\n${sourceText(markdown)}</pre>`;
}

// The parser turns a carriage return into a line feed and drops NUL characters in text: as
// references they read back as a one-unit character each, so every range into the whole
// report's source still lands where it did in the Markdown.
const PARSER_CHANGES = /[\r\0]/;

function sourceText(markdown: string): string {
  // Tested on the flat input, not on the escaped rope (a regex would flatten it here).
  const text = escapeHtml(markdown);
  return PARSER_CHANGES.test(markdown) ? text.replace(/\r/g, "&#13;").replace(/\0/g, "&#0;") : text;
}

// The whole report's source is escaped a slice at a time, straight into flat one-byte text
// (escapeSource), so it is neither a long-lived rope nor narrowed again by the chunks.
const SOURCE_SLICE = 64 * 1024;

/** A hidden Markdown source written into the page's chunks (the same bytes as markdownSource). */
export function addMarkdownSource(html: Chunks, id: string, markdown: string): void {
  html.add(`<pre class="md-source" id="${escapeHtml(id)}" hidden>\n`);
  for (let at = 0; at < markdown.length; ) {
    let end = Math.min(markdown.length, at + SOURCE_SLICE);
    // Never between the two halves of a surrogate pair: the escape reads a pair as one character.
    const last = markdown.charCodeAt(end - 1);
    if (end < markdown.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    html.addFlat(escapeSource(markdown, at, end));
    at = end;
  }
  html.add("</pre>");
}

/** A button copying `[from, to)` of the whole report's source (#md-report). */
export function rangeButton(id: string, range: readonly [number, number], label = "Copy as Markdown"): string {
  return `<button type="button" class="copy" data-copy="${escapeHtml(id)}" data-range="${range[0]} ${range[1]}">${escapeHtml(label)}</button>`;
}

export function copyButton(ids: readonly string[], label = "Copy as Markdown"): string {
  return `<button type="button" class="copy" data-copy="${escapeHtml(ids.join(" "))}">${escapeHtml(label)}</button>`;
}

/** A Copy as Markdown button and the hidden source it copies; nothing when there is no Markdown. */
export function copyBlock(id: string, markdown: string | null | undefined, label = "Copy as Markdown"): string {
  if (typeof markdown !== "string" || markdown === "") return "";
  return copyButton([id], label) + markdownSource(id, markdown);
}
