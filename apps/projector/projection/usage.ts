// Judge spend of a list of exchanges (each carries its own usage), summed exactly once per event.
interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
}

interface ExchangeLike {
  usage?: { input_tokens?: number | null; output_tokens?: number | null; cost?: number | null } | null;
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

/** Money rounded to 6 decimals, as the report rounds it, so sums do not drift. */
function roundMoney(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
