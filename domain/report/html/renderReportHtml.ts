// The page shell: one self-contained document. Styles are inline, the only script is the copy
// script (pinned by hash in the Content-Security-Policy, so nothing else could run even if some
// text escaped), and the policy forbids every fetch: the page loads nothing from anywhere.

import { Chunks } from "./chunks.js";
import { COPY_SCRIPT, COPY_SCRIPT_HASH, composeMarkdown, copyBlock, copyButton, markdownSource } from "./copyScript.js";
import { renderComparison } from "./comparisonTable.js";
import { escapeHtml } from "./escape.js";
import { renderFixCards } from "./fixCards.js";
import { renderFooter } from "./footer.js";
import { renderHeader, reportTitle } from "./header.js";
import { renderMatrix } from "./scenarioMatrix.js";
import { renderModelPanels } from "./modelPanels.js";
import type { RenderOptions, ReportDocument, ReportMarkdown } from "./reportDocument.js";
import { buildView, type ReportView } from "./reportView.js";
import { renderScenarioDetails } from "./scenarioDetails.js";
import { renderStatTiles } from "./statTiles.js";
import { pageCss } from "./styles.js";

const CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src '${COPY_SCRIPT_HASH}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const REPORT_LABEL = "Copy report as Markdown";

/**
 * The whole report's copy button. When the report's Markdown is made of the pieces the page
 * carries anyway, the button copies those pieces and the text between them (kept in a hidden
 * block at the end of the page); otherwise the whole text is embedded beside the button.
 */
function wholeMarkdown(view: ReportView, markdown: ReportMarkdown): { button: string; sources: string } {
  const report = markdown.report;
  if (typeof report !== "string" || report === "") return { button: "", sources: "" };
  const scenarios = markdown.scenarios ?? {};
  const pieces: [string, string][] = [["md-verdict", markdown.verdict ?? ""]];
  for (const scenario of view.scenarios) {
    pieces.push([`md-scenario-${scenario.index}`, Object.hasOwn(scenarios, scenario.key) ? scenarios[scenario.key] : ""]);
  }
  if (view.doc.results.length > 0) pieces.push(["md-fix-items", (view.doc.fix_items?.length ?? 0) > 0 ? markdown.fixItems ?? "" : ""]);
  const composed = composeMarkdown(report, pieces);
  if (!composed) return { button: copyBlock("md-report", report, REPORT_LABEL), sources: "" };
  const glue = composed.glue.map(([id, text]) => markdownSource(id, text)).join("");
  return { button: copyButton(composed.ids, REPORT_LABEL), sources: glue ? `<div class="md-parts" hidden>${glue}</div>\n` : "" };
}

export function renderReportHtml(doc: ReportDocument, options: RenderOptions): string {
  const view = buildView(Array.isArray(doc.results) ? doc : { ...doc, results: [] });
  const markdown = options.markdown;
  const themeClass = options.theme === "light" || options.theme === "dark" ? ` class="theme-${options.theme}"` : "";
  const whole = wholeMarkdown(view, markdown);
  const header = renderHeader(view, whole.button);
  const tiles = renderStatTiles(view, doc.fix_items?.length ?? 0);
  const models = renderModelPanels(view, copyBlock("md-verdict", markdown.verdict));
  const comparison = renderComparison(view);
  const html = new Chunks();
  html.add(
    [
      "<!DOCTYPE html>",
      `<html lang="en"${themeClass}>`,
      "<head>",
      '<meta charset="utf-8">',
      `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<meta name="referrer" content="no-referrer">',
      `<title>${escapeHtml(reportTitle(view))}</title>`,
      `<style>\n${pageCss(view.labels.length)}\n</style>`,
      "</head>",
      "<body>",
      "<main>",
      header,
      tiles,
      `<div class="card">${models}${comparison}`,
    ].join("\n"),
  );
  renderMatrix(html, view);
  renderScenarioDetails(html, view, markdown.scenarios ?? {});
  html.add(`${renderFixCards(view, markdown)}</div>\n`);
  // Last, so it knows whether any figure above was an estimate.
  html.add(`${renderFooter(view)}\n</main>\n${whole.sources}<script>${COPY_SCRIPT}</script>\n</body>\n</html>\n`);
  return html.toString();
}
