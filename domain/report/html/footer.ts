// The footer: judge, criteria, threshold, cost, release, metadata, and the `~` legend once when
// any figure on the page was an estimate (so it must be rendered after every other section).

import { escapeHtml } from "./escape.js";
import { CHARS_LEGEND, LEGEND, percent } from "./figures.js";
import { releaseText } from "./header.js";
import { RELEASE_CAPTION } from "../markdown.js";
import { scalarMetadata } from "../metadataEntries.js";
import { roundCost, type ReportView } from "./reportView.js";

export function renderFooter(view: ReportView): string {
  const parts = [`judge ${view.judgeName}`];
  const criteria = Object.keys(view.doc.criteria ?? {});
  if (criteria.length) parts.push(`criteria ${criteria.map((key) => key.replace(/_/g, " ")).join(" · ")}`);
  parts.push(`pass ≥ ${percent(view.threshold)}`);
  if (view.agentCost != null || view.judgeCost != null) {
    const total = view.money(roundCost((view.agentCost ?? 0) + (view.judgeCost ?? 0)), view.runEstimated);
    const split = view.judgeCost != null
      ? ` · agent ${view.money(view.agentCost, view.agentEstimated)} · judge ${view.money(view.judgeCost, view.judgeEstimated)}`
      : "";
    parts.push(`cost ${total}${split}`);
  }
  const release = releaseText(view);
  if (release) parts.push(`${RELEASE_CAPTION} ${release}`);
  for (const [key, value] of scalarMetadata(view.doc.metadata)) parts.push(`${key} ${value}`);
  const legend = view.anyEstimated ? `<span class="legend">${escapeHtml(view.anyCharsEstimate ? CHARS_LEGEND : LEGEND)}</span>` : "";
  return `<footer>${parts.map((p) => `<span>${escapeHtml(p)}</span>`).join("")}${legend}</footer>`;
}
