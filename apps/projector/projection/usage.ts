// Judge spend of a list of exchanges (each carries its own usage), summed exactly once per event,
// and a result's judge usage as its report reads it (resultJudge).
import { carriesJudgeUsage, COST_LIMIT, countOf, floatSum, JUDGE_KINDS_MAX, numberOrNull, OTHER_JUDGE_KIND, REPORT_MAX_COUNT, roundHalfAwayFromZero, TOKEN_COUNT_LIMIT } from "@verdict/domain";

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

// Costs are summed whole and rounded once, as the report's judgeUsageFromExchanges does: rounding
// after each call read three calls of $0.0000672 as $0.000201 where the report said $0.000202.
export function exchangeUsage(exchanges: readonly ExchangeLike[]): UsageTotals {
  const totals: UsageTotals = { calls: exchanges.length, inputTokens: 0, outputTokens: 0, cost: null };
  const costs: number[] = [];
  for (const exchange of exchanges) {
    const usage = exchange.usage;
    if (!usage) continue;
    totals.inputTokens += usage.input_tokens ?? 0;
    totals.outputTokens += usage.output_tokens ?? 0;
    if (typeof usage.cost === "number") costs.push(usage.cost);
  }
  if (costs.length > 0) totals.cost = roundMoney(floatSum(costs));
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
  const costs: Record<string, number[]> = {};
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
    if (typeof usage.cost === "number") (costs[kind] ??= []).push(usage.cost);
  }
  for (const [kind, spent] of Object.entries(costs)) byKind[kind].cost = roundMoney(floatSum(spent));
  return { byKind: exchanges.length > 0 ? foldKinds(byKind) : null, model };
}

/** A count held within [0, max] (a figure past what the read model's columns hold). */
function bounded(count: number, max: number): number {
  return Math.min(Math.max(count, 0), max);
}

/**
 * The calls per kind a report's judge usage tallies (`by_kind`: {kind: count}), each count read
 * as the report reads it (domain/cost countOf: a number or numeric text, cut to an integer;
 * anything else 0), held within [0, REPORT_MAX_COUNT] so sums stay storable (the import refuses
 * anything else now; a report imported before may carry it), at most JUDGE_KINDS_MAX kinds
 * (foldKinds). Null when there is no such object. Tokens and cost are not split by kind in a report.
 */
export function reportedKinds(byKind: unknown): Record<string, KindUsage> | null {
  if (byKind === null || typeof byKind !== "object" || Array.isArray(byKind)) return null;
  const out: Record<string, KindUsage> = {};
  for (const [kind, count] of Object.entries(byKind as Record<string, unknown>)) out[kind] = { calls: bounded(countOf(count), REPORT_MAX_COUNT) };
  return foldKinds(out);
}

/** The kinds the platform's judge meters, kept first when kinds are folded; any other follows by name. */
const KIND_ORDER = ["score", "recommend", "verdict", "define"];

/**
 * At most JUDGE_KINDS_MAX kinds: past that, the first JUDGE_KINDS_MAX - 1 (the platform's four
 * first, then by name) are kept and the rest summed into OTHER_JUDGE_KIND ("other"): its calls,
 * and its tokens and cost when every kind folded splits them. A report imported before the import
 * refused more kinds (140,000 of them) is bounded so.
 */
function foldKinds(byKind: Record<string, KindUsage>): Record<string, KindUsage> {
  const kinds = Object.keys(byKind);
  if (kinds.length <= JUDGE_KINDS_MAX) return byKind;
  // The default sort compares UTF-16 code units, as `<` does (the API orders kinds so).
  const ranked = [
    ...KIND_ORDER.filter((kind) => Object.hasOwn(byKind, kind)),
    ...kinds.filter((kind) => kind !== OTHER_JUDGE_KIND && !KIND_ORDER.includes(kind)).sort(),
  ];
  const out: Record<string, KindUsage> = {};
  for (const kind of ranked.slice(0, JUDGE_KINDS_MAX - 1)) out[kind] = byKind[kind];
  let other: KindUsage | null = null;
  for (const kind of [...ranked.slice(JUDGE_KINDS_MAX - 1), ...(Object.hasOwn(byKind, OTHER_JUDGE_KIND) ? [OTHER_JUDGE_KIND] : [])]) {
    other = other === null ? { ...byKind[kind] } : addKind(other, byKind[kind]);
  }
  if (other) out[OTHER_JUDGE_KIND] = other;
  return out;
}

/** Two parts of one kind: calls summed; tokens and cost only when both split them. */
function addKind(a: KindUsage, b: KindUsage): KindUsage {
  const calls = bounded(a.calls + b.calls, REPORT_MAX_COUNT);
  if (a.input_tokens === undefined || b.input_tokens === undefined || a.output_tokens === undefined || b.output_tokens === undefined) return { calls };
  const cost = a.cost == null && b.cost == null ? null : roundMoney((a.cost ?? 0) + (b.cost ?? 0));
  return { calls, input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens, cost };
}

/** Where a result's judge usage comes from: the platform's judge (its exchanges) or the replay's own record. */
type JudgeSource = "meter" | "reported";

/** A result's judge usage as the read model keeps it (results.judge_*). */
export interface ResultJudge {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
  byKind: Record<string, KindUsage> | null;
  model: string | null;
  /** Null when the result has no judge usage (the report counts no part for it). */
  source: JudgeSource | null;
}

const plainObject = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/**
 * A result's judge usage by the report's rule (apps/worker runReport and domain/runner: the
 * replay's own `metadata.judge_usage` when the replay carries that key, else what the platform's
 * judge exchanges used): a replay that says what its judge spent (an agent's or a host's record)
 * is taken at its word, and its exchanges, if any, are not added. That record is read as the
 * report reads it (countOf for counts, numberOrNull for the cost; a value that is not an object
 * is no usage at all, as the report has none), held within what the columns store: counts in
 * [0, REPORT_MAX_COUNT], tokens in [0, TOKEN_COUNT_LIMIT], a cost outside [0, COST_LIMIT] none.
 * An imported result is read the same way from its metadata (`importedRunProjection`): the
 * report reads that copy, not the top-level `judge_usage` written out beside it.
 */
export function resultJudge(metadata: Readonly<Record<string, unknown>> | null | undefined, exchanges: readonly ExchangeLike[]): ResultJudge {
  if (carriesJudgeUsage(metadata)) return reportedJudge(metadata.judge_usage);
  const usage = exchangeUsage(exchanges);
  const kinds = exchangeKinds(exchanges);
  return { ...usage, byKind: kinds.byKind, model: kinds.model, source: exchanges.length > 0 ? "meter" : null };
}

/** A judge usage record as the report reads it (see resultJudge). */
export function reportedJudge(record: unknown): ResultJudge {
  const usage = plainObject(record);
  if (!usage) return { calls: 0, inputTokens: 0, outputTokens: 0, cost: null, byKind: null, model: null, source: null };
  const cost = numberOrNull(usage.cost);
  return {
    calls: bounded(countOf(usage.calls), REPORT_MAX_COUNT),
    inputTokens: bounded(countOf(usage.input_tokens), TOKEN_COUNT_LIMIT),
    outputTokens: bounded(countOf(usage.output_tokens), TOKEN_COUNT_LIMIT),
    cost: cost !== null && cost >= 0 && cost <= COST_LIMIT ? cost : null,
    byKind: reportedKinds(usage.by_kind),
    model: typeof usage.model === "string" ? usage.model : null,
    source: "reported",
  };
}

/** Money rounded to 6 decimals, as the report rounds it (half away from zero), so sums do not drift. */
function roundMoney(value: number): number {
  return roundHalfAwayFromZero(value, 6);
}

/**
 * A result's judge usage as its row's columns. Its model only when it is not blank: the report's
 * judge_usage.model is the first model of its parts that is not blank, which is then the first
 * judge_model of the run's scored results in run order.
 */
export function judgeColumns(judge: ResultJudge) {
  return {
    judge_calls: judge.calls, judge_input_tokens: judge.inputTokens, judge_output_tokens: judge.outputTokens, judge_cost: judge.cost,
    judge_by_kind: judge.byKind, judge_model: judge.model !== null && judge.model.trim() !== "" ? judge.model : null, judge_source: judge.source,
  };
}
