// The platform's own cost chain (reference-platform §1 #22: reported → estimated → no_usage →
// unpriced, first match wins) for a replay its agent ran, applied once, when the replay is
// recorded: the recorded event holds the cost and how it was arrived at, and every report is
// rebuilt from what was recorded, never priced again (a later table applies to later runs only;
// the reference reprices stored runs, §3 rule 26, which an event log does not).
//
//   1. the replay's own figure wins: a cost (reported, or the agent's own estimate with its
//      metadata `cost_source`/`cost_rate`), or a metadata `cost_source` without one (the agent
//      said `unpriced` or `no_usage` itself; text, as the report reads it: givenCostSource) is
//      left exactly as it is;
//   2. both token counts and the model's rate in the table: tokens × rate, `cost_source:
//      "estimated"` with its `cost_rate` `{ input, output, source: "price table", basis: "tokens",
//      input_tokens, output_tokens, key, matched }` (`key` the table's entry that priced it,
//      `matched` "label" or "model": how it was found), so the report shows it with `~` and its
//      working; a model the table names at 0 input and 0 output tokens is estimated at $0 so;
//   3. no rate applies and input and output tokens are both 0: cost 0, `cost_source: "no_usage"`;
//   4. else unchanged: no cost, read as `unpriced`.
//
// An estimate no event can record (past COST_LIMIT, the event schema's bound on a cost, or not a
// finite number: an absurd rate times many tokens) is not made: the replay is left unpriced, so
// its answer and tokens are still recorded, and `onRefused` is told, for the caller to say so.
//
// `no_usage` applies with no table too: a replay that says it used no token cost nothing at any
// rate, a fact rather than an estimate, and the reference's chain always runs. Only counts the
// replay gives qualify: a count it did not give (null) is unknown, not zero, so a replay missing
// either count is neither `no_usage` nor estimated (half its usage priced would read as its cost)
// and stays unpriced; the reference, which would estimate such a one from its text, does not call
// it free either.
import { COST_LIMIT } from "../events/shared.js";
import { Replay } from "../replay/replay.js";
import type { MatchedRate, PriceTable } from "./priceTable.js";
import { givenCostSource } from "../cost/resultCost.js";

/** `cost_rate.source` of a cost worked out from the operator's price table. */
const PRICE_TABLE_SOURCE = "price table";

/** An estimate the chain did not record (over COST_LIMIT or not finite): the replay was left unpriced. */
export interface PriceRefusal {
  /** The model as the run names it. */
  readonly label: string;
  readonly rate: MatchedRate;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The estimate, USD (possibly Infinity). */
  readonly estimate: number;
}

/** What to say of a refusal, naming the model, the table's entry and the bound. */
export function priceRefusalLine(refusal: PriceRefusal): string {
  const { label, rate, inputTokens, outputTokens, estimate } = refusal;
  return (
    `${label}: not priced: ${inputTokens} input and ${outputTokens} output tokens at the price table's rate for ${JSON.stringify(rate.key)} ` +
    `(input ${rate.input}, output ${rate.output} USD per million) come to ${estimate} USD, past the ${COST_LIMIT} USD a recorded cost may be; ` +
    "the replay is left unpriced (check that rate)"
  );
}

/**
 * `replay` with the cost the chain gives it: the same Replay when it already has its figure or
 * none can be given, else a new one with `cost` and its metadata `cost_source` (and `cost_rate`).
 * The cost is not rounded: the report rounds what it shows, and sums the unrounded figures.
 */
export function priceReplay(
  replay: Replay,
  spec: { readonly label: string; readonly model: string },
  table: PriceTable | null,
  onRefused?: (refusal: PriceRefusal) => void,
): Replay {
  if (replay.cost !== null || givenCostSource(replay.metadata.cost_source) !== null) return replay;
  const input = replay.inputTokens;
  const output = replay.outputTokens;
  if (input === null || output === null) return replay;
  const rate = table?.rateFor(spec);
  if (!rate) return input === 0 && output === 0 ? withCost(replay, 0, { cost_source: "no_usage" }) : replay;
  // Per token first: a rate times a count past 1e302 would overflow before the division.
  const cost = input * (rate.input / 1e6) + output * (rate.output / 1e6);
  if (!Number.isFinite(cost) || cost > COST_LIMIT) {
    onRefused?.({ label: spec.label, rate, inputTokens: input, outputTokens: output, estimate: cost });
    return replay;
  }
  return withCost(replay, cost, {
    cost_source: "estimated",
    cost_rate: {
      input: rate.input, output: rate.output, source: PRICE_TABLE_SOURCE, basis: "tokens", input_tokens: input, output_tokens: output,
      key: rate.key, matched: rate.matched,
    },
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
