// The comparison: every model best first (as the verdict ranks them: pass rate, mean score, cost
// per priced scenario) with its figures and typical fault, then the interval plot — each model's pass rate a dot inside its bootstrap
// interval on a fixed 0-100% axis, so a narrow gap is not magnified — the pairs, the conclusion
// and how the intervals were computed.

import { escapeHtml, truncate } from "./escape.js";
import { roundHalfAwayFromZero as round } from "../../support/round.js";
import { comparisonMethod } from "../../stats/conclusion.js";
import { boundText, confidenceLabel } from "../../stats/figures.js";
import { countOf } from "../../support/pluralize.js";
import { faultName, latency, passes, percent, ratePercent, tokens } from "./figures.js";
import type { ComparisonDoc, ModelSummaryDoc } from "./reportDocument.js";
import { modelEstimated, type ReportView } from "./reportView.js";
import { compareRank, type RankFigures } from "../verdict.js";
import { costPerPriced, withCostOf } from "../summary.js";
import { scrollRegion } from "./scenarioMatrix.js";

/** A summary document's figures as the verdict ranks them (an older document may lack some). */
function rankFigures(s: ModelSummaryDoc): RankFigures {
  const passRate = typeof s.pass_rate === "number" ? s.pass_rate : s.scenarios > 0 ? round((s.passed * 100) / s.scenarios, 1) : 0;
  const figures = { pass_rate: passRate, avg_score: s.avg_score ?? null, cost: s.cost ?? null, priced: s.priced ?? 0, cost_per_1000: s.cost_per_1000, scenarios: s.scenarios, errored: s.errored };
  return withCostOf(figures, s);
}

/** Labels best first, by the verdict's own ranking (rankModels); ties, and models without a summary (last), keep model order. */
function rankLabels(view: ReportView): string[] {
  return view.labels
    .map((label, index) => ({ label, index, figures: view.summaries[label] ? rankFigures(view.summaries[label]) : null }))
    .sort((a, b) => (a.figures && b.figures ? compareRank(a.figures, b.figures) : a.figures ? -1 : b.figures ? 1 : 0) || a.index - b.index)
    .map((entry) => entry.label);
}

/** The model's most frequent fault, with the first scenario that shows it: `fault · key: summary`. */
function typicalFault(view: ReportView, label: string): string {
  const faults = Object.entries(view.summaries[label]?.faults ?? {});
  if (faults.length === 0) return "—";
  let [top, topCount] = faults[0];
  for (const [fault, count] of faults) if (count > topCount) [top, topCount] = [fault, count];
  for (const scenario of view.scenarios) {
    const result = scenario.byLabel.get(label);
    if (result?.fault !== top) continue;
    const summary = typeof result.diagnosis?.summary === "string" ? result.diagnosis.summary : "";
    return summary ? `${faultName(top)} · ${truncate(`${scenario.key}: ${summary}`, 120)}` : faultName(top);
  }
  return faultName(top);
}

function tableRow(view: ReportView, label: string, withJudge: boolean): string {
  const s = view.summaries[label];
  if (!s) return "";
  const pick = view.winner === label ? `<span class="star">&#9733; pick</span>` : "";
  // Over the runs that reported tokens: a run without a count is not a run of zero tokens.
  const runs = view.tokenRuns[label] ?? 0;
  const avgTokens = runs === 0 ? "—" : tokens(((s.input_tokens ?? 0) + (s.output_tokens ?? 0)) / runs);
  const perScenario = costPerPriced(s);
  const cells = [
    `<th scope="row"><code>${escapeHtml(label)}</code>${pick}</th>`,
    `<td class="num">${escapeHtml(passes(s.passed, s.scenarios))}</td>`,
    `<td class="num">${escapeHtml(percent(s.avg_score))}</td>`,
    `<td class="num">${escapeHtml(latency(s.avg_duration_ms))}<div class="small">p50 ${escapeHtml(latency(s.p50_duration_ms))} · p95 ${escapeHtml(latency(s.p95_duration_ms))}</div></td>`,
    `<td class="num">${escapeHtml(avgTokens)}</td>`,
    `<td class="num">${escapeHtml(perScenario == null ? "—" : `${view.money(perScenario, modelEstimated(s))}/scenario`)}</td>`,
  ];
  if (withJudge) cells.push(`<td class="num">${escapeHtml(view.money(s.judge_cost, view.judgeEstimated))} · ${escapeHtml(s.judge_calls ?? 0)}</td>`);
  cells.push(`<td>${escapeHtml(typicalFault(view, label))}</td>`);
  return `<tr>${cells.join("")}</tr>`;
}

/** A finite percentage clamped to the axis, for a style attribute. */
const axis = (value: number): number => Math.round(Math.min(100, Math.max(0, value)) * 100) / 100;
const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** A bound as ratePercent writes it, or with the decimals a bound that is not zero needs not to read 0%. */
const boundPercent = (value: number): string => (value !== 0 && Math.abs(value) < 0.05 ? `${boundText(value)}%` : ratePercent(value));

function plotRow(label: string, entry: ComparisonDoc["models"][string] | undefined): string {
  if (!entry || !finite(entry.pass_rate)) {
    return `<div class="plot-row"><code>${escapeHtml(label)}</code><div class="axis"></div><span class="small">no scenarios</span></div>`;
  }
  const interval = entry.interval && finite(entry.interval[0]) && finite(entry.interval[1]) ? entry.interval : null;
  const bar = interval
    ? `<span class="interval" style="left:${axis(interval[0])}%;width:${axis(axis(interval[1]) - axis(interval[0]))}%"></span>`
    : "";
  const figures = interval
    ? `${ratePercent(entry.pass_rate)} [${boundPercent(interval[0])} – ${boundPercent(interval[1])}]`
    : `${ratePercent(entry.pass_rate)} (no interval)`;
  return (
    `<div class="plot-row"><code>${escapeHtml(label)}</code>` +
    `<div class="axis" role="img" aria-label="${escapeHtml(`${label}: ${figures}`)}">${bar}<span class="dot" style="left:${axis(entry.pass_rate)}%"></span></div>` +
    `<span class="small">${escapeHtml(`${figures} · ${countOf(entry.scenarios, "scenario")}`)}</span></div>`
  );
}

function pairLine(pair: ComparisonDoc["pairs"][number]): string {
  const interval = pair.interval && finite(pair.interval[0]) && finite(pair.interval[1])
    ? ` [${boundText(pair.interval[0])}, ${boundText(pair.interval[1])}]` : " (no interval)";
  const difference = finite(pair.difference) ? `${pair.difference >= 0 ? "+" : ""}${pair.difference.toFixed(1)} points` : "—";
  const badge = pair.decisive ? `<span class="badge ok">decisive</span>` : `<span class="badge">not decisive</span>`;
  return `<li><code>${escapeHtml(pair.models[0])}</code> vs <code>${escapeHtml(pair.models[1])}</code>: ${escapeHtml(`${difference}${interval} over ${countOf(pair.scenarios, "shared scenario")}`)} ${badge}</li>`;
}

function methodText(comparison: ComparisonDoc): string {
  return comparisonMethod({
    seed: comparison.seed ?? 0,
    resamples: comparison.resamples ?? 5000,
    confidence: comparison.confidence ?? 0.95,
  });
}

function intervalPlot(view: ReportView, ranked: string[]): string {
  const comparison = view.doc.comparison;
  if (!comparison) return "";
  return (
    `<div class="plot"><div class="plot-row"><span class="small">pass rate, ${escapeHtml(confidenceLabel(comparison.confidence ?? 0.95))} interval</span>` +
    `<div class="axis-labels"><span>0%</span><span>50%</span><span>100%</span></div><span></span></div>` +
    ranked.map((label) => plotRow(label, comparison.models && Object.hasOwn(comparison.models, label) ? comparison.models[label] : undefined)).join("") +
    `</div>` +
    (comparison.pairs?.length ? `<ul class="small">${comparison.pairs.map(pairLine).join("")}</ul>` : "") +
    `<p class="conclusion">${escapeHtml(comparison.conclusion ?? "")}</p>` +
    `<p class="small">${escapeHtml(methodText(comparison))}</p>`
  );
}

export function renderComparison(view: ReportView): string {
  if (!view.comparing) return "";
  const ranked = rankLabels(view);
  const withJudge = view.labels.some((l) => view.summaries[l]?.judge_calls || view.summaries[l]?.judge_cost != null);
  const head = ["Model", "Passed", "Mean score", "Avg latency", "Avg tokens", "Cost", ...(withJudge ? ["Judge"] : []), "Typical fault"];
  return (
    `<section id="comparison"><div class="section-head"><h2 id="comparison-title">Comparison</h2></div>${scrollRegion("comparison-title")}` +
    `<table aria-labelledby="comparison-title"><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead>` +
    `<tbody>${ranked.map((label) => tableRow(view, label, withJudge)).join("")}</tbody></table></div>` +
    `${intervalPlot(view, ranked)}</section>`
  );
}
