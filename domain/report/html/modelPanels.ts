// One panel per model (pass bar, ratio, score, latency, tokens, cost, judge spend, faults) with
// the judge's pick marked, then the verdict with its rationale (§14 item 3, "Models").

import { escapeHtml } from "./escape.js";
import { countOf } from "../../support/pluralize.js";
import { faultName, latency, passes, percent, tokens } from "./figures.js";
import type { ModelSummaryDoc } from "./reportDocument.js";
import { costPerPriced } from "../summary.js";
import { modelEstimated, type ReportView } from "./reportView.js";

/** The verdict's judge unless it ranked by pass rate, else the report's judge. */
function panelJudge(view: ReportView): string {
  const judge = view.doc.verdict?.judge;
  return judge && judge !== "pass rate" ? judge : view.judgeName;
}

function latencyLine(summary: ModelSummaryDoc): string {
  const parts = [`avg ${latency(summary.avg_duration_ms)}`];
  if (summary.p50_duration_ms != null) parts.push(`p50 ${latency(summary.p50_duration_ms)}`);
  if (summary.p95_duration_ms != null) parts.push(`p95 ${latency(summary.p95_duration_ms)}`);
  return parts.join(" · ");
}

function faultBadges(summary: ModelSummaryDoc): string {
  const entries = Object.entries(summary.faults ?? {});
  if (entries.length === 0) return `<span class="badge ok">[+] no faults</span>`;
  return entries.map(([fault, n]) => `<span class="badge bad">${escapeHtml(faultName(fault))} ×${escapeHtml(n)}</span>`).join("");
}

function modelBlock(view: ReportView, label: string): string {
  const summary = view.summaries[label];
  if (!summary) return "";
  const pick = view.comparing && view.winner === label;
  const estimated = modelEstimated(summary);
  const ratio = summary.scenarios > 0 ? summary.passed / summary.scenarios : 0;
  const provider = [summary.provider, summary.model].filter(Boolean).join(" · ");
  // The mean over the priced replays' unrounded costs (a total rounded to 6 places would shift it).
  const perScenario = costPerPriced(summary);
  const rows: [string, string][] = [
    ["Passed", passes(summary.passed, summary.scenarios)],
    ["Mean score", percent(summary.avg_score)],
    ["Latency", latencyLine(summary)],
    ["Tokens", `${tokens(summary.input_tokens)} in · ${tokens(summary.output_tokens)} out`],
    ["Cost", `${view.money(summary.cost, estimated)}${perScenario == null ? "" : ` · ${view.money(perScenario, estimated)}/scenario`}`],
  ];
  if (summary.avg_task_completion != null) rows.splice(2, 0, ["Task completion", percent(summary.avg_task_completion)]);
  if (summary.judge_calls || summary.judge_cost != null) {
    rows.push(["Judge", `${view.money(summary.judge_cost, view.judgeEstimated)} · ${countOf(summary.judge_calls ?? 0, "call")}`]);
  }
  return (
    `<div class="model${pick ? " pick" : ""}"><h3 class="name">${escapeHtml(label)}` +
    `${pick ? ` <span class="badge pick">${view.pickLabel}</span>` : ""}</h3>` +
    `<div class="small">${escapeHtml(provider)}</div>` +
    `<div class="bar"><span style="width:${Math.round(Math.min(1, Math.max(0, ratio)) * 1000) / 10}%"></span></div>` +
    `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>` +
    `<div>${faultBadges(summary)}</div></div>`
  );
}

/** Comparing, in a run that has not completed and recorded no verdict: when one is decided. */
function undecidedRow(view: ReportView): string {
  if (!view.comparing || view.doc.comparison) return "";
  if (view.doc.failure) return `<div class="verdict">No best model or comparison was decided: they are when a run completes, and this one failed.</div>`;
  if (view.doc.in_progress) return `<div class="verdict">The best model and the comparison are decided when the run completes.</div>`;
  return "";
}

function verdictRow(view: ReportView): string {
  const verdict = view.doc.verdict;
  if (!verdict) return undecidedRow(view);
  if (!verdict.winner && !verdict.rationale) return "";
  const winner = verdict.winner ? `<strong>&#9733; ${escapeHtml(verdict.winner)}</strong> ` : "";
  const by = verdict.judge ? ` <span class="meta">· ranked by ${escapeHtml(verdict.judge)}</span>` : "";
  return `<div class="verdict">${winner}${escapeHtml(verdict.rationale ?? "")}${by}</div>`;
}

export function renderModelPanels(view: ReportView, copy: string): string {
  return (
    `<section id="models"><div class="section-head"><h2>Models <span class="meta">judged by ${escapeHtml(panelJudge(view))}</span></h2>${copy}</div>` +
    `<div class="models">${view.labels.map((label) => modelBlock(view, label)).join("")}</div>` +
    `${verdictRow(view)}</section>`
  );
}
