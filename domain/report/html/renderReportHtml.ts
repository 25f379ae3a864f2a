// The page shell: one self-contained document. Styles are inline, the only script is the copy
// script (pinned by hash in the Content-Security-Policy, so nothing else could run even if some
// text escaped), and the policy forbids every fetch: the page loads nothing from anywhere. The
// header and footer sit beside <main>, not in it, so they are the page's banner and contentinfo
// landmarks.

import { Chunks } from "./chunks.js";
import { addMarkdownSource, COPY_SCRIPT, COPY_SCRIPT_HASH, COPY_STATUS, copyButton, pieceLabel } from "./copyScript.js";
import { renderComparison } from "./comparisonTable.js";
import { escapeHtml } from "./escape.js";
import { renderFixCards } from "./fixCards.js";
import { renderFooter } from "./footer.js";
import { renderHeader, reportTitle } from "./header.js";
import { copyMarkdown, markdownRanges } from "./markdownRanges.js";
import { renderMatrix } from "./scenarioMatrix.js";
import { renderModelPanels } from "./modelPanels.js";
import type { RenderOptions, ReportDocument, ReportMarkdown } from "./reportDocument.js";
import { buildView } from "./reportView.js";
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

const REPORT_LABEL = { text: "Copy report as Markdown" };

/**
 * Whether the page carries the whole report's Markdown: then once, as #md-report at the end of
 * the page, with its button in the header; the pieces' buttons copy slices of it (markdownRanges).
 */
function hasReport(markdown: ReportMarkdown): boolean {
  return typeof markdown.report === "string" && markdown.report !== "";
}

export function renderReportHtml(doc: ReportDocument, options: RenderOptions): string {
  const view = buildView(Array.isArray(doc.results) ? doc : { ...doc, results: [] });
  const markdown = options.markdown;
  const themeClass = options.theme === "light" || options.theme === "dark" ? ` class="theme-${options.theme}"` : "";
  view.copyRanges = markdownRanges(view, markdown);
  const header = renderHeader(view, hasReport(markdown) ? copyButton(["md-report"], REPORT_LABEL) : "");
  const tiles = renderStatTiles(view, doc.fix_items?.length ?? 0);
  const models = renderModelPanels(view, copyMarkdown(view.copyRanges, "md-verdict", markdown.verdict, pieceLabel("verdict")));
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
      header,
      "<main>",
      tiles,
      `<div class="card">${models}${comparison}`,
    ].join("\n"),
  );
  renderMatrix(html, view);
  renderScenarioDetails(html, view, markdown.scenarios ?? {});
  html.add(`${renderFixCards(view, markdown)}</div>\n`);
  // Last, so it knows whether any figure above was an estimate.
  html.add(`</main>\n${renderFooter(view)}\n`);
  if (hasReport(markdown)) {
    addMarkdownSource(html, "md-report", markdown.report);
    html.add("\n");
  }
  html.add(`${COPY_STATUS}\n<script>${COPY_SCRIPT}</script>\n</body>\n</html>\n`);
  return html.toString();
}
