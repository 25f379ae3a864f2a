// What to fix: one card per fix item (fault items, then the judge's instruction changes), with a
// CSS-only filter by model when comparing, and a Copy as Markdown button per card and for all.

import { countOf } from "../../support/pluralize.js";
import { pieceLabel, type CopyLabel } from "./copyScript.js";
import { copyMarkdown } from "./markdownRanges.js";
import { escapeHtml, safeHref } from "./escape.js";
import { faultName } from "./figures.js";
import type { FixItemDoc, ReportMarkdown } from "./reportDocument.js";
import type { ReportView } from "./reportView.js";

function scope(view: ReportView, item: FixItemDoc): string {
  if (item.kind === "instruction") return `${item.scenario_keys.join(", ")} · judge suggestion`;
  let text = countOf(item.scenario_keys.length, "scenario");
  if (view.comparing) {
    const all = view.labels.every((label) => item.models.includes(label));
    text += all ? (view.labels.length === 2 ? " · both models" : " · all models") : ` · ${item.models.join(", ")}`;
  }
  return text;
}

function toolsBlock(item: FixItemDoc): string {
  const tools = item.tools ?? [];
  if (tools.length === 0) return "";
  const entries = tools.map((tool) => `<li><code>${escapeHtml(tool.name)}</code>${tool.note ? ` &#8212; ${escapeHtml(tool.note)}` : ""}</li>`);
  return `<div class="small">${escapeHtml(item.tools_label ?? "tools")}</div><ul>${entries.join("")}</ul>`;
}

function serverBlock(view: ReportView, item: FixItemDoc): string {
  const server = item.server;
  if (!server) return "";
  const enabled = server.status === "enabled";
  const badge = enabled
    ? `<span class="badge ok">${escapeHtml(`enabled for ${view.agentName}`)}</span>`
    : `<span class="badge warn">${escapeHtml(`${server.status} · not enabled for ${view.agentName}`)}</span>`;
  return `<div class="small">served by <strong>${escapeHtml(server.name)}</strong> ${badge}</div>`;
}

function actionBlock(item: FixItemDoc): string {
  const action = item.action;
  if (!action) return "";
  const href = safeHref(action.path);
  const button = href
    ? `<a class="button primary" href="${escapeHtml(href)}" target="_top" rel="noopener noreferrer">${escapeHtml(action.label)}</a>`
    : `<span class="badge">${escapeHtml(action.label)}</span>`;
  return `<div class="action">${button}${action.hint ? `<span class="small">${escapeHtml(action.hint)}</span>` : ""}</div>`;
}

function card(view: ReportView, item: FixItemDoc, index: number, markdown: string | undefined): string {
  const classes = view.labels.map((label, i) => (item.models.includes(label) ? ` m${i}` : "")).join("");
  const glyph = item.kind === "instruction" ? "[i]" : "[!]";
  const title = `${faultName(item.fault)}${item.count > 1 ? ` ×${item.count}` : ""}`;
  return (
    `<div class="fix-card${classes}"><div class="section-head"><div><span class="mono ${item.kind === "instruction" ? "ok-text" : "bad-text"}">${glyph}</span> ` +
    `<h3 class="title">${escapeHtml(title)}</h3> <span class="small">${escapeHtml(scope(view, item))}</span></div>` +
    `${copyMarkdown(view.copyRanges, `md-fix-${index}`, markdown, pieceLabel(`fix item ${index + 1}, ${title}`))}</div>` +
    (item.recommendation ? `<p>${escapeHtml(item.recommendation)}</p>` : "") +
    (item.quote ? `<blockquote>&#8220;${escapeHtml(item.quote)}&#8221;</blockquote>` : "") +
    `${toolsBlock(item)}${serverBlock(view, item)}` +
    (item.note ? `<p class="small">${escapeHtml(item.note)}</p>` : "") +
    `${actionBlock(item)}</div>`
  );
}

function filter(view: ReportView, items: FixItemDoc[]): string {
  const ids = ["fix-all", ...view.labels.map((_, i) => `fix-model-${i}`)];
  const inputs = [`<input type="radio" name="fix-filter" id="fix-all" checked>`];
  const labels = [`<label for="fix-all" class="badge">all models ${items.length}</label>`];
  view.labels.forEach((label, i) => {
    const count = items.filter((item) => item.models.includes(label)).length;
    inputs.push(`<input type="radio" name="fix-filter" id="fix-model-${i}">`);
    labels.push(`<label for="fix-model-${i}" class="badge">${escapeHtml(label)} ${count}</label>`);
  });
  // The radios must stay siblings of the cards for the CSS to reach them, so the group that holds
  // the chips takes them in by aria-owns: a screen reader hears one named group of radios.
  return `${inputs.join("")}<div class="fix-filter" role="radiogroup" aria-label="Filter by model" aria-owns="${ids.join(" ")}">${labels.join("")}</div>`;
}

/**
 * The button copies every model's items whatever chip is checked (the filter is CSS alone, and a
 * per-model piece is not part of the report's Markdown), so when there is a filter it says so.
 */
function allLabel(view: ReportView): CopyLabel {
  return { text: view.comparing ? "Copy all (every model) as Markdown" : "Copy all as Markdown" };
}

export function renderFixCards(view: ReportView, markdown: ReportMarkdown): string {
  if (view.total === 0) return "";
  const items = view.doc.fix_items ?? [];
  const faulted = view.doc.results.filter((r) => r.status !== "passed");
  const scenarios = new Set(faulted.map((r) => r.scenario_key)).size;
  const meta = `${countOf(items.length, "item")} · ${countOf(faulted.length, "fault")} across ${countOf(scenarios, "scenario")}`;
  const head = `<div class="section-head"><h2>What to fix <span class="meta">${escapeHtml(meta)}</span></h2>${items.length ? copyMarkdown(view.copyRanges, "md-fix-items", markdown.fixItems, allLabel(view)) : ""}</div>`;
  if (items.length === 0) return `<section id="fix">${head}<p class="ok-text">[+] nothing to fix</p></section>`;
  const cards = items.map((item, i) => card(view, item, i, markdown.fixItem?.[i])).join("");
  return `<section id="fix">${head}<div class="fix">${view.comparing ? filter(view, items) : ""}<div class="fix-cards">${cards}</div></div></section>`;
}
