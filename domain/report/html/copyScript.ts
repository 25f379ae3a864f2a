// The page's one script: the Copy as Markdown buttons. Each button names the hidden <pre> that
// holds its Markdown (HTML-escaped like everything else, read back through textContent). When
// the Clipboard API is missing or refuses, the <pre> is shown and its text selected so the
// reader can copy it by hand.

import { createHash } from "node:crypto";
import { escapeHtml } from "./escape.js";

export const COPY_SCRIPT = [
  "(function () {",
  "  function select(source, button) {",
  "    source.hidden = false;",
  "    var range = document.createRange();",
  "    range.selectNodeContents(source);",
  "    var selection = window.getSelection();",
  "    selection.removeAllRanges();",
  "    selection.addRange(range);",
  '    button.textContent = "Selected: press Ctrl+C / \\u2318C";',
  "  }",
  '  document.addEventListener("click", function (event) {',
  '    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;',
  "    if (!button) return;",
  '    var source = document.getElementById(button.getAttribute("data-copy"));',
  "    if (!source) return;",
  "    var text = source.textContent;",
  "    var clipboard = navigator.clipboard;",
  "    if (!clipboard || !clipboard.writeText) { select(source, button); return; }",
  "    clipboard.writeText(text).then(function () {",
  '      button.textContent = "Copied";',
  '      button.setAttribute("data-copied", "true");',
  "    }, function () { select(source, button); });",
  "  });",
  "})();",
].join("\n");

/** For the page's Content-Security-Policy: only this script may run. */
export const COPY_SCRIPT_HASH = `sha256-${createHash("sha256").update(COPY_SCRIPT, "utf8").digest("base64")}`;

/** A Copy as Markdown button and the hidden source it copies; nothing when there is no Markdown. */
export function copyBlock(id: string, markdown: string | null | undefined, label = "Copy as Markdown"): string {
  if (typeof markdown !== "string" || markdown === "") return "";
  return (
    `<button type="button" class="copy" data-copy="${escapeHtml(id)}">${escapeHtml(label)}</button>` +
    // The parser drops one newline right after <pre>; this one, so the Markdown's own survive.
    `<pre class="md-source" id="${escapeHtml(id)}" hidden>\n${escapeHtml(markdown)}</pre>`
  );
}
