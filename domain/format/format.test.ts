import { describe, expect, it } from "vitest";
import { Format } from "./index.js";
import { roundHalfUp, whole } from "./numbers.js";

describe("Format.passes", () => {
  it("writes a fraction with its percentage, rounded half up", () => {
    expect(Format.passes(14, 16)).toBe("14/16 · 88%");
    expect(Format.passes(14, 16, { markdown: true })).toBe("14/16 (88%)");
    expect(Format.passes(1, 8)).toBe("1/8 · 13%");
    expect(Format.passes(0, 3)).toBe("0/3 · 0%");
    expect(Format.passes(2, 3)).toBe("2/3 · 67%");
  });

  it("reads as an em dash when nothing was scored", () => {
    expect(Format.passes(0, 0)).toBe("—");
    expect(Format.passes(3, null)).toBe("—");
    expect(Format.passes(3, -1, { markdown: true })).toBe("—");
    expect(Format.EMPTY).toBe("—");
  });
});

describe("Format.percent / score / threshold", () => {
  it("rounds half up on the decimal value, not the float", () => {
    expect(Format.percent(0.145)).toBe("15%");
    expect(Format.percent(0.875)).toBe("88%");
    expect(Format.percent(1 / 8)).toBe("13%");
    expect(Format.percent(0.005)).toBe("1%");
    expect(Format.score(0.93)).toBe("93%");
    expect(Format.score(1)).toBe("100%");
    expect(Format.score(0)).toBe("0%");
  });

  it("accepts numeric strings and refuses the rest", () => {
    expect(Format.percent("0.5")).toBe("50%");
    expect(Format.percent(null)).toBe("—");
    expect(Format.percent("")).toBe("—");
    expect(Format.percent("high")).toBe("—");
    expect(Format.percent(Number.NaN)).toBe("—");
    expect(Format.percent(Infinity)).toBe("—");
  });

  it("writes the pass threshold", () => {
    expect(Format.threshold(0.7)).toBe("pass ≥ 70%");
    expect(Format.threshold(0.85)).toBe("pass ≥ 85%");
  });
});

describe("Format.money", () => {
  it("uses four decimals, six below $0.001 and two for an explicit zero", () => {
    expect(Format.money(0.02433)).toBe("$0.0243");
    expect(Format.money(12.34567)).toBe("$12.3457");
    expect(Format.money(0.000697)).toBe("$0.000697");
    expect(Format.money(0)).toBe("$0.00");
    expect(Format.money("0")).toBe("$0.00");
    expect(Format.money(-0.01)).toBe("$-0.0100");
  });

  it("writes a figure past 1e21 in plain digits, as %.4f does, not as toFixed's exponent", () => {
    expect(Format.money(1e21)).toBe("$1000000000000000000000.0000");
    expect(Format.money(-2.5e21)).toBe("$-2500000000000000000000.0000");
  });

  it("marks an estimate with a tilde", () => {
    expect(Format.money(0.02433, { estimated: true })).toBe("~$0.0243");
    expect(Format.money(0, { estimated: true })).toBe("~$0.00");
  });

  it("reads as an em dash when there is no figure", () => {
    expect(Format.money(null)).toBe("—");
    expect(Format.money(undefined, { estimated: true })).toBe("—");
    expect(Format.money("n/a")).toBe("—");
  });
});

describe("Format.perMillion and costTitle", () => {
  it("keeps at least two decimals and drops trailing zeros", () => {
    expect(Format.perMillion(5)).toBe("$5.00/M");
    expect(Format.perMillion(0.075)).toBe("$0.075/M");
    expect(Format.perMillion(30)).toBe("$30.00/M");
    expect(Format.perMillion(1.25)).toBe("$1.25/M");
    expect(Format.perMillion(0.12345)).toBe("$0.1235/M");
  });

  it("writes a rate past 1e21 in plain digits rather than failing on toFixed's exponent form", () => {
    expect(Format.perMillion(1e21)).toBe("$1000000000000000000000.00/M");
    expect(Format.perMillion(-1e21)).toBe("$-1000000000000000000000.00/M");
  });

  it("shows the working of an estimate", () => {
    expect(
      Format.costTitle({ input_tokens: 2328, output_tokens: 423, rate: { input: 5, output: 30, source: "catalog" } }),
    ).toBe("estimated: 2,328 in × $5.00/M + 423 out × $30.00/M · catalog rate");
    expect(Format.costTitle({ inputTokens: 1234567, outputTokens: 0, rate: { input: 0.15, output: 0.6 } })).toBe(
      "estimated: 1,234,567 in × $0.15/M + 0 out × $0.60/M · catalog rate",
    );
  });

  it("says an estimate from characters is a lower bound, with the counts it priced and the characters behind each worked out", () => {
    // The replay's own counts (null here) are not what was priced: the rate's are.
    const rate = { input: 2.5, output: 10, source: "price table", basis: "chars", lower_bound: true, input_tokens: 10, output_tokens: 1_500, prompt_chars: 40, answer_chars: 6_000 };
    expect(Format.costTitle({ input_tokens: null, output_tokens: null, rate })).toBe(
      "lower bound: 10 in (40 prompt chars ÷ 4) × $2.50/M + 1,500 out (6,000 answer chars ÷ 4) × $10.00/M · price table rate",
    );
    // A count the replay gave is shown as given, without a characters note.
    const { prompt_chars: _prompt, ...outputOnly } = { ...rate, input_tokens: 2_328 };
    expect(Format.costTitle({ input_tokens: 2_328, output_tokens: null, rate: outputOnly })).toBe(
      "lower bound: 2,328 in × $2.50/M + 1,500 out (6,000 answer chars ÷ 4) × $10.00/M · price table rate",
    );
    expect(Format.isCharsBasis(rate)).toBe(true);
    expect(Format.isCharsBasis({ ...rate, basis: "tokens" })).toBe(false);
    expect(Format.isCharsBasis(null)).toBe(false);
  });

  it("reads basis chars as a lower bound only on an estimate this platform wrote (lower_bound true, the price table's)", () => {
    // Another install's, or the reference's (#22: cost_rate { input, output, source, basis, input_tokens, output_tokens }).
    const foreign = { input: 2.5, output: 10, source: "catalog", basis: "chars", input_tokens: 12, output_tokens: 40 };
    expect(Format.isCharsBasis(foreign)).toBe(false);
    expect(Format.isCharsBasis({ ...foreign, source: "price table" })).toBe(false);
    expect(Format.isCharsBasis({ ...foreign, lower_bound: true })).toBe(false);
    expect(Format.isCharsBasis({ ...foreign, source: "price table", lower_bound: "true" })).toBe(false);
    expect(Format.isCharsBasis({ ...foreign, source: "price table", lower_bound: true })).toBe(true);
    // As before the chars reading: the counts the result gives, a plain estimate.
    expect(Format.costTitle({ input_tokens: null, output_tokens: null, rate: foreign })).toBe("estimated: 0 in × $2.50/M + 0 out × $10.00/M · catalog rate");
  });

  it("flags a rate guessed from the model name", () => {
    expect(Format.costTitle({ input_tokens: 10, output_tokens: 5, rate: { input: 1, output: 2, source: "pattern" } })).toBe(
      "estimated: 10 in × $1.00/M + 5 out × $2.00/M · pattern rate (fallback rate)",
    );
    expect(Format.costTitle({ input_tokens: 10, output_tokens: 5, rate: { input: 1, output: 2, source: "default" } })).toMatch(
      / \(fallback rate\)$/,
    );
  });

  it("names only the method without a usable rate", () => {
    expect(Format.costTitle({ input_tokens: 10, output_tokens: 5 })).toBe("estimated from tokens × model rates");
    expect(Format.costTitle({ input_tokens: 10, rate: { input: 1 } })).toBe("estimated from tokens × model rates");
  });

  it("has one legend line", () => {
    expect(Format.LEGEND).toBe("~ estimated from tokens × model rates");
  });
});

describe("Ruby rounding", () => {
  it("rounds half away from zero on the written decimal", () => {
    expect(roundHalfUp(2.675, 2)).toBe(2.68);
    expect(roundHalfUp(0.6665, 3)).toBe(0.667);
    expect(roundHalfUp(2 / 3, 3)).toBe(0.667);
    expect(roundHalfUp(-2.5)).toBe(-3);
    expect(roundHalfUp(-0.0005, 3)).toBe(-0.001);
    expect(whole(14.499999999999998)).toBe(15);
    expect(Object.is(whole(-0.2), 0)).toBe(true);
  });
});
