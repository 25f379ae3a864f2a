// Cost roll-ups the Report shows (reference-core §13.1-13.2, guide "Costs" and "Comparing
// models"): per model, per scenario and for the run. The agent's cost and the judge's are
// always kept in separate fields; `total` is the only place they meet.

import { FloatSum, floatSum, roundHalfAwayFromZero as roundHalfAway, keyedRecord } from "../support/index.js";
import type { JudgeUsageTotals } from "./judgeUsage.js";
import {
  costSource,
  countOf,
  isEstimatedCost,
  isEstimatedUsage,
  numberOrNull,
  resultCost,
  resultJudgeUsage,
  type CostResultLike,
  type CostSource,
} from "./resultCost.js";

export interface ModelCostSummary {
  scenarios: number;
  /** Sum of the priced replays' costs (6 decimals), null when none was priced. */
  cost: number | null;
  priced: number;
  reported: number;
  estimated: number;
  judge_cost: number | null;
  judge_calls: number;
  /** Mean cost per priced replay (6 decimals), null when none was priced. */
  cost_per_priced: number | null;
  /**
   * The same mean unrounded: what the report shows (Cost / 1,000, the page's cost per scenario)
   * and what the verdict's cost tie-break ranks by. Rounded to 6 decimals first, a mean's last
   * shown digit could be off by one and two means a fraction of a micro-dollar apart tied.
   */
  cost_per_priced_unrounded: number | null;
  /** What 1,000 scenario runs cost at the mean cost per priced replay (6 decimals). */
  cost_per_1000: number | null;
  /** The cost reads as an estimate (`~`): some replay estimated, or some left unpriced. */
  cost_estimated: boolean;
}

export interface ScenarioCostSummary {
  cost: number | null;
  judge_cost: number | null;
  total: number | null;
  /** Some part is an estimate: the agent's or the judge's. */
  estimated: boolean;
  /** The agent's cost is an estimate (some replay estimated) or a lower bound (some unpriced). */
  agent_estimated: boolean;
  /** Some judge usage in the scenario was estimated. */
  judge_estimated: boolean;
  models: Record<string, { cost: number | null; judge_cost: number | null; cost_source: CostSource }>;
}

/**
 * How the priced agent costs were arrived at (reference-platform #23's `cost_basis`): `reported`
 * when none of them is an estimate, `estimated` when all are, `mixed` otherwise. A replay priced
 * at $0 for using no tokens (`no_usage`) is no estimate, as the `~` of the report says: it counts
 * with the reported ones. Unpriced replays do not enter it (`unpriced` counts them: with some,
 * the cost is a lower bound, which the report's `~` also marks).
 */
export type CostBasis = "reported" | "estimated" | "mixed";

export interface RunCostSummary {
  cost: number | null;
  judge_cost: number | null;
  total: number | null;
  /** Some part is an estimate: the agent's or the judge's. */
  estimated: boolean;
  /** The agent's cost is an estimate (some replay estimated) or a lower bound (some unpriced). */
  agent_estimated: boolean;
  /** The judge's usage was estimated. */
  judge_estimated: boolean;
  priced: number;
  unpriced: number;
  /** How the priced agent costs were arrived at; null when none was priced. */
  cost_basis: CostBasis | null;
}

const round6 = (value: number): number => roundHalfAway(value, 6);
const sumOrNull = (values: number[]): number | null => (values.length ? round6(floatSum(values)) : null);
const known = (values: (number | null)[]): number[] => values.filter((value): value is number => value !== null);

/** One model's cost figures over its results (the cohort of one label). */
export function modelCosts(cohort: readonly CostResultLike[]): ModelCostSummary {
  // One pass (a cohort is every scenario of a model), each result's figures read once; sums run
  // in result order, as the reference adds them.
  const costSum = new FloatSum();
  const judgeSum = new FloatSum();
  let judgeCalls = 0;
  let reported = 0;
  let estimated = 0;
  for (const result of cohort) {
    const cost = resultCost(result);
    if (cost !== null) costSum.add(cost);
    const usage = resultJudgeUsage(result);
    const judge = numberOrNull(usage?.cost);
    if (judge !== null) judgeSum.add(judge);
    judgeCalls += countOf(usage?.calls);
    const source = costSource(result);
    if (source === "reported") reported += 1;
    else if (source === "estimated") estimated += 1;
  }
  const priced = costSum.count;
  const cost = priced > 0 ? round6(costSum.value) : null;
  // The mean over the unrounded sum (guide, "Comparing models"): divided after rounding the total
  // to 6 decimals, one replay costing 0.0041818198 was $4.1820 per 1,000 instead of $4.1818.
  const perPriced = priced > 0 ? costSum.value / priced : null;
  return {
    scenarios: cohort.length,
    cost,
    priced,
    reported,
    estimated,
    judge_cost: judgeSum.count > 0 ? round6(judgeSum.value) : null,
    judge_calls: judgeCalls,
    cost_per_priced: perPriced === null ? null : round6(perPriced),
    cost_per_priced_unrounded: perPriced,
    cost_per_1000: perPriced === null ? null : round6(perPriced * 1000),
    cost_estimated: estimated > 0 || (cost !== null && priced < cohort.length),
  };
}

/** `modelCosts` for each label, in the order given. */
export function costsByModel(results: readonly CostResultLike[], labels: readonly string[]): Record<string, ModelCostSummary> {
  const cohorts = new Map<string, CostResultLike[]>(labels.map((label) => [label, []]));
  for (const result of results) cohorts.get(result.label)?.push(result);
  const out: Record<string, ModelCostSummary> = keyedRecord();
  for (const label of labels) out[label] = modelCosts(cohorts.get(label) ?? []);
  return out;
}

/**
 * Per scenario key, in run order: the agent's cost summed over the models, the judge's, their
 * total, whether any part is an estimate (or a lower bound, some model unpriced), and each
 * model's figures with its cost source.
 */
export function scenarioCosts(results: readonly CostResultLike[]): Record<string, ScenarioCostSummary> {
  const groups = new Map<string, CostResultLike[]>();
  for (const result of results) {
    const group = groups.get(result.scenario.key);
    if (group) group.push(result);
    else groups.set(result.scenario.key, [result]);
  }
  const out: Record<string, ScenarioCostSummary> = keyedRecord();
  // One pass per scenario (thousands of them), reading each result's figures once; sums run in
  // result order, as the reference adds them.
  for (const [key, cohort] of groups) {
    const costSum = new FloatSum();
    const judgeSum = new FloatSum();
    let anyEstimated = false;
    let anyUnpriced = false;
    let anyUsageEstimated = false;
    const models: ScenarioCostSummary["models"] = keyedRecord();
    for (const result of cohort) {
      const cost = resultCost(result);
      const usage = resultJudgeUsage(result);
      const judge = numberOrNull(usage?.cost);
      const source = costSource(result);
      if (cost === null) anyUnpriced = true;
      else costSum.add(cost);
      if (judge !== null) judgeSum.add(judge);
      if (source === "estimated") anyEstimated = true;
      if (isEstimatedUsage(usage)) anyUsageEstimated = true;
      models[result.label] = { cost, judge_cost: judge, cost_source: source };
    }
    const priced = costSum.count;
    const cost = priced > 0 ? round6(costSum.value) : null;
    const judge = judgeSum.count > 0 ? round6(judgeSum.value) : null;
    // An estimate, or a lower bound when some models were priced and others not.
    const agentEstimated = anyEstimated || (anyUnpriced && priced > 0);
    out[key] = {
      cost,
      judge_cost: judge,
      total: cost === null && judge === null ? null : round6((cost ?? 0) + (judge ?? 0)),
      estimated: agentEstimated || anyUsageEstimated,
      agent_estimated: agentEstimated,
      judge_estimated: anyUsageEstimated,
      models,
    };
  }
  return out;
}

/** `cost_basis` of `priced` priced results, `estimated` of them estimates (isEstimatedCost). */
function costBasisOf(priced: number, estimated: number): CostBasis | null {
  if (priced === 0) return null;
  if (estimated === 0) return "reported";
  return estimated === priced ? "estimated" : "mixed";
}

/** The run's spend: the agent's, the judge's (from `judgeUsage`), their total and whether any is estimated. */
export function runCosts(results: readonly CostResultLike[], usage: JudgeUsageTotals | null): RunCostSummary {
  const costs = known(results.map(resultCost));
  const agent = sumOrNull(costs);
  const judge = usage?.cost ?? null;
  const agentEstimated = results.some(isEstimatedCost) || (costs.length > 0 && costs.length < results.length);
  // The same counts a database's groups give (costCounts), so the two never read differently.
  const counts = costCounts(results.map((result) => ({ result, count: 1 })));
  const judgeEstimated = usage?.estimated === true;
  return {
    cost: agent,
    judge_cost: judge,
    total: agent === null && judge === null ? null : round6((agent ?? 0) + (judge ?? 0)),
    estimated: agentEstimated || judgeEstimated,
    agent_estimated: agentEstimated,
    judge_estimated: judgeEstimated,
    priced: counts.priced,
    unpriced: counts.unpriced,
    cost_basis: counts.cost_basis,
  };
}

/** How many results one way of arriving at a cost stands for (a group counted by a database). */
export interface CountedCostResult {
  result: CostResultLike;
  count: number;
}

/** A run's agent cost counts: runCosts' priced, unpriced and cost_basis, modelCosts' reported and estimated summed over the models. */
export interface CostCounts {
  priced: number;
  unpriced: number;
  /** Cost source `reported` (inferred for a priced result that gives none). */
  reported: number;
  /** Cost source `estimated`, priced or not: one that says so but carries no cost also counts here (and as unpriced). */
  estimated: number;
  cost_basis: CostBasis | null;
}

/**
 * The counts runCosts and modelCosts give over the results the groups stand for, each group's
 * result read once with the same predicates (resultCost, costSource, isEstimatedCost), so a
 * database may count results per group instead of loading them.
 */
export function costCounts(groups: readonly CountedCostResult[]): CostCounts {
  let priced = 0;
  let unpriced = 0;
  let reported = 0;
  let estimated = 0;
  let estimatedPriced = 0;
  for (const { result, count } of groups) {
    const hasCost = resultCost(result) !== null;
    if (hasCost) priced += count;
    else unpriced += count;
    const source = costSource(result);
    if (source === "reported") reported += count;
    else if (source === "estimated") estimated += count;
    if (hasCost && isEstimatedCost(result)) estimatedPriced += count;
  }
  return { priced, unpriced, reported, estimated, cost_basis: costBasisOf(priced, estimatedPriced) };
}
