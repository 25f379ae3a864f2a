// Everything the sections share, derived once from the document: model order, scenarios in run
// order with their results by model, per-scenario costs, the run's costs, and whether any figure
// printed so far was an estimate (the footer carries the legend when one was).

import type { JudgeUsageDoc, ModelSummaryDoc, ReportDocument, ResultDoc } from "./reportDocument.js";
import { escapeHtml } from "./escape.js";
import { Format, type CostRate } from "../../format/index.js";
import { money } from "./figures.js";
import { roundHalfAwayFromZero as round } from "../../support/round.js";
import type { MarkdownRanges } from "./markdownRanges.js";
import { RANKED_BY } from "../verdict.js";

export interface ScenarioView {
  key: string;
  index: number;
  group: string | null;
  /** The group's display name, when the results carry one. */
  groupName: string | null;
  prompt: string;
  byLabel: Map<string, ResultDoc>;
  cost: number | null;
  judgeCost: number | null;
  /** The agent's cost is an estimate, or a lower bound (only some models priced). */
  agentEstimated: boolean;
  /** Some judge usage was estimated. */
  judgeEstimated: boolean;
}

export interface ReportView {
  doc: ReportDocument;
  labels: string[];
  /** The labels HTML-escaped once, in the same order. */
  labelsHtml: string[];
  summaries: Record<string, ModelSummaryDoc>;
  /** By label, how many results reported a token count: a model's average is over these. */
  tokenRuns: Record<string, number>;
  scenarios: ScenarioView[];
  comparing: boolean;
  judgeName: string;
  winner: string | null;
  /** How the winner is marked (our own text, HTML as it stands): "judge's pick", or "picked by pass rate" when the ranking picked it (no judge ran), as the Markdown says. */
  pickLabel: string;
  threshold: number;
  agentName: string;
  passed: number;
  total: number;
  agentCost: number | null;
  judgeCost: number | null;
  /** The agent's spend is an estimate: some result was estimated, or only some were priced. */
  agentEstimated: boolean;
  judgeEstimated: boolean;
  /** Either part is an estimate (§13.2 run_costs). */
  runEstimated: boolean;
  /** Set whenever an estimated figure is written; read by the footer. */
  anyEstimated: boolean;
  /** Some result's estimate was worked out from characters (basis chars, a lower bound): the footer's legend says so. */
  anyCharsEstimate: boolean;
  /** money() that remembers an estimate was shown. */
  money(value: number | null | undefined, estimated: boolean): string;
  /** costTitleAttr(), worked out once per result (the matrix cell and the answer card both carry it). */
  costTitleAttr(result: ResultDoc): string;
  /** A fault's summary and recommendation, joined by a space (either may be empty), HTML-escaped once per distinct pair per page. */
  proseHtml(summary: string, recommendation: string): string;
  /** What money(), costTitleAttr() and proseHtml() already formatted for this page. */
  readonly cache: ViewCache;
  /** Where each Copy as Markdown piece sits in the whole report's source (set by the page). */
  copyRanges: MarkdownRanges;
}

interface ViewCache {
  money: Map<number, string>;
  estimated: Map<number, string>;
  titles: Map<ResultDoc, string>;
  /** By summary, then recommendation. */
  prose: Map<string, Map<string, string>>;
}

// The view's two methods are these module functions, not closures made per view: V8 inlines a
// call to the very function it saw, holding that function weakly, so a closure that died with
// its page threw the optimized matrix and answer renderers away at every full GC.
function viewMoney(this: ReportView, value: number | null | undefined, estimated: boolean): string {
  if (typeof value !== "number") return money(value, estimated);
  const cache = estimated ? this.cache.estimated : this.cache.money;
  let text = cache.get(value);
  if (text === undefined) {
    text = money(value, estimated);
    cache.set(value, text);
  }
  if (estimated && !this.anyEstimated && text.startsWith("~")) this.anyEstimated = true;
  return text;
}

function viewCostTitleAttr(this: ReportView, result: ResultDoc): string {
  if (!resultEstimated(result)) return "";
  let attr = this.cache.titles.get(result);
  if (attr === undefined) {
    attr = costTitleAttr(result);
    this.cache.titles.set(result, attr);
  }
  return attr;
}

// Diagnoses repeat across results (one per fault and tool, mostly): escaped once per page. Keyed
// by the two texts as the result holds them, not by their join: a string made per result was
// flattened and hashed anew at every lookup.
function viewProseHtml(this: ReportView, summary: string, recommendation: string): string {
  let bySummary = this.cache.prose.get(summary);
  if (bySummary === undefined) {
    bySummary = new Map();
    this.cache.prose.set(summary, bySummary);
  }
  let html = bySummary.get(recommendation);
  if (html === undefined) {
    html = escapeHtml(summary && recommendation ? `${summary} ${recommendation}` : summary || recommendation);
    bySummary.set(recommendation, html);
  }
  return html;
}

const sum = (a: number | null, b: number | null | undefined): number | null =>
  typeof b === "number" && Number.isFinite(b) ? (a ?? 0) + b : a;

/**
 * A sum of costs to 6 decimal places, as domain/cost rounds the Markdown's: float noise
 * (0.000009 + 0.000991 = 0.000999…) would read $0.001000 on the page where the Markdown reads $0.0010.
 */
export const roundCost = (value: number | null): number | null => (value === null ? null : round(value, 6));

/** A result's cost is an estimate when its metadata says so (reference §7). */
function resultEstimated(result: ResultDoc): boolean {
  return result.metadata?.cost_source === "estimated";
}

/** The tooltip of an estimated result cost: the working, when the rate was recorded (guide "Costs"). */
function costTitleAttr(result: ResultDoc): string {
  if (!resultEstimated(result)) return "";
  const rate = result.metadata?.cost_rate;
  const title = Format.costTitle({
    input_tokens: result.input_tokens,
    output_tokens: result.output_tokens,
    rate: rate && typeof rate === "object" ? (rate as Record<string, unknown>) : null,
  });
  return ` title="${escapeHtml(title)}"`;
}

export function usageEstimated(usage: JudgeUsageDoc | null | undefined): boolean {
  if (!usage) return false;
  if (usage.estimated === true) return true;
  return typeof usage.source === "string" && usage.source !== "" && usage.source !== "reported";
}

/** A model's cost reads as an estimate when any part was estimated or only some runs were priced (§13.1). */
export function modelEstimated(summary: ModelSummaryDoc): boolean {
  if ((summary.estimated ?? 0) > 0) return true;
  return summary.cost != null && (summary.priced ?? 0) < summary.scenarios;
}

export function buildView(doc: ReportDocument): ReportView {
  // Without a prototype, a model labelled "constructor" or "__proto__" reads as itself.
  const summaries: Record<string, ModelSummaryDoc> = Object.assign(Object.create(null), doc.summary_by_model ?? doc.models ?? {});
  const labels = Object.keys(summaries);
  for (const result of doc.results) if (!Object.hasOwn(summaries, result.label)) labels.push(result.label);
  const scenarios = groupScenarios(doc.results);
  let passed = 0;
  let agentCost: number | null = null;
  let priced = 0;
  let anyResultEstimated = false;
  let anyCharsEstimate = false;
  const tokenRuns: Record<string, number> = Object.create(null);
  for (const result of doc.results) {
    if (result.status === "passed") passed += 1;
    if (typeof result.input_tokens === "number" || typeof result.output_tokens === "number") tokenRuns[result.label] = (tokenRuns[result.label] ?? 0) + 1;
    agentCost = sum(agentCost, result.cost);
    if (typeof result.cost === "number") priced += 1;
    if (resultEstimated(result)) {
      anyResultEstimated = true;
      if (!anyCharsEstimate && Format.isCharsBasis(result.metadata?.cost_rate as CostRate | null | undefined)) anyCharsEstimate = true;
    }
  }
  const judgeCost = roundCost(doc.judge_usage ? sum(null, doc.judge_usage.cost) : scenarios.reduce<number | null>((acc, s) => sum(acc, s.judgeCost), null));
  const distinct = [...new Set(labels)];
  // Costs repeat across thousands of cells; formatting each once keeps the matrix cheap.
  const view: ReportView = {
    doc,
    labels: distinct,
    labelsHtml: distinct.map(escapeHtml),
    summaries,
    tokenRuns,
    scenarios,
    comparing: new Set(labels).size > 1,
    judgeName: doc.judge ?? "rules",
    winner: doc.verdict?.winner ?? null,
    pickLabel: doc.verdict?.judge === RANKED_BY ? `picked by ${RANKED_BY}` : "judge's pick",
    threshold: typeof doc.threshold === "number" ? doc.threshold : 0.7,
    agentName: doc.agent_name ?? "the agent",
    passed,
    total: doc.results.length,
    agentCost: roundCost(agentCost),
    judgeCost,
    agentEstimated: anyResultEstimated || (priced > 0 && priced < doc.results.length),
    judgeEstimated: usageEstimated(doc.judge_usage),
    runEstimated: anyResultEstimated || (priced > 0 && priced < doc.results.length) || usageEstimated(doc.judge_usage),
    anyEstimated: false,
    anyCharsEstimate,
    money: viewMoney,
    costTitleAttr: viewCostTitleAttr,
    proseHtml: viewProseHtml,
    cache: { money: new Map(), estimated: new Map(), titles: new Map(), prose: new Map() },
    copyRanges: new Map(),
  };
  return view;
}

/** Scenarios in first-seen order, each with its results keyed by model label and its costs. */
function groupScenarios(results: ResultDoc[]): ScenarioView[] {
  const byKey = new Map<string, ScenarioView>();
  const order: ScenarioView[] = [];
  for (const result of results) {
    let scenario = byKey.get(result.scenario_key);
    if (!scenario) {
      scenario = {
        key: result.scenario_key,
        index: order.length,
        group: result.group ?? null,
        groupName: result.group_name ?? null,
        prompt: result.prompt ?? "",
        byLabel: new Map(),
        cost: null,
        judgeCost: null,
        agentEstimated: false,
        judgeEstimated: false,
      };
      byKey.set(result.scenario_key, scenario);
      order.push(scenario);
    }
    if (!scenario.byLabel.has(result.label)) scenario.byLabel.set(result.label, result);
    scenario.cost = sum(scenario.cost, result.cost);
    scenario.judgeCost = sum(scenario.judgeCost, result.judge_usage?.cost);
    if (resultEstimated(result)) scenario.agentEstimated = true;
    if (usageEstimated(result.judge_usage)) scenario.judgeEstimated = true;
  }
  // Some models priced and others not: the sum is a lower bound. A loop, not arrays per scenario.
  for (const scenario of order) {
    let priced = false;
    let unpriced = false;
    for (const r of scenario.byLabel.values()) {
      if (typeof r.cost === "number") priced = true;
      else unpriced = true;
    }
    if (priced && unpriced) scenario.agentEstimated = true;
  }
  return order;
}
