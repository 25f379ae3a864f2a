import { describe, expect, it } from "vitest";
import { eventSchemas, type JudgeExchange } from "@verdict/domain";
import { exchangeData } from "./exchanges.js";

const exchange = (usage: JudgeExchange["usage"]): JudgeExchange => ({
  kind: "score", label: "judge", prompt: "p", instructions: "i", raw: '{"score": 0.8}', parsed: { score: 0.8 },
  unusable_reason: null, skipped: false, usage,
});

describe("exchangeData", () => {
  it("keeps how the usage was arrived at, so an estimated judge spend reads as one once recorded", () => {
    const data = exchangeData(exchange({ input_tokens: 400, output_tokens: 20, cost: 0.001, model: "claude-opus-5", source: "estimated" }));
    expect(data.usage).toEqual({ input_tokens: 400, output_tokens: 20, cost: 0.001, model: "claude-opus-5", source: "estimated" });
    expect(eventSchemas.judgeExchangeData.parse(data).usage).toMatchObject({ source: "estimated" });
    expect(exchangeData(exchange({ input_tokens: 1 })).usage).toEqual({ input_tokens: 1 });
  });
});
