import { describe, expect, it } from "vitest";
import { Diagnosis } from "../diagnosis/index.js";
import { Replay } from "../replay/index.js";
import { Scenario } from "../scenarios/scenario.js";
import { Scorer } from "../scoring/index.js";
import { Result } from "./result.js";

const spec = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
const scenario = new Scenario({
  key: "orders_1",
  prompt: "Where is my order 4821?",
  group: "orders",
  expectedTools: ["lookup_order"],
});

function evaluate(replay: Replay): Result {
  const scores = new Scorer().score(scenario, replay);
  const score = Scorer.mean(scores);
  const diagnosis = Diagnosis.diagnose({ scenario, replay, scores, score, availableTools: ["lookup_order"] });
  const status = replay.errored ? "errored" : diagnosis ? "failed" : "passed";
  return new Result({ scenario, spec, replay, scores, score, status, diagnosis });
}

describe("Result", () => {
  it("reads the spec and the diagnosis", () => {
    const result = evaluate(new Replay({ answer: "Orders ship in two days." }));
    expect(result.label).toBe("gpt-5-mini");
    expect(result.provider).toBe("openai");
    expect(result.model).toBe("gpt-5-mini");
    expect(result.failed).toBe(true);
    expect(result.fault).toBe("expected_tool_not_called");
    expect(result.summary).toBe("Expected lookup_order to be called; the agent called nothing.");
    expect(result.recommendation).toMatch(/^lookup_order is available but the agent answered without calling any tool\./);
    expect(result.suggestedTool).toBeNull();
    expect(result.judgeExchanges).toEqual([]);
  });

  it("has no fault when it passed", () => {
    const result = evaluate(new Replay({ answer: "Order 4821 shipped.", toolCalls: [{ name: "lookup_order" }] }));
    expect(result.passed).toBe(true);
    expect(result.fault).toBeNull();
    expect(result.summary).toBeNull();
    expect(result.recommendation).toBeNull();
  });

  it("reads the suggested tool from a judge-refined diagnosis", () => {
    const base = evaluate(new Replay({ answer: "Orders ship in two days." }));
    const diagnosis = Diagnosis.refine(base.diagnosis!, {
      recommendation: "Call lookup_order first.",
      suggested_tool: { name: "track_shipment", description: "Carrier tracking" },
    });
    const result = new Result({ ...base, diagnosis, status: "failed" });
    expect(result.suggestedTool).toEqual({ name: "track_shipment", description: "Carrier tracking" });
    expect(result.recommendation).toBe("Call lookup_order first.");
  });

  it("reads cost metadata through the replay", () => {
    const estimated = evaluate(
      new Replay({
        answer: "Order 4821 shipped.",
        toolCalls: [{ name: "lookup_order" }],
        cost: 0.02433,
        metadata: {
          cost_source: "estimated",
          cost_rate: { input: 5.0, output: 30.0, source: "catalog" },
          judge_usage: { calls: 1, cost: 0.0015 },
        },
      }),
    );
    expect(estimated.costSource).toBe("estimated");
    expect(estimated.estimatedCost).toBe(true);
    expect(estimated.costRate).toEqual({ input: 5.0, output: 30.0, source: "catalog" });
    expect(estimated.judgeUsage).toEqual({ calls: 1, cost: 0.0015 });
    const reported = evaluate(new Replay({ answer: "x", cost: 0.01 }));
    expect(reported.costSource).toBe("reported");
    expect(reported.estimatedCost).toBe(false);
    expect(evaluate(new Replay({ answer: "x" })).costSource).toBe("unpriced");
  });

  it("is errored when the run failed", () => {
    const result = evaluate(Replay.failed(new Error("401 Unauthorized")));
    expect(result.errored).toBe(true);
    expect(result.fault).toBe("run_error");
  });
});

describe("Result#toJSON", () => {
  it("writes every key in the reference's order", () => {
    const replay = new Replay({
      answer: "Order 4821 shipped.",
      toolCalls: [{ name: "lookup_order", arguments: { number: "4821" } }],
      durationMs: 1_840,
      inputTokens: 2_328,
      outputTokens: 423,
      cost: 0.02433,
      error: "partial stream",
      metadata: { judge_usage: { calls: 1 }, chat_id: 9 },
    });
    const diagnosis = { fault: "low_quality" as const, summary: "s", recommendation: "r", evidence: { scores: {} } };
    const json = new Result({ scenario, spec, replay, scores: { expected_tools: 1 }, score: 1, status: "errored", diagnosis }).toJSON();
    expect(Object.keys(json)).toEqual([
      "scenario_key",
      "group",
      "prompt",
      "label",
      "provider",
      "model",
      "status",
      "score",
      "scores",
      "answer",
      "tool_calls",
      "duration_ms",
      "input_tokens",
      "output_tokens",
      "cost",
      "error",
      "fault",
      "recommendation",
      "diagnosis",
      "judge_usage",
      "metadata",
    ]);
    expect(json.judge_usage).toEqual({ calls: 1 });
    expect(json.tool_calls).toEqual([{ name: "lookup_order", arguments: { number: "4821" } }]);
  });

  it("drops null fields but keeps scores, tool calls and metadata", () => {
    const bare = new Scenario({ key: "billing_1", prompt: "What is the refund window?" });
    const json = new Result({ scenario: bare, spec, replay: new Replay({ answer: "30 days." }), scores: {}, score: null, status: "passed" }).toJSON();
    expect(json).toEqual({
      scenario_key: "billing_1",
      prompt: "What is the refund window?",
      label: "gpt-5-mini",
      provider: "openai",
      model: "gpt-5-mini",
      status: "passed",
      scores: {},
      answer: "30 days.",
      tool_calls: [],
      metadata: {},
    });
  });

  it("serializes a null score inside scores and survives JSON", () => {
    const result = evaluate(new Replay({ answer: "Orders ship in two days." }));
    const parsed = JSON.parse(JSON.stringify(new Result({ ...result, scores: { ...result.scores, task_completion: null } })));
    expect(parsed.scores).toEqual({ expected_tools: 0, task_completion: null });
    expect(parsed.diagnosis.evidence).toEqual({ expected: ["lookup_order"], called: [], unavailable: [] });
  });
});
