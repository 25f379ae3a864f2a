// Per-model summary (reference-core §13.1, plus the guide's p50/p95 and cost per 1,000):
// one pass over the results, then one row per model label in model order.
import { FloatSum, roundHalfAwayFromZero as round, keyedRecord } from "../support/index.js";
import { nearestRanks } from "../stats/index.js";
import { costsByModel } from "../cost/index.js";

type ModelCosts = ReturnType<typeof costsByModel>[string];
import type { ModelSummary, ReportModel, ReportResult } from "./reportTypes.js";

interface Tally {
  scenarios: number;
  passed: number;
  errored: number;
  scores: FloatSum;
  tasks: FloatSum;
  durations: number[];
  durationSum: FloatSum;
  inputTokens: number;
  outputTokens: number;
  faults: Record<string, number>;
}

const newTally = (): Tally => ({
  scenarios: 0, passed: 0, errored: 0, scores: new FloatSum(), tasks: new FloatSum(),
  durations: [], durationSum: new FloatSum(), inputTokens: 0, outputTokens: 0, faults: {},
});

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

function add(tally: Tally, result: ReportResult): void {
  tally.scenarios += 1;
  if (result.status === "passed") tally.passed += 1;
  else if (result.status === "errored") tally.errored += 1;
  if (isNumber(result.score)) tally.scores.add(result.score);
  const task = result.scores.task_completion;
  if (isNumber(task)) tally.tasks.add(task);
  const { replay } = result;
  if (isNumber(replay.durationMs)) { tally.durations.push(replay.durationMs); tally.durationSum.add(replay.durationMs); }
  tally.inputTokens += replay.inputTokens ?? 0;
  tally.outputTokens += replay.outputTokens ?? 0;
  if (result.fault) tally.faults[result.fault] = (tally.faults[result.fault] ?? 0) + 1;
}

const mean = (sum: FloatSum, digits: number): number | null => (sum.count > 0 ? round(sum.value / sum.count, digits) : null);

function row(model: ReportModel, tally: Tally, costs: ModelCosts): ModelSummary {
  const [p50, p95] = nearestRanks(tally.durations, [50, 95]);
  return {
    provider: model.provider,
    model: model.model,
    scenarios: tally.scenarios,
    passed: tally.passed,
    errored: tally.errored,
    pass_rate: tally.scenarios > 0 ? round((tally.passed * 100) / tally.scenarios, 1) : 0,
    avg_score: mean(tally.scores, 3),
    avg_task_completion: mean(tally.tasks, 3),
    avg_duration_ms: mean(tally.durationSum, 0),
    p50_duration_ms: p50,
    p95_duration_ms: p95,
    input_tokens: tally.inputTokens,
    output_tokens: tally.outputTokens,
    // Cost figures are domain/cost's: the agent's spend and the judge's, kept apart.
    cost: costs.cost,
    cost_per_1000: costs.cost_per_1000,
    priced: costs.priced,
    reported: costs.reported,
    estimated: costs.estimated,
    judge_cost: costs.judge_cost,
    judge_calls: costs.judge_calls,
    faults: tally.faults,
  };
}

/** `label -> summary` in model order; a label with no results still gets a (zero) row. */
export function summarizeByModel(results: readonly ReportResult[], models: readonly ReportModel[]): Record<string, ModelSummary> {
  const tallies = new Map<string, Tally>();
  for (const model of models) tallies.set(model.label, newTally());
  for (const result of results) {
    let tally = tallies.get(result.label);
    if (!tally) { tally = newTally(); tallies.set(result.label, tally); }
    add(tally, result);
  }
  const costs = costsByModel(results, models.map((m) => m.label));
  const out: Record<string, ModelSummary> = keyedRecord();
  for (const model of models) {
    const cost = costs[model.label];
    const summary = row(model, tallies.get(model.label)!, cost);
    if (cost.cost_per_priced_unrounded !== null) unroundedCostPerPriced.set(summary, cost.cost_per_priced_unrounded);
    out[model.label] = summary;
  }
  return out;
}

/**
 * Each summary summarizeByModel made, to its mean cost per priced replay unrounded: kept off the
 * summary itself so report.json keeps its fields and 6 decimals (a summary read back from JSON
 * has none, and costPerPriced falls back on its cost_per_1000).
 */
const unroundedCostPerPriced = new WeakMap<object, number>();

/** The keys of a model's summary in the order the report writes them. */
const SUMMARY_KEYS: readonly string[] = Object.keys(row({ label: "", provider: "", model: "" }, newTally(), costsByModel([], [""])[""]));

/**
 * A model's summary as read back from jsonb (which keeps keys sorted by length) in the order the
 * report writes it: its figures in summarizeByModel's order, its faults in the order
 * `faultsInRunOrder` first names them (the model's results' faults, in run order), as the report
 * tallies them. Keys the report does not write follow, as given.
 */
export function summaryInReportOrder<T extends object>(summary: T, faultsInRunOrder: Iterable<string>): T {
  const given = summary as Record<string, unknown>;
  const out: Record<string, unknown> = keyedRecord();
  for (const key of SUMMARY_KEYS) if (Object.hasOwn(given, key)) out[key] = given[key];
  for (const key of Object.keys(given)) if (!Object.hasOwn(out, key)) out[key] = given[key];
  const faults = given.faults;
  if (faults !== null && typeof faults === "object" && !Array.isArray(faults)) {
    const counts = faults as Record<string, unknown>;
    const ordered: Record<string, unknown> = keyedRecord();
    for (const fault of faultsInRunOrder) if (Object.hasOwn(counts, fault) && !Object.hasOwn(ordered, fault)) ordered[fault] = counts[fault];
    for (const fault of Object.keys(counts)) if (!Object.hasOwn(ordered, fault)) ordered[fault] = counts[fault];
    out.faults = ordered;
  }
  return out as T;
}

/** A model's cost reads as an estimate when any part was estimated or only some runs were priced. */
export function costIsEstimated(summary: ModelSummary): boolean {
  return summary.estimated > 0 || (summary.cost !== null && summary.priced < summary.scenarios);
}

/** What costPerPriced reads of a summary (a ModelSummary, or its JSON document, where an older one may lack some). */
export interface CostFigures {
  cost?: number | null;
  priced?: number | null;
  cost_per_1000?: number | null;
}

/**
 * Mean cost per priced scenario run, or null when nothing was priced: over the priced replays'
 * unrounded costs for a summary summarizeByModel made (what Cost / 1,000, the page's cost per
 * scenario and the verdict's cost tie-break read); for one read back from JSON, its
 * cost_per_1000 (6 decimals), else, recorded without it, the total over the priced runs.
 * reference-core §13.1 divides the total rounded to 6 decimals: two models whose replays cost
 * $0.0000014 and $0.0000006 both total $0.000001 there, and the dearer one could be picked.
 */
export function costPerPriced(summary: CostFigures): number | null {
  const priced = summary.priced ?? 0;
  if (typeof summary.cost !== "number" || priced <= 0) return null;
  const unrounded = unroundedCostPerPriced.get(summary);
  if (unrounded !== undefined) return unrounded;
  return typeof summary.cost_per_1000 === "number" ? summary.cost_per_1000 / 1000 : summary.cost / priced;
}

/** `figures` (made from `summary`, as the page's ranking does) ranked by `summary`'s unrounded mean cost. */
export function withCostOf<T extends object>(figures: T, summary: object): T {
  const unrounded = unroundedCostPerPriced.get(summary);
  if (unrounded !== undefined) unroundedCostPerPriced.set(figures, unrounded);
  return figures;
}
