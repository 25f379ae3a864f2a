import { describe, expect, it } from "vitest";
import { Replay } from "../replay/index.js";
import { COST_LIMIT } from "../events/index.js";
import { costRate, costSource } from "../cost/index.js";
import { PriceTable, priceRefusalLine, priceReplay, type PriceRefusal } from "./index.js";

const table = PriceTable.parse("models:\n  gpt-4o: { input: 2.5, output: 10 }\n  claude-sonnet-4: { input: 3, output: 15 }\n", "prices.yaml");
const gpt = { label: "gpt-4o", model: "gpt-4o" };
const sonnet = { label: "anthropic/claude-sonnet-4", model: "claude-sonnet-4" };
const unknown = { label: "qwen3:8b", model: "qwen3:8b" };

const asResult = (replay: Replay) => ({ scenario: { key: "s" }, label: "m", replay });

describe("priceReplay: reference-platform #22's chain on a replay", () => {
  it("estimates tokens × the table's rate, with the rate and the counts it used in the metadata", () => {
    const replay = new Replay({ answer: "ok", inputTokens: 2_328, outputTokens: 423, metadata: { trace_id: "t1" } });
    const priced = priceReplay(replay, gpt, table);
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
    const priced = priceReplay(new Replay({ inputTokens: 1_000_000, outputTokens: 1_000_000 }), sonnet, table);
    expect(priced.cost).toBe(18);
    expect(priced.costRate).toMatchObject({ key: "claude-sonnet-4", matched: "model" });
  });

  it("stores the cost unrounded (the report rounds what it shows)", () => {
    const priced = priceReplay(new Replay({ inputTokens: 1, outputTokens: 1 }), gpt, table);
    expect(priced.cost).toBe(2.5e-6 + 1e-5);
    expect(priced.cost).not.toBe(Math.round(priced.cost! * 1e6) / 1e6);
  });

  it("leaves a reported cost as it is, even at zero or with tokens the table prices", () => {
    for (const cost of [0.0243, 0]) {
      const replay = new Replay({ inputTokens: 2_328, outputTokens: 423, cost });
      expect(priceReplay(replay, gpt, table)).toBe(replay);
    }
  });

  it("leaves the agent's own estimate, and a cost_source the agent gave without a cost, as they are", () => {
    const estimate = new Replay({ inputTokens: 10, outputTokens: 10, cost: 0.5, metadata: { cost_source: "estimated", cost_rate: { input: 5, output: 30, source: "catalog" } } });
    expect(priceReplay(estimate, gpt, table)).toBe(estimate);
    const saidUnpriced = new Replay({ inputTokens: 10, outputTokens: 10, metadata: { cost_source: "unpriced" } });
    expect(priceReplay(saidUnpriced, gpt, table)).toBe(saidUnpriced);
    const saidNoUsage = new Replay({ inputTokens: 0, outputTokens: 0, metadata: { cost_source: "no_usage" } });
    expect(priceReplay(saidNoUsage, gpt, null)).toBe(saidNoUsage);
  });

  it("prices both token counts at 0 from a rate the table names: estimated at $0, with its rate (the reference's order)", () => {
    const priced = priceReplay(new Replay({ answer: "cached", inputTokens: 0, outputTokens: 0 }), gpt, table);
    expect(priced.cost).toBe(0);
    expect(priced.metadata).toEqual({
      cost_source: "estimated",
      cost_rate: { input: 2.5, output: 10, source: "price table", basis: "tokens", input_tokens: 0, output_tokens: 0, key: "gpt-4o", matched: "label" },
    });
    expect(costSource(asResult(priced))).toBe("estimated");
  });

  it("calls both token counts at 0 no_usage at $0 when no rate applies, with or without a table", () => {
    for (const [spec, given] of [[unknown, table], [gpt, null]] as const) {
      const priced = priceReplay(new Replay({ answer: "cached", inputTokens: 0, outputTokens: 0 }), spec, given);
      expect(priced.cost).toBe(0);
      expect(priced.metadata).toEqual({ cost_source: "no_usage" });
      expect(costSource(asResult(priced))).toBe("no_usage");
    }
  });

  it("leaves a model the table does not name unpriced, and prices nothing without a table", () => {
    const replay = new Replay({ inputTokens: 100, outputTokens: 10 });
    expect(priceReplay(replay, unknown, table)).toBe(replay);
    expect(priceReplay(replay, gpt, null)).toBe(replay);
    expect(costSource(asResult(replay))).toBe("unpriced");
  });

  it("prices only a replay that gives both counts: one missing is unknown usage, not zero", () => {
    for (const init of [{}, { inputTokens: 100 }, { outputTokens: 10 }, { inputTokens: 0 }, { inputTokens: 0, outputTokens: null }]) {
      const replay = new Replay(init);
      expect(priceReplay(replay, gpt, table)).toBe(replay);
    }
    // A failed replay without counts stays unpriced; one that reports its tokens is priced like any.
    const failed = Replay.failed(new Error("timeout"));
    expect(priceReplay(failed, gpt, table)).toBe(failed);
    expect(priceReplay(Replay.failed("boom", { inputTokens: 100, outputTokens: 0 }), gpt, table).cost).toBe(0.00025);
  });

  it("gives a cost_source that is not text (5, true) no say: the replay is priced, as the report reads it as saying nothing", () => {
    for (const given of [5, true, "  "]) {
      const replay = new Replay({ inputTokens: 1_000_000, outputTokens: 0, metadata: { cost_source: given } });
      // What the report would read the replay as, unpriced: a cost_source it does not honour.
      expect(costSource(asResult(replay))).toBe("unpriced");
      expect(replay.costSource).toBe("unpriced");
      const priced = priceReplay(replay, gpt, table);
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
    const priced = priceReplay(replay, gpt, dear, (refusal) => refusals.push(refusal));
    expect(priced).toBe(replay);
    expect(costSource(asResult(priced))).toBe("unpriced");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ label: "gpt-4o", inputTokens: 2_000_000_000, outputTokens: 10, estimate: 2_000_000_010 });
    expect(refusals[0].rate).toMatchObject({ key: "gpt-4o", matched: "label" });
    expect(priceRefusalLine(refusals[0])).toBe(
      `gpt-4o: not priced: 2000000000 input and 10 output tokens at the price table's rate for "gpt-4o" (input 1000000, output 1000000 USD per million) ` +
        `come to 2000000010 USD, past the ${COST_LIMIT} USD a recorded cost may be; the replay is left unpriced (check that rate)`,
    );
    // Without a listener it is left unpriced all the same.
    expect(priceReplay(replay, gpt, dear)).toBe(replay);
  });

  it("prices exactly COST_LIMIT, the most an event takes", () => {
    const priced = priceReplay(new Replay({ inputTokens: COST_LIMIT, outputTokens: 0 }), gpt, dear);
    expect(priced.cost).toBe(COST_LIMIT);
  });

  it("works per token first: a count a rate would overflow is an estimate past the bound, not Infinity; one that is Infinity is refused too", () => {
    const refusals: PriceRefusal[] = [];
    priceReplay(new Replay({ inputTokens: 1e303, outputTokens: 0 }), gpt, dear, (refusal) => refusals.push(refusal));
    expect(refusals[0].estimate).toBe(1e303);
    const replay = new Replay({ inputTokens: 1e308, outputTokens: 1e308 });
    expect(priceReplay(replay, gpt, dear, (refusal) => refusals.push(refusal))).toBe(replay);
    expect(refusals[1].estimate).toBe(Infinity);
  });
});
