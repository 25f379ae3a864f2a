// The page's one script: the Copy as Markdown buttons. A button names the hidden <pre> sources
// that hold its Markdown (HTML-escaped like everything else, read back through textContent),
// one id or several joined in order. When the Clipboard API is missing or refuses, the text is
// shown in a <pre> right after the button and selected, so the reader can copy it by hand.

import { createHash } from "node:crypto";
import { escapeHtml } from "./escape.js";

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
  '    var text = "";',
  "    for (var i = 0; i < ids.length; i++) {",
  "      var source = document.getElementById(ids[i]);",
  "      if (!source) return;",
  "      text += source.textContent;",
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
  return `<pre class="md-source" id="${escapeHtml(id)}" hidden>\n${escapeHtml(markdown)}</pre>`;
}

export function copyButton(ids: readonly string[], label = "Copy as Markdown"): string {
  return `<button type="button" class="copy" data-copy="${escapeHtml(ids.join(" "))}">${escapeHtml(label)}</button>`;
}

/** A Copy as Markdown button and the hidden source it copies; nothing when there is no Markdown. */
export function copyBlock(id: string, markdown: string | null | undefined, label = "Copy as Markdown"): string {
  if (typeof markdown !== "string" || markdown === "") return "";
  return copyButton([id], label) + markdownSource(id, markdown);
}

export interface ComposedMarkdown {
  /** Source ids, in order, whose texts concatenate to the whole. */
  ids: string[];
  /** The text between the pieces, as sources to embed: [id, text]. */
  glue: [string, string][];
}

/**
 * The whole report's Markdown as the pieces the page already carries (verdict, each scenario,
 * What to fix) plus the text between them, so the page does not hold every answer twice. Exact
 * by construction: each piece is found in order and the rest is kept verbatim. Null when a piece
 * is not found (the whole text is then embedded as is).
 */
export function composeMarkdown(whole: string, pieces: readonly (readonly [string, string])[]): ComposedMarkdown | null {
  const ids: string[] = [];
  const glue: [string, string][] = [];
  let cursor = 0;
  const addGlue = (text: string): void => {
    if (text === "") return;
    const id = `md-glue-${glue.length}`;
    glue.push([id, text]);
    ids.push(id);
  };
  for (const [id, text] of pieces) {
    if (text === "") continue;
    const at = whole.indexOf(text, cursor);
    if (at < 0) return null;
    addGlue(whole.slice(cursor, at));
    ids.push(id);
    cursor = at + text.length;
  }
  addGlue(whole.slice(cursor));
  return { ids, glue };
}
