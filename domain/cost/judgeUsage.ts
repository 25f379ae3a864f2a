// What the judge spent (reference-core §13.2 `judge_usage`): every result's own calls plus the
// run-level calls no result owns (the verdict). The judge's cost is the evaluation's
// overhead: it is summed here, apart from the agent's, and never enters the ranking.

import { FloatSum, floatSum, roundHalfAwayFromZero as roundHalfAway } from "../support/index.js";
import { countOf, isEstimatedUsage, numberOrNull, resultJudgeUsage, type CostResultLike, type JudgeUsageRecord } from "./resultCost.js";

/**
 * The most kinds a judge usage's `by_kind` may name, and the longest a kind may be: an import
 * refuses more (domain/commands importedReport), and the read model keeps at most this many per
 * result and per run, the rest folded into `other` (apps/projector), so a run's usage by kind
 * stays a short list. The platform's judge meters four (score, recommend, verdict, define).
 */
export const JUDGE_KINDS_MAX = 16;
export const JUDGE_KIND_NAME_MAX = 64;
/** The kind the read model folds kinds past JUDGE_KINDS_MAX into. */
export const OTHER_JUDGE_KIND = "other";

export interface JudgeUsageTotals {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost?: number;
  model?: string;
  by_kind: Record<string, number>;
  estimated: boolean;
  /** The run-level part alone, when there is one. */
  run?: { calls: number; cost: number | null; by_kind: Record<string, number> };
}

/** Sums every result's judge usage with the run-level part; null when the judge was never asked. */
export function judgeUsage(results: Iterable<CostResultLike>, runUsage?: JudgeUsageRecord | null): JudgeUsageTotals | null {
  const parts: JudgeUsageRecord[] = [];
  for (const result of results) {
    const usage = resultJudgeUsage(result);
    if (usage) parts.push(usage);
  }
  const run = runUsage && typeof runUsage === "object" && Object.keys(runUsage).length ? runUsage : null;
  if (run) parts.push(run);
  if (parts.length === 0) return null;

  const costs = parts.map((usage) => numberOrNull(usage.cost)).filter((cost): cost is number => cost !== null);
  const model = parts.map((usage) => usage.model).find((name) => typeof name === "string" && name.trim() !== "");
  // Keys in the reference's order; cost, model and run only when there is one.
  return {
    calls: sum(parts, (usage) => countOf(usage.calls)),
    input_tokens: sum(parts, (usage) => countOf(usage.input_tokens)),
    output_tokens: sum(parts, (usage) => countOf(usage.output_tokens)),
    ...(costs.length ? { cost: roundHalfAway(floatSum(costs), 6) } : {}),
    ...(model ? { model } : {}),
    by_kind: usageByKind(parts),
    estimated: parts.some(isEstimatedUsage),
    ...(run ? { run: { calls: countOf(run.calls), cost: numberOrNull(run.cost), by_kind: usageByKind([run]) } } : {}),
  };
}

/** One judge usage record with more spend added (the run-level verdict's onto what the run holds). */
export function addJudgeUsage(given: JudgeUsageRecord | null, more: JudgeUsageRecord): JudgeUsageRecord {
  if (!given) return more;
  const costs = [given.cost, more.cost].filter((c): c is number => typeof c === "number");
  return {
    ...given,
    calls: countOf(given.calls) + countOf(more.calls),
    input_tokens: countOf(given.input_tokens) + countOf(more.input_tokens),
    output_tokens: countOf(given.output_tokens) + countOf(more.output_tokens),
    cost: costs.length > 0 ? floatSum(costs) : null,
    model: given.model ?? more.model,
    by_kind: usageByKind([given, more]),
  };
}

/** Calls per kind (score, recommend, verdict, …), summed over the parts in first-seen order. */
export function usageByKind(parts: JudgeUsageRecord[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const usage of parts) {
    const byKind = usage.by_kind;
    if (!byKind || typeof byKind !== "object") continue;
    for (const [kind, count] of Object.entries(byKind)) tally[kind] = (tally[kind] ?? 0) + countOf(count);
  }
  return tally;
}

/** What a result's (or the run's) judge calls used, built from the Judge's exchange records. */
export function judgeUsageFromExchanges(
  exchanges: Iterable<{ kind: string; usage?: { input_tokens?: number; output_tokens?: number; cost?: number; model?: string; source?: string } | null } | null>,
  options: { source?: string } = {},
): JudgeUsageRecord | null {
  let calls = 0;
  let input = 0;
  let output = 0;
  const cost = new FloatSum();
  let model: string | null = null;
  // The calls' own source when one was not "reported" (an estimate makes the whole an estimate).
  let estimatedSource: string | null = null;
  const byKind: Record<string, number> = {};
  for (const exchange of exchanges) {
    if (!exchange) continue;
    calls++;
    byKind[exchange.kind] = (byKind[exchange.kind] ?? 0) + 1;
    const usage = exchange.usage;
    input += countOf(usage?.input_tokens);
    output += countOf(usage?.output_tokens);
    const callCost = numberOrNull(usage?.cost);
    if (callCost !== null) cost.add(callCost);
    model ??= usage?.model ?? null;
    if (usage?.source && usage.source !== "reported") estimatedSource ??= usage.source;
  }
  if (calls === 0) return null;
  return {
    calls,
    input_tokens: input,
    output_tokens: output,
    cost: cost.count === 0 ? null : roundHalfAway(cost.value, 6),
    model,
    by_kind: byKind,
    source: options.source ?? estimatedSource ?? "reported",
  };
}

type JudgeExchangeLike = Parameters<typeof judgeUsageFromExchanges>[0] extends Iterable<infer E> ? E : never;

/**
 * The judge usage a result's metadata gains from its judge's exchanges, or null when it gains
 * none: the one rule every report, read model and API answer follows. A replay that carries its
 * own `judge_usage` (an agent's or a host's record) keeps it, even a null one; otherwise what the
 * judge's calls for the result used, when there were any. The caller puts it on the metadata
 * (the Runner on the replay's, a rebuilt report on a copy).
 */
export function addedJudgeUsage(metadata: Record<string, unknown>, exchanges: Iterable<JudgeExchangeLike>): JudgeUsageRecord | null {
  if (carriesJudgeUsage(metadata)) return null;
  return judgeUsageFromExchanges(exchanges);
}

/** Whether a replay's metadata says what its judge spent (then its judge's exchanges are not added). */
export function carriesJudgeUsage(metadata: Readonly<Record<string, unknown>> | null | undefined): metadata is Readonly<Record<string, unknown>> {
  return metadata !== null && metadata !== undefined && Object.hasOwn(metadata, "judge_usage") && metadata.judge_usage !== undefined;
}

function sum<T>(items: T[], value: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += value(item);
  return total;
}
