// The page shell: one self-contained document. Styles are inline, the only script is the copy
// script (pinned by hash in the Content-Security-Policy, so nothing else could run even if some
// text escaped), and the policy forbids every fetch: the page loads nothing from anywhere.

import { COPY_SCRIPT, COPY_SCRIPT_HASH, copyBlock } from "./copyScript.js";
import { renderComparison } from "./comparisonTable.js";
import { escapeHtml } from "./escape.js";
import { renderFixCards } from "./fixCards.js";
import { renderFooter } from "./footer.js";
import { renderHeader, reportTitle } from "./header.js";
import { renderMatrix } from "./scenarioMatrix.js";
import { renderModelPanels } from "./modelPanels.js";
import type { RenderOptions, ReportDocument } from "./reportDocument.js";
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

export function renderReportHtml(doc: ReportDocument, options: RenderOptions): string {
  const view = buildView(doc);
  const markdown = options.markdown;
  const themeClass = options.theme === "light" || options.theme === "dark" ? ` class="theme-${options.theme}"` : "";
  // Sections render in page order; the footer comes last so it knows whether an estimate was shown.
  const header = renderHeader(view, copyBlock("md-report", markdown.report, "Copy report as Markdown"));
  const tiles = renderStatTiles(view, doc.fix_items?.length ?? 0);
  const models = renderModelPanels(view, copyBlock("md-verdict", markdown.verdict));
  const comparison = renderComparison(view);
  const matrix = renderMatrix(view);
  const details = renderScenarioDetails(view, markdown.scenarios ?? {});
  const fix = renderFixCards(view, markdown);
  const footer = renderFooter(view);
  return [
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
    `<div class="card">${models}${comparison}${matrix}${details}${fix}</div>`,
    footer,
    "</main>",
    `<script>${COPY_SCRIPT}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
