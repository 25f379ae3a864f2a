import { describe, expect, it } from "vitest";
import { Replay } from "../replay/index.js";
import { COST_LIMIT } from "../events/index.js";
import { costRate, costSource } from "../cost/index.js";
import { ModelSpec } from "../models/index.js";
import { Runner } from "../runner/index.js";
import { Scenario } from "../scenarios/index.js";
import { PriceTable, priceRefusalLine, priceReplay, type PriceRefusal } from "./index.js";

const table = PriceTable.parse("models:\n  gpt-4o: { input: 2.5, output: 10 }\n  claude-sonnet-4: { input: 3, output: 15 }\n", "prices.yaml");
const gpt = { label: "gpt-4o", model: "gpt-4o" };
const sonnet = { label: "anthropic/claude-sonnet-4", model: "claude-sonnet-4" };
const unknown = { label: "qwen3:8b", model: "qwen3:8b" };
/** The scenario prompt the agent was sent: 40 characters, 10 tokens by the chars estimate. */
const PROMPT = "Where is order 4821? It was due Tuesday.";

const asResult = (replay: Replay) => ({ scenario: { key: "s" }, label: "m", replay });

describe("priceReplay: reference-platform #22's chain on a replay", () => {
  it("estimates tokens × the table's rate, with the rate and the counts it used in the metadata", () => {
    const replay = new Replay({ answer: "ok", inputTokens: 2_328, outputTokens: 423, metadata: { trace_id: "t1" } });
    const priced = priceReplay(replay, gpt, PROMPT, table);
    expect(priced.cost).toBe(2_328 * (2.5 / 1e6) + 423 * (10 / 1e6));
    expect(priced.metadata).toEqual({
      trace_id: "t1",
      cost_source: "estimated",
      cost_rate: { input: 2.5, output: 10, source: "price table", basis: "tokens", input_tokens: 2_328, output_tokens: 423, key: "gpt-4o", matched: "label" },
    });
    expect(costSource(asResult(priced))).toBe("estimated");
    expect(costRate(asResult(priced))).toMatchObject({ input: 2.5, output: 10, source: "price table" });
    // Everything else as the agent gave it; the given replay is not changed.
    expect(priced.answer).toBe("ok");
    expect(priced.inputTokens).toBe(2_328);
    expect(replay.cost).toBeNull();
    expect(replay.metadata).toEqual({ trace_id: "t1" });
  });

  it("finds the rate by the model id when the label is not in the table, and records the key that matched", () => {
    const priced = priceReplay(new Replay({ inputTokens: 1_000_000, outputTokens: 1_000_000 }), sonnet, PROMPT, table);
    expect(priced.cost).toBe(18);
    expect(priced.costRate).toMatchObject({ key: "claude-sonnet-4", matched: "model" });
  });

  it("stores the cost unrounded (the report rounds what it shows)", () => {
    const priced = priceReplay(new Replay({ inputTokens: 1, outputTokens: 1 }), gpt, PROMPT, table);
    expect(priced.cost).toBe(2.5e-6 + 1e-5);
    expect(priced.cost).not.toBe(Math.round(priced.cost! * 1e6) / 1e6);
  });

  it("leaves a reported cost as it is, even at zero or with tokens the table prices", () => {
    for (const cost of [0.0243, 0]) {
      const replay = new Replay({ inputTokens: 2_328, outputTokens: 423, cost });
      expect(priceReplay(replay, gpt, PROMPT, table)).toBe(replay);
    }
  });

  it("leaves the agent's own estimate, and a cost_source the agent gave without a cost, as they are", () => {
    const estimate = new Replay({ inputTokens: 10, outputTokens: 10, cost: 0.5, metadata: { cost_source: "estimated", cost_rate: { input: 5, output: 30, source: "catalog" } } });
    expect(priceReplay(estimate, gpt, PROMPT, table)).toBe(estimate);
    const saidUnpriced = new Replay({ inputTokens: 10, outputTokens: 10, metadata: { cost_source: "unpriced" } });
    expect(priceReplay(saidUnpriced, gpt, PROMPT, table)).toBe(saidUnpriced);
    const saidNoUsage = new Replay({ inputTokens: 0, outputTokens: 0, metadata: { cost_source: "no_usage" } });
    expect(priceReplay(saidNoUsage, gpt, PROMPT, null)).toBe(saidNoUsage);
  });

  it("prices both token counts at 0 from a rate the table names: estimated at $0, with its rate (the reference's order)", () => {
    const priced = priceReplay(new Replay({ answer: "cached", inputTokens: 0, outputTokens: 0 }), gpt, PROMPT, table);
    expect(priced.cost).toBe(0);
    expect(priced.metadata).toEqual({
      cost_source: "estimated",
      cost_rate: { input: 2.5, output: 10, source: "price table", basis: "tokens", input_tokens: 0, output_tokens: 0, key: "gpt-4o", matched: "label" },
    });
    expect(costSource(asResult(priced))).toBe("estimated");
  });

  it("calls both token counts at 0 no_usage at $0 when no rate applies, with or without a table", () => {
    for (const [spec, given] of [[unknown, table], [gpt, null]] as const) {
      const priced = priceReplay(new Replay({ answer: "cached", inputTokens: 0, outputTokens: 0 }), spec, PROMPT, given);
      expect(priced.cost).toBe(0);
      expect(priced.metadata).toEqual({ cost_source: "no_usage" });
      expect(costSource(asResult(priced))).toBe("no_usage");
    }
  });

  it("leaves a model the table does not name unpriced, and prices nothing without a table", () => {
    const replay = new Replay({ inputTokens: 100, outputTokens: 10 });
    expect(priceReplay(replay, unknown, PROMPT, table)).toBe(replay);
    expect(priceReplay(replay, gpt, PROMPT, null)).toBe(replay);
    expect(costSource(asResult(replay))).toBe("unpriced");
  });

  it("without a rate, a replay missing a count stays unpriced: unknown usage is not zero, so never no_usage", () => {
    for (const init of [{}, { inputTokens: 100 }, { outputTokens: 10 }, { inputTokens: 0 }, { inputTokens: 0, outputTokens: null }]) {
      const replay = new Replay({ answer: "Order 4821 ships Friday.", ...init });
      expect(priceReplay(replay, unknown, PROMPT, table)).toBe(replay);
      expect(priceReplay(replay, gpt, PROMPT, null)).toBe(replay);
    }
  });

  it("prices a failed replay (run_error) only from counts it gave, never from characters, answer or not", () => {
    for (const failed of [Replay.failed(new Error("timeout")), Replay.failed("boom", { answer: "partial text", outputTokens: 3 })]) {
      expect(failed.errored).toBe(true);
      expect(priceReplay(failed, gpt, PROMPT, table)).toBe(failed);
      expect(costSource(asResult(failed))).toBe("unpriced");
    }
    // One that reports both its counts is priced like any.
    expect(priceReplay(Replay.failed("boom", { inputTokens: 100, outputTokens: 0 }), gpt, PROMPT, table).cost).toBe(0.00025);
  });

  it("prices a blank answer with no error (a run_error too) only from counts it gave, never from characters", () => {
    for (const init of [{ answer: "" }, { answer: "  \n" }, { inputTokens: 100 }, { answer: "", toolCalls: [{ name: "lookup_order" }] }]) {
      const blank = new Replay(init);
      expect(blank.errored).toBe(false);
      expect(blank.runError).toBe(true);
      expect(priceReplay(blank, gpt, PROMPT, table)).toBe(blank);
    }
    expect(priceReplay(new Replay({ answer: "", inputTokens: 100, outputTokens: 0 }), gpt, PROMPT, table).cost).toBe(0.00025);
  });

  it("is a run_error as diagnosis reads it: a blank answer with no error is diagnosed run_error and left unpriced", async () => {
    const scenarios = [new Scenario({ key: "k", prompt: "Where is my order?" })];
    const spec = ModelSpec.parse("gpt-4o", { defaultProvider: "openai" });
    const report = await new Runner({ scenarios, models: [spec], replay: (s) => priceReplay(new Replay({ answer: "" }), spec, s.prompt, table) }).run();
    const [result] = (report.toJSON() as unknown as { results: Array<{ fault?: string; cost?: number | null }> }).results;
    expect(result.fault).toBe("run_error");
    expect(result.cost ?? null).toBeNull();
  });

  it("refuses a caller that passes the table where the prompt goes (the signature before the prompt), naming prompt", () => {
    const replay = new Replay({ answer: "Order 4821 ships Friday.", inputTokens: 10, outputTokens: 5 });
    const call = priceReplay as unknown as (...args: unknown[]) => Replay;
    expect(() => call(replay, gpt, table)).toThrow(TypeError);
    expect(() => call(replay, gpt, table)).toThrow(/^priceReplay: prompt must be the text the agent was sent \(a string\), got PriceTable$/);
    expect(() => call(replay, gpt, null, table)).toThrow(/prompt must be .* got null/);
  });

  it("gives a cost_source that is not text (5, true) no say: the replay is priced, as the report reads it as saying nothing", () => {
    for (const given of [5, true, "  "]) {
      const replay = new Replay({ inputTokens: 1_000_000, outputTokens: 0, metadata: { cost_source: given } });
      // What the report would read the replay as, unpriced: a cost_source it does not honour.
      expect(costSource(asResult(replay))).toBe("unpriced");
      expect(replay.costSource).toBe("unpriced");
      const priced = priceReplay(replay, gpt, PROMPT, table);
      expect(priced.cost).toBe(2.5);
      expect(costSource(asResult(priced))).toBe("estimated");
      expect(priced.costSource).toBe("estimated");
    }
  });
});

describe("priceReplay: an estimate no event can record", () => {
  const dear = PriceTable.parse("models:\n  gpt-4o: { input: 1000000, output: 1000000 }\n", "prices.yaml");

  it("leaves the replay unpriced past COST_LIMIT, and says so through onRefused", () => {
    const refusals: PriceRefusal[] = [];
    // 2e9 tokens at $1/token: $2e9, past the $1e9 an event's cost may be.
    const replay = new Replay({ answer: "kept", inputTokens: 2_000_000_000, outputTokens: 10 });
    const priced = priceReplay(replay, gpt, PROMPT, dear, (refusal) => refusals.push(refusal));
    expect(priced).toBe(replay);
    expect(costSource(asResult(priced))).toBe("unpriced");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ label: "gpt-4o", inputTokens: 2_000_000_000, outputTokens: 10, basis: "tokens", estimate: 2_000_000_010 });
    expect(refusals[0].rate).toMatchObject({ key: "gpt-4o", matched: "label" });
    expect(priceRefusalLine(refusals[0])).toBe(
      `gpt-4o: not priced: 2000000000 input and 10 output tokens at the price table's rate for "gpt-4o" (input 1000000, output 1000000 USD per million) ` +
        `come to 2000000010 USD, past the ${COST_LIMIT} USD a recorded cost may be; the replay is left unpriced (check that rate)`,
    );
    // Without a listener it is left unpriced all the same.
    expect(priceReplay(replay, gpt, PROMPT, dear)).toBe(replay);
  });

  it("prices exactly COST_LIMIT, the most an event takes", () => {
    const priced = priceReplay(new Replay({ inputTokens: COST_LIMIT, outputTokens: 0 }), gpt, PROMPT, dear);
    expect(priced.cost).toBe(COST_LIMIT);
  });

  it("works per token first: a count a rate would overflow is an estimate past the bound, not Infinity; one that is Infinity is refused too", () => {
    const refusals: PriceRefusal[] = [];
    priceReplay(new Replay({ inputTokens: 1e303, outputTokens: 0 }), gpt, PROMPT, dear, (refusal) => refusals.push(refusal));
    expect(refusals[0].estimate).toBe(1e303);
    const replay = new Replay({ inputTokens: 1e308, outputTokens: 1e308 });
    expect(priceReplay(replay, gpt, PROMPT, dear, (refusal) => refusals.push(refusal))).toBe(replay);
    expect(refusals[1].estimate).toBe(Infinity);
  });
});

describe("priceReplay: a count missing is worked out from characters ÷ 4, a lower bound (basis chars)", () => {
  it("works out a missing output count from the answer, and uses the input count as given", () => {
    // 23 characters: ceil(23 / 4) = 6 output tokens.
    const replay = new Replay({ answer: "Order 4821 ships Friday", inputTokens: 1_000, metadata: { trace_id: "t1" } });
    const priced = priceReplay(replay, gpt, PROMPT, table);
    expect(priced.cost).toBe(1_000 * (2.5 / 1e6) + 6 * (10 / 1e6));
    expect(priced.metadata).toEqual({
      trace_id: "t1",
      cost_source: "estimated",
      cost_rate: {
        input: 2.5, output: 10, source: "price table", basis: "chars", lower_bound: true, input_tokens: 1_000, output_tokens: 6, answer_chars: 23,
        key: "gpt-4o", matched: "label",
      },
    });
    expect(costSource(asResult(priced))).toBe("estimated");
    // The recorded counts stay as the agent gave them: the estimate lives in cost_rate only.
    expect(priced.inputTokens).toBe(1_000);
    expect(priced.outputTokens).toBeNull();
    expect(priced.answer).toBe("Order 4821 ships Friday");
    expect(replay.cost).toBeNull();
  });

  it("works out a missing input count from the prompt the caller passes, and uses the output count as given", () => {
    const priced = priceReplay(new Replay({ answer: "ok", outputTokens: 50 }), sonnet, PROMPT, table);
    // 40 prompt characters: 10 input tokens.
    expect(priced.cost).toBe(10 * (3 / 1e6) + 50 * (15 / 1e6));
    expect(priced.costRate).toEqual({
      input: 3, output: 15, source: "price table", basis: "chars", lower_bound: true, input_tokens: 10, output_tokens: 50, prompt_chars: 40,
      key: "claude-sonnet-4", matched: "model",
    });
    expect(priced.inputTokens).toBeNull();
    expect(priced.outputTokens).toBe(50);
    // Another prompt, another estimate: the prompt is what the caller passes, not a constant.
    expect(priceReplay(new Replay({ answer: "ok", outputTokens: 50 }), sonnet, "x".repeat(401), table).costRate).toMatchObject({ input_tokens: 101, prompt_chars: 401 });
  });

  it("works out both when neither is given, rounding each count up", () => {
    const priced = priceReplay(new Replay({ answer: "Shipped." }), gpt, PROMPT, table);
    // 40 prompt characters: 10; 8 answer characters: 2.
    expect(priced.cost).toBe(10 * (2.5 / 1e6) + 2 * (10 / 1e6));
    expect(priced.costRate).toMatchObject({ basis: "chars", lower_bound: true, input_tokens: 10, output_tokens: 2, prompt_chars: 40, answer_chars: 8 });
    expect(priced.inputTokens).toBeNull();
    expect(priced.outputTokens).toBeNull();
    for (const [answer, tokens] of [["a", 1], ["abcd", 1], ["abcde", 2], ["abcdefgh", 2], ["abcdefghi", 3]] as const) {
      expect(priceReplay(new Replay({ answer }), gpt, PROMPT, table).costRate).toMatchObject({ output_tokens: tokens, answer_chars: answer.length });
    }
  });

  it("does not estimate an empty or missing answer from the prompt: it is a run_error (a given 0 output included)", () => {
    for (const init of [{ answer: "" }, { answer: null }, { answer: "", outputTokens: 0 }]) {
      const replay = new Replay(init);
      expect(priceReplay(replay, gpt, PROMPT, table)).toBe(replay);
    }
  });

  it("counts characters as code points: a character outside the BMP (a surrogate pair) is one, a lone surrogate one", () => {
    // 5 emoji: 5 code points (2 tokens), 10 UTF-16 units (which would be 3).
    const emoji = "😀😀😀😀😀";
    expect(emoji.length).toBe(10);
    const priced = priceReplay(new Replay({ answer: emoji }), gpt, "𝔸𝔹ℂ𝔻", table);
    expect(priced.costRate).toMatchObject({ input_tokens: 1, output_tokens: 2, prompt_chars: 4, answer_chars: 5 });
    // A lone high surrogate (at the end, or before a non-low unit) and a lone low one count once each.
    expect(priceReplay(new Replay({ answer: "a\uD83D" }), gpt, PROMPT, table).costRate).toMatchObject({ answer_chars: 2 });
    expect(priceReplay(new Replay({ answer: "\uD83Dab\uDE00" }), gpt, PROMPT, table).costRate).toMatchObject({ answer_chars: 4 });
    // Accents and CJK are one code point each, as written.
    expect(priceReplay(new Replay({ answer: "café 東京" }), gpt, PROMPT, table).costRate).toMatchObject({ answer_chars: 7, output_tokens: 2 });
  });

  it("leaves the replay's own cost or cost_source as it is, tokens missing or not", () => {
    const reported = new Replay({ answer: "ok", cost: 0.01 });
    expect(priceReplay(reported, gpt, PROMPT, table)).toBe(reported);
    const free = new Replay({ answer: "ok", cost: 0 });
    expect(priceReplay(free, gpt, PROMPT, table)).toBe(free);
    const saidUnpriced = new Replay({ answer: "ok", metadata: { cost_source: "unpriced" } });
    expect(priceReplay(saidUnpriced, gpt, PROMPT, table)).toBe(saidUnpriced);
  });

  it("refuses an estimate past COST_LIMIT made with characters: unpriced, told as such", () => {
    const dear = PriceTable.parse("models:\n  gpt-4o: { input: 1000000, output: 1000000 }\n", "prices.yaml");
    const refusals: PriceRefusal[] = [];
    // 2e9 given input tokens at $1 each, plus ceil(4 / 4) = 1 output token worked out from "kept".
    const replay = new Replay({ answer: "kept", inputTokens: 2_000_000_000 });
    expect(priceReplay(replay, gpt, PROMPT, dear, (refusal) => refusals.push(refusal))).toBe(replay);
    expect(costSource(asResult(replay))).toBe("unpriced");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ label: "gpt-4o", inputTokens: 2_000_000_000, outputTokens: 1, basis: "chars", estimate: 2_000_000_001 });
    expect(priceRefusalLine(refusals[0])).toBe(
      `gpt-4o: not priced: 2000000000 input and 1 output tokens (some worked out from characters ÷ 4) at the price table's rate for "gpt-4o" ` +
        `(input 1000000, output 1000000 USD per million) come to 2000000001 USD, past the ${COST_LIMIT} USD a recorded cost may be; the replay is left unpriced (check that rate)`,
    );
    // Just under the bound it is recorded, with its basis.
    const within = priceReplay(new Replay({ answer: "kept", inputTokens: COST_LIMIT - 1 }), gpt, PROMPT, dear);
    expect(within.cost).toBe(COST_LIMIT);
    expect(within.costRate).toMatchObject({ basis: "chars", lower_bound: true });
  });
});
