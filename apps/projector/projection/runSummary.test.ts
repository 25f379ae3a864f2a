import { describe, expect, it } from "vitest";
import { summarizeResults } from "./runSummary.js";

const row = (score: number, cost: number | null, duration: number) => ({
  model_label: "m", provider: "openai", model: "m", status: "passed", score, duration_ms: duration, input_tokens: "10", output_tokens: "2", cost, fault: null,
});

describe("summarizeResults", () => {
  it("rounds and adds as the report does: a mean of exactly 0.6995 is 0.7, halves round away from zero", () => {
    // One by one these scores sum to 2.7979999999999996 (a mean of 0.699).
    const rows = [row(0.775, 0.001, 1), row(0.867, null, 2), row(0.441, 0.002, 2), row(0.715, null, 2)];
    expect(summarizeResults(rows, ["m"]).m).toMatchObject({ avg_score: 0.7, avg_duration_ms: 2, cost: 0.003, priced: 2, input_tokens: 40 });
  });
});
