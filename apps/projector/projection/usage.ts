// Judge spend of a list of exchanges (each carries its own usage), summed exactly once per event.
import { REPORT_MAX_COUNT } from "@verdict/domain";

interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
}

interface ExchangeLike {
  kind?: string;
  usage?: { input_tokens?: number | null; output_tokens?: number | null; cost?: number | null; model?: string | null } | null;
}

export function exchangeUsage(exchanges: readonly ExchangeLike[]): UsageTotals {
  const totals: UsageTotals = { calls: exchanges.length, inputTokens: 0, outputTokens: 0, cost: null };
  for (const exchange of exchanges) {
    const usage = exchange.usage;
    if (!usage) continue;
    totals.inputTokens += usage.input_tokens ?? 0;
    totals.outputTokens += usage.output_tokens ?? 0;
    if (typeof usage.cost === "number") totals.cost = roundMoney((totals.cost ?? 0) + usage.cost);
  }
  return totals;
}

/**
 * One kind's part of a result's judge calls (results.judge_by_kind): calls always; tokens and
 * cost when the record splits them by kind (exchanges do, an imported report's by_kind does not).
 */
export interface KindUsage {
  calls: number;
  input_tokens?: number;
  output_tokens?: number;
  /** Present (maybe null: none of the kind's calls had a cost) when the record splits cost by kind. */
  cost?: number | null;
}

/**
 * A result's judge calls by kind, as exchangeUsage sums them all (tokens null as 0, cost rounded
 * as money, null when none had one), and the model they name: the first exchange's usage that
 * names one, as domain/cost judgeUsageFromExchanges takes it. Null by_kind when there was no call.
 */
export function exchangeKinds(exchanges: readonly ExchangeLike[]): { byKind: Record<string, KindUsage> | null; model: string | null } {
  const byKind: Record<string, Required<KindUsage>> = {};
  let model: string | null = null;
  for (const exchange of exchanges) {
    const kind = String(exchange.kind ?? "");
    const part = (byKind[kind] ??= { calls: 0, input_tokens: 0, output_tokens: 0, cost: null });
    part.calls += 1;
    const usage = exchange.usage;
    model ??= usage?.model ?? null;
    if (!usage) continue;
    part.input_tokens += usage.input_tokens ?? 0;
    part.output_tokens += usage.output_tokens ?? 0;
    if (typeof usage.cost === "number") part.cost = roundMoney((part.cost ?? 0) + usage.cost);
  }
  return { byKind: exchanges.length > 0 ? byKind : null, model };
}

/**
 * The calls per kind a report's judge usage tallies (`by_kind`: {kind: count}), each count read
 * as a count (a number cut to an integer; anything else 0) held within [0, REPORT_MAX_COUNT], as
 * the run's judge calls are: the import does not check by_kind, and a rebuild must not fail on
 * it. Null when there is no such object. Tokens and cost are not split by kind in a report.
 */
export function reportedKinds(byKind: unknown): Record<string, KindUsage> | null {
  if (byKind === null || typeof byKind !== "object" || Array.isArray(byKind)) return null;
  const out: Record<string, KindUsage> = {};
  for (const [kind, count] of Object.entries(byKind as Record<string, unknown>)) {
    const n = typeof count === "number" && Number.isFinite(count) ? Math.trunc(count) : 0;
    out[kind] = { calls: Math.min(Math.max(n, 0), REPORT_MAX_COUNT) };
  }
  return out;
}

/** Money rounded to 6 decimals, as the report rounds it, so sums do not drift. */
function roundMoney(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
