// The header: the title, a chip per scalar metadata value, the release (`Release: …`, set apart) and the judge.

import { countOf } from "../../support/pluralize.js";
import { failureNotice, inProgressNotice, KPI_FAILURE_NOTICE, RELEASE_CAPTION } from "../markdown.js";
import { escapeHtml } from "./escape.js";
import { scalarMetadata } from "../metadataEntries.js";
import { usageEstimated, type ReportView } from "./reportView.js";

export function reportTitle(view: ReportView): string {
  return `Evaluation — ${countOf(view.scenarios.length, "scenario")} × ${countOf(view.labels.length, "model")}`;
}

export function releaseText(view: ReportView): string | null {
  const release = view.doc.release;
  if (!release) return null;
  if (release.label) return release.label;
  const parts = [release.digest, release.revision].filter((p): p is string => typeof p === "string" && p !== "");
  return parts.length ? parts.join(" · ") : null;
}

function judgeChipText(view: ReportView): string {
  const usage = view.doc.judge_usage;
  const parts = [view.judgeName];
  if (usage?.calls) parts.push(countOf(usage.calls, "call"));
  if (usage && typeof usage.cost === "number") parts.push(view.money(usage.cost, usageEstimated(usage)));
  return parts.join(" · ");
}

export function renderHeader(view: ReportView, copy: string): string {
  const chips: string[] = [];
  for (const [key, value] of scalarMetadata(view.doc.metadata)) {
    chips.push(`<span class="chip">${escapeHtml(key)} ${escapeHtml(value)}</span>`);
  }
  // The release the run scored, told apart from a metadata `release` key (a CI job's own, say) by
  // its words, as the Markdown's `Release:` line reads, and by its colours.
  const release = releaseText(view);
  if (release) chips.push(`<span class="chip release">${escapeHtml(RELEASE_CAPTION)} ${escapeHtml(release)}</span>`);
  chips.push(`<span class="chip">judge ${escapeHtml(judgeChipText(view))}</span>`);
  const failure = view.doc.failure;
  const progress = view.doc.in_progress;
  const notice = failure
    ? `<p class="failure" role="alert"><strong>${escapeHtml(failureNotice(view.doc.results.length))}</strong> ${escapeHtml(failure)}</p>`
    : progress ? `<p class="in-progress" role="status"><strong>${escapeHtml(inProgressNotice({ scored: view.doc.results.length, total: progress.total }))}</strong></p>` : "";
  const kpiFailure = view.doc.kpi_failure;
  const kpiNotice = typeof kpiFailure === "string" ? `<p class="in-progress" role="note"><strong>${escapeHtml(KPI_FAILURE_NOTICE)}</strong> ${escapeHtml(kpiFailure)}</p>` : "";
  return (
    `<header class="head"><div><h1>${escapeHtml(reportTitle(view))}</h1>` +
    `<div class="chips">${chips.join("")}</div>${notice}${kpiNotice}</div><div>${copy}</div></header>`
  );
}
