// The page's one script: the Copy as Markdown buttons, and the scenario links. A link to a
// scenario's disclosure (the matrix's keys, or a URL ending in #scenario-<key>) opens it: the
// browser only scrolls to a closed <details>, which left one collapsed line to click again.
// A button names the hidden <pre> sources
// that hold its Markdown, one id or several joined in order; a button with a `data-range` copies
// that slice of the whole report's source (#md-report), so a piece of the report is not on the
// page twice. A source is the Markdown's UTF-8 bytes in base64: ASCII that no HTML parser
// changes (a carriage return, a NUL) and no text can break out of, made natively, where escaping
// the 1.6 MB Markdown of 5,000 results character by character took twice as long. The script
// decodes a source once and keeps it. When the Clipboard API is missing or refuses, the text is
// shown in a <pre> right after the button and selected, so the reader can copy it by hand.
// Either outcome is said twice: on the button for 2 s (then its label comes back, so the page
// does not keep a stale "Copied"), and in the page's one live region (#copy-status, emptied when
// the label comes back), because a screen reader does not announce a button's text changing.

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import type { Chunks } from "./chunks.js";
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
  '    tell(button, "Selected: press Ctrl+C / \\u2318C");',
  "  }",
  // Each button's pending restore of its label: a second click starts the 2 s again.
  "  var restores = new WeakMap();",
  // The button whose outcome the live region holds.
  "  var told = null;",
  // The live region is emptied first, so the same message twice in a row is still a change a
  // screen reader announces. It is emptied again when the label comes back, unless another
  // button has spoken since, so a reader browsing to it later does not find a stale outcome.
  "  function tell(button, message) {",
  '    if (!button.hasAttribute("data-label")) button.setAttribute("data-label", button.textContent);',
  "    button.textContent = message;",
  '    var status = document.getElementById("copy-status");',
  "    if (status) {",
  '      status.textContent = "";',
  "      told = button;",
  "      setTimeout(function () { status.textContent = message; }, 50);",
  "    }",
  "    clearTimeout(restores.get(button));",
  "    restores.set(button, setTimeout(function () {",
  '      button.textContent = button.getAttribute("data-label");',
  '      button.removeAttribute("data-copied");',
  "      if (status && told === button) {",
  '        status.textContent = "";',
  "        told = null;",
  "      }",
  "    }, 2000));",
  "  }",
  "  var decoded = {};",
  // The Markdown of a source, or null when the page has no such source.
  "  function source(id) {",
  "    if (!Object.prototype.hasOwnProperty.call(decoded, id)) {",
  "      var element = document.getElementById(id);",
  "      if (!element) return null;",
  // atob drops the whitespace around the base64 (the line break after <pre>).
  "      var binary = atob(element.textContent);",
  "      var bytes = new Uint8Array(binary.length);",
  "      for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);",
  // ignoreBOM: by default a leading U+FEFF is dropped, and the text would not be the Markdown.
  '      decoded[id] = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);',
  "    }",
  "    return decoded[id];",
  "  }",
  // Opens the <details> an in-page link or the URL's fragment points at.
  "  function openTarget(id) {",
  "    var target = id ? document.getElementById(id) : null;",
  '    if (target && target.tagName === "DETAILS") target.open = true;',
  "  }",
  "  function openHash() {",
  "    try { openTarget(decodeURIComponent(location.hash.slice(1))); } catch (error) { /* a malformed fragment names nothing */ }",
  "  }",
  '  window.addEventListener("hashchange", openHash);',
  "  openHash();",
  '  document.addEventListener("click", function (event) {',
  '    var link = event.target.closest ? event.target.closest("a[href^=\'#\']") : null;',
  '    if (link) openTarget(link.getAttribute("href").slice(1));',
  '    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;',
  "    if (!button) return;",
  '    var ids = button.getAttribute("data-copy").split(" ");',
  '    var range = button.getAttribute("data-range");',
  '    var text = "";',
  "    if (range) {",
  '      var whole = source("md-report");',
  "      if (whole === null) return;",
  '      var at = range.split(" ");',
  "      text = whole.slice(Number(at[0]), Number(at[1]));",
  "    } else {",
  "      for (var i = 0; i < ids.length; i++) {",
  "        var part = source(ids[i]);",
  "        if (part === null) return;",
  "        text += part;",
  "      }",
  "    }",
  "    var clipboard = navigator.clipboard;",
  "    if (!clipboard || !clipboard.writeText) { select(button, text); return; }",
  "    clipboard.writeText(text).then(function () {",
  '      tell(button, "Copied");',
  '      button.setAttribute("data-copied", "true");',
  "    }, function () { select(button, text); });",
  "  });",
  "})();",
].join("\n");

/** For the page's Content-Security-Policy: only this script may run. */
export const COPY_SCRIPT_HASH = `sha256-${createHash("sha256").update(COPY_SCRIPT, "utf8").digest("base64")}`;

/** The Markdown as base64 of its UTF-8 bytes (a lone surrogate becomes U+FFFD, one unit for one). */
function encodeSource(markdown: string): string {
  return Buffer.from(markdown, "utf8").toString("base64");
}

const sourceOpen = (id: string): string => `<pre class="md-source" id="${escapeHtml(id)}" hidden>\n`;

/** A hidden Markdown source. */
export function markdownSource(id: string, markdown: string): string {
  return `${sourceOpen(id)}${encodeSource(markdown)}</pre>`;
}

// The whole report's source is encoded a slice at a time through one reused buffer: base64 of
// consecutive runs of 3n bytes reads as the base64 of the whole, and each piece stays a small
// string on V8's heap. (The whole 1.7 MB of UTF-8 and its 2.2 MB of base64 at once are memory
// outside the heap, given back only after a collection: peak RSS 10 MB higher.)
const SOURCE_SLICE = 16 * 1024;
// UTF-8 takes at most 3 bytes a UTF-16 unit; 2 more carried from the slice before.
const scratch = Buffer.allocUnsafe(SOURCE_SLICE * 3 + 2);

/** A hidden Markdown source written into the page's chunks (the same bytes as markdownSource). */
export function addMarkdownSource(html: Chunks, id: string, markdown: string): void {
  html.add(sourceOpen(id));
  let carried = 0;
  for (let at = 0; at < markdown.length; ) {
    let end = Math.min(markdown.length, at + SOURCE_SLICE);
    // Never between the two halves of a surrogate pair: each half alone would encode as U+FFFD.
    const last = markdown.charCodeAt(end - 1);
    if (end < markdown.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    const length = carried + scratch.write(markdown.slice(at, end), carried, "utf8");
    const whole = end === markdown.length ? length : length - (length % 3);
    html.addFlat(scratch.toString("base64", 0, whole));
    carried = length - whole;
    scratch.copyWithin(0, whole, length);
    at = end;
  }
  html.add("</pre>");
}

/** What a Copy button shows, and its accessible name when the text alone would not tell it from the others. */
export interface CopyLabel {
  text: string;
  name?: string;
}

const COPY_TEXT = "Copy as Markdown";

/**
 * A piece's label: every piece's button shows the same short text, and its name says which piece.
 * The name starts with the visible text, so a speech user saying "Copy as Markdown" still finds it.
 */
export function pieceLabel(piece: string): CopyLabel {
  return { text: COPY_TEXT, name: `${COPY_TEXT}: ${piece}` };
}

const PLAIN: CopyLabel = { text: COPY_TEXT };

/** The button's name and text; the name comes after data-copy/data-range, which read first. */
function labelled(label: CopyLabel): string {
  const name = label.name ? ` aria-label="${escapeHtml(label.name)}"` : "";
  return `${name}>${escapeHtml(label.text)}</button>`;
}

/** A button copying `[from, to)` of the whole report's source (#md-report). */
export function rangeButton(id: string, range: readonly [number, number], label: CopyLabel = PLAIN): string {
  return `<button type="button" class="copy" data-copy="${escapeHtml(id)}" data-range="${range[0]} ${range[1]}"${labelled(label)}`;
}

export function copyButton(ids: readonly string[], label: CopyLabel = PLAIN): string {
  return `<button type="button" class="copy" data-copy="${escapeHtml(ids.join(" "))}"${labelled(label)}`;
}

/** A Copy as Markdown button and the hidden source it copies; nothing when there is no Markdown. */
export function copyBlock(id: string, markdown: string | null | undefined, label: CopyLabel = PLAIN): string {
  if (typeof markdown !== "string" || markdown === "") return "";
  return copyButton([id], label) + markdownSource(id, markdown);
}

/** The live region the script writes each copy's outcome into: visually hidden, one per page. */
export const COPY_STATUS = '<div id="copy-status" class="sr-only" role="status"></div>';
