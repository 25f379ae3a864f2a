// The platform's own cost chain (reference-platform §1 #22) for a replay its agent ran, applied
// once, when the replay is recorded: the recorded event holds the cost and how it was arrived at,
// and every report is rebuilt from what was recorded, never priced again (a later table applies
// to later runs only; the reference reprices stored runs, §3 rule 26, which an event log does not).
//
//   1. the replay's own figure wins: a cost (reported, or the agent's own estimate with its
//      metadata `cost_source`/`cost_rate`), or a metadata `cost_source` without one (the agent
//      said `unpriced` or `no_usage` itself) is left exactly as it is;
//   2. input and output tokens both recorded as 0: cost 0, `cost_source: "no_usage"`;
//   3. both token counts and the model's rate in the table: tokens × rate, `cost_source: "estimated"` with
//      its `cost_rate` `{ input, output, source: "price table", basis: "tokens", input_tokens,
//      output_tokens }`, so the report shows it with `~` and its working;
//   4. else unchanged: no cost, read as `unpriced`.
//
// `no_usage` applies with no table too: a replay that says it used no token cost nothing at any
// rate, a fact rather than an estimate, and the reference's chain always runs. Only counts the
// replay gives qualify: a count it did not give (null) is unknown, not zero, so a replay missing
// either count is neither `no_usage` nor estimated (half its usage priced would read as its cost)
// and stays unpriced; the reference, which would estimate such a one from its text, does not call
// it free either.
import { Replay } from "../replay/replay.js";
import { isBlank } from "../support/blank.js";
import type { PriceTable } from "./priceTable.js";

/** `cost_rate.source` of a cost worked out from the operator's price table. */
const PRICE_TABLE_SOURCE = "price table";

/**
 * `replay` with the cost the chain gives it: the same Replay when it already has its figure or
 * none can be given, else a new one with `cost` and its metadata `cost_source` (and `cost_rate`).
 * The cost is not rounded: the report rounds what it shows, and sums the unrounded figures.
 */
export function priceReplay(replay: Replay, spec: { readonly label: string; readonly model: string }, table: PriceTable | null): Replay {
  if (replay.cost !== null || !isBlank(replay.metadata.cost_source)) return replay;
  const input = replay.inputTokens;
  const output = replay.outputTokens;
  if (input === 0 && output === 0) return withCost(replay, 0, { cost_source: "no_usage" });
  if (input === null || output === null) return replay;
  const rate = table?.rateFor(spec);
  if (!rate) return replay;
  const cost = (input * rate.input) / 1e6 + (output * rate.output) / 1e6;
  return withCost(replay, cost, {
    cost_source: "estimated",
    cost_rate: { input: rate.input, output: rate.output, source: PRICE_TABLE_SOURCE, basis: "tokens", input_tokens: input, output_tokens: output },
  });
}

function withCost(replay: Replay, cost: number, metadata: Record<string, unknown>): Replay {
  return new Replay({
    answer: replay.answer,
    toolCalls: replay.toolCalls,
    durationMs: replay.durationMs,
    inputTokens: replay.inputTokens,
    outputTokens: replay.outputTokens,
    error: replay.error,
    cost,
    metadata: { ...replay.metadata, ...metadata },
  });
}
