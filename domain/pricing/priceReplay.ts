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
//   2. the model's rate in the table (`estimated`, its `cost_rate` `{ input, output, source:
//      "price table", basis, …, input_tokens, output_tokens, key, matched }`, `key` the table's
//      entry that priced it, `matched` "label" or "model": how it was found; the report shows it
//      with `~` and its working):
//      a. both token counts given: tokens × rate, `basis: "tokens"`; a model the table names at
//         0 input and 0 output tokens is estimated at $0 so;
//      b. else (the reference's "linked trace tokens × trace model rate" has no counterpart: a
//         run here links no traces) a count missing (null) is worked out from characters, a
//         lower bound: input ≈ ceil(prompt characters ÷ 4), output ≈ ceil(answer characters ÷
//         4), a count the replay gave used as given; `basis: "chars"`, `lower_bound: true`, and
//         `prompt_chars` / `answer_chars` for each count so worked out (their presence says
//         which). The prompt is the scenario's prompt the agent was sent, exactly as the caller
//         passes it; the replay path sends no instructions, tool definitions or tool results of
//         its own (the agent adds its own, unseen), and the answer is the replay's answer text
//         (none: ""), not its tool calls — all left out, which is why it is a lower bound.
//         Characters are Unicode code points (a surrogate pair is one; a lone surrogate one),
//         as Ruby's String#length counts them, never more than UTF-16 units: the lower of the
//         two readings. A replay that is a run_error (Replay.runError: it failed, answer or
//         not, or it answered only blank text) is not estimated from characters: its text does
//         not say what reached the model, and a call that failed before sending cost nothing,
//         so the prompt is no lower bound of it;
//   3. no rate applies and input and output tokens are both 0: cost 0, `cost_source: "no_usage"`;
//   4. else unchanged: no cost, read as `unpriced` (no rate, or a failed replay missing a count).
//
// The replay's token counts are recorded as the agent gave them (null stays null): a count
// worked out from characters lives in `cost_rate` only, so the report's token sums hold reported
// tokens alone, and an estimate is never read as a count the agent gave.
//
// An estimate no event can record (past COST_LIMIT, the event schema's bound on a cost, or not a
// finite number: an absurd rate times many tokens) is not made: the replay is left unpriced, so
// its answer and tokens are still recorded, and `onRefused` is told, for the caller to say so.
//
// `no_usage` applies with no table too: a replay that says it used no token cost nothing at any
// rate, a fact rather than an estimate, and the reference's chain always runs. Only counts the
// replay gives qualify: a count it did not give (null) is unknown, not zero, so a replay missing
// either count is never `no_usage`; without a rate it stays unpriced, as the reference, which
// estimates such a one from its text only at a rate, does not call it free either.
import { COST_LIMIT } from "../events/shared.js";
import { Replay } from "../replay/replay.js";
import type { MatchedRate, PriceTable } from "./priceTable.js";
import { givenCostSource } from "../cost/resultCost.js";
import { characterLength } from "../support/index.js";

/** `cost_rate.source` of a cost worked out from the operator's price table. */
const PRICE_TABLE_SOURCE = "price table";

/** How an estimate's token counts were had: both as the replay gave them, or some from characters (a lower bound). */
export type PriceBasis = "tokens" | "chars";

/** Characters per token of the chars estimate (reference-platform #22: "chars ÷ 4"). */
const CHARS_PER_TOKEN = 4;

/** An estimate the chain did not record (over COST_LIMIT or not finite): the replay was left unpriced. */
export interface PriceRefusal {
  /** The model as the run names it. */
  readonly label: string;
  readonly rate: MatchedRate;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** `chars` when a count was worked out from characters. */
  readonly basis: PriceBasis;
  /** The estimate, USD (possibly Infinity). */
  readonly estimate: number;
}

/** What to say of a refusal, naming the model, the table's entry and the bound. */
export function priceRefusalLine(refusal: PriceRefusal): string {
  const { label, rate, inputTokens, outputTokens, basis, estimate } = refusal;
  const counted = basis === "chars" ? " (some worked out from characters ÷ 4)" : "";
  return (
    `${label}: not priced: ${inputTokens} input and ${outputTokens} output tokens${counted} at the price table's rate for ${JSON.stringify(rate.key)} ` +
    `(input ${rate.input}, output ${rate.output} USD per million) come to ${estimate} USD, past the ${COST_LIMIT} USD a recorded cost may be; ` +
    "the replay is left unpriced (check that rate)"
  );
}

/**
 * `replay` with the cost the chain gives it: the same Replay when it already has its figure or
 * none can be given, else a new one with `cost` and its metadata `cost_source` (and `cost_rate`).
 * `prompt` is the text the agent was sent for this pair (the scenario's prompt): a count the
 * replay does not give is worked out from it and the answer (step 2b above). The cost is not
 * rounded: the report rounds what it shows, and sums the unrounded figures.
 */
export function priceReplay(
  replay: Replay,
  spec: { readonly label: string; readonly model: string },
  prompt: string,
  table: PriceTable | null,
  onRefused?: (refusal: PriceRefusal) => void,
): Replay {
  // A caller from before the prompt was a parameter passes (replay, spec, table): say so, rather
  // than read the table as the prompt and price nothing.
  if (typeof prompt !== "string") throw new TypeError(`priceReplay: prompt must be the text the agent was sent (a string), got ${describeValue(prompt)}`);
  if (replay.cost !== null || givenCostSource(replay.metadata.cost_source) !== null) return replay;
  const given = { input: replay.inputTokens, output: replay.outputTokens };
  const rate = table?.rateFor(spec);
  if (!rate) return given.input === 0 && given.output === 0 ? withCost(replay, 0, { cost_source: "no_usage" }) : replay;
  const basis: PriceBasis = given.input !== null && given.output !== null ? "tokens" : "chars";
  // A run_error's text says nothing of what reached the model (step 2b).
  if (basis === "chars" && replay.runError) return replay;
  const promptChars = given.input === null ? characterLength(prompt) : null;
  const answerChars = given.output === null ? characterLength(replay.answerText) : null;
  const input = given.input ?? Math.ceil(promptChars! / CHARS_PER_TOKEN);
  const output = given.output ?? Math.ceil(answerChars! / CHARS_PER_TOKEN);
  // Per token first: a rate times a count past 1e302 would overflow before the division.
  const cost = input * (rate.input / 1e6) + output * (rate.output / 1e6);
  if (!Number.isFinite(cost) || cost > COST_LIMIT) {
    onRefused?.({ label: spec.label, rate, inputTokens: input, outputTokens: output, basis, estimate: cost });
    return replay;
  }
  const counts = basis === "tokens"
    ? { basis, input_tokens: input, output_tokens: output }
    : {
        basis, lower_bound: true, input_tokens: input, output_tokens: output,
        ...(promptChars !== null ? { prompt_chars: promptChars } : {}),
        ...(answerChars !== null ? { answer_chars: answerChars } : {}),
      };
  return withCost(replay, cost, {
    cost_source: "estimated",
    cost_rate: { input: rate.input, output: rate.output, source: PRICE_TABLE_SOURCE, ...counts, key: rate.key, matched: rate.matched },
  });
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return value.constructor?.name ?? "an object";
  return typeof value;
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
