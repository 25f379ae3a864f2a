import { afterEach, describe, expect, it, vi } from "vitest";
import { Judge, type JudgeReply } from "./judge.js";
import { fakeJudge } from "./fakeJudge.testing.js";
import { RECOMMEND_INSTRUCTIONS, SCORE_INSTRUCTIONS, VERDICT_INSTRUCTIONS } from "./prompts.js";


const scenario = { prompt: "Where is my order 4821?", notes: "Looks the order up first.", expectedTools: ["lookup_order"] };

describe("Judge.scoreTask", () => {
  it("sends the score instructions and a prompt holding the task, notes and answer", async () => {
    const { judge, requests } = fakeJudge('{"score": 0.8}');
    const { value, exchange } = await judge.scoreTask({ scenario, answer: "It ships tomorrow." });
    expect(value).toBe(0.8);
    expect(requests[0].instructions).toBe(SCORE_INSTRUCTIONS);
    expect(requests[0].instructions).toBe('You are an impartial evaluation judge. Respond ONLY with JSON: {"score": <float between 0.0 and 1.0>}');
    expect(requests[0].kind).toBe("score");
    const prompt = requests[0].prompt;
    expect(prompt).toContain("---\nWhere is my order 4821?\n---");
    expect(prompt).toContain("Context for the evaluator: Looks the order up first.");
    expect(prompt).toContain("---\nIt ships tomorrow.\n---");
    expect(prompt.indexOf("Where is my order")).toBeLessThan(prompt.indexOf("Context for the evaluator"));
    expect(prompt.indexOf("Context for the evaluator")).toBeLessThan(prompt.indexOf("It ships tomorrow."));
    expect(exchange).toEqual({
      kind: "score",
      label: "judge-model",
      prompt,
      instructions: SCORE_INSTRUCTIONS,
      raw: '{"score": 0.8}',
      parsed: { score: 0.8 },
      unusable_reason: null,
      skipped: false,
      usage: null,
    });
  });

  it("leaves the notes line out when there are none, and cuts notes at 1,500 characters", async () => {
    const { judge, requests } = fakeJudge('{"score": 1}', '{"score": 1}');
    await judge.scoreTask({ scenario: { prompt: "Hi" }, answer: "Hello" });
    expect(requests[0].prompt).not.toContain("Context for the evaluator");
    await judge.scoreTask({ scenario: { prompt: "Hi", notes: "n".repeat(2000) }, answer: "Hello" });
    expect(requests[1].prompt).toContain(`Context for the evaluator: ${"n".repeat(1497)}...\n`);
  });

  it("cuts the answer at 4,000 characters", async () => {
    const { judge, requests } = fakeJudge('{"score": 1}');
    await judge.scoreTask({ scenario, answer: "a".repeat(1_000_000) });
    expect(requests[0].prompt).toContain(`---\n${"a".repeat(3997)}...\n---`);
  });

  it("does not ask about a blank answer", async () => {
    const { judge, requests } = fakeJudge('{"score": 1}');
    expect(await judge.scoreTask({ scenario, answer: "  \n" })).toEqual({ value: null, exchange: null });
    expect(requests).toHaveLength(0);
  });

  it("reads a fenced reply and JSON-number forms", async () => {
    const { judge } = fakeJudge('```json\n{"score": 9e-2}\n```', '{"score": 0}', '{"score": 1}');
    expect((await judge.scoreTask({ scenario, answer: "x" })).value).toBe(0.09);
    expect((await judge.scoreTask({ scenario, answer: "x" })).value).toBe(0);
    expect((await judge.scoreTask({ scenario, answer: "x" })).value).toBe(1);
  });

  it("reads -0 as 0", async () => {
    const { judge } = fakeJudge('{"score": -0}');
    expect(Object.is((await judge.scoreTask({ scenario, answer: "x" })).value, 0)).toBe(true);
  });

  it.each([
    ["not JSON at all", "I think it is fine", "no JSON object"],
    ["NaN", '{"score": NaN}', "not valid JSON"],
    ["Infinity", '{"score": Infinity}', "not valid JSON"],
    ["an overflowing number", '{"score": 1e999}', '"score" is not a finite number'],
    ["a string score", '{"score": "0.8"}', '"score" is not a number (got string "0.8")'],
    ["a null score", '{"score": null}', '"score" is not a number (got null)'],
    ["no score", '{"grade": 0.8}', '"score" is missing'],
    ["a score above 1 (another scale)", '{"score": 8}', '"score" is 8, outside 0..1 (a score is a fraction, such as 0.8)'],
    ["a score just above 1", '{"score": 1.0000001}', '"score" is 1.0000001, outside 0..1'],
    ["a negative score", '{"score": -0.2}', '"score" is -0.2, outside 0..1'],
    ["a hugely negative score", '{"score": -1e300}', '"score" is -1e+300, outside 0..1'],
    ["trailing junk in the number", '{"score": 0.8abc}', "not valid JSON"],
  ])("is unusable for %s, and says why", async (_name, raw, reason) => {
    const { judge } = fakeJudge(raw);
    const { value, exchange } = await judge.scoreTask({ scenario, answer: "x" });
    expect(value).toBeNull();
    expect(exchange?.skipped).toBe(true);
    expect(exchange?.raw).toBe(raw);
    expect(exchange?.parsed).toBeNull();
    expect(exchange?.unusable_reason).toContain(reason);
  });

  it("skips a judge that throws, recording the error", async () => {
    const { judge } = fakeJudge(new Error("rate limited"));
    const { value, exchange } = await judge.scoreTask({ scenario, answer: "x" });
    expect(value).toBeNull();
    expect(exchange).toMatchObject({ skipped: true, raw: null, unusable_reason: "the judge call failed: Error: rate limited" });
  });

  it("skips a call that outlives its timeout, saying so", async () => {
    const judge = new Judge({ label: "slow", timeoutMs: 20, complete: () => new Promise<string>(() => undefined) });
    const { value, exchange } = await judge.scoreTask({ scenario, answer: "x" });
    expect(value).toBeNull();
    expect(exchange).toMatchObject({ skipped: true, raw: null, unusable_reason: "the judge call failed: JudgeTimeout: no answer within 20 ms" });
    expect(() => new Judge({ label: "j", complete: () => "", timeoutMs: 0 })).toThrow(/timeoutMs must be a positive number/);
  });

  it("aborts the request's signal when it stops waiting, so the completion can stop its call", async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const slow = new Judge({ label: "slow", timeoutMs: 20, complete: (request) => (signals.push(request.signal), new Promise<string>(() => undefined)) });
    await slow.scoreTask({ scenario, answer: "x" });
    expect(signals[0]?.aborted).toBe(true);
    expect(String(signals[0]?.reason)).toBe("JudgeTimeout: no answer within 20 ms");
    // Without a timeout there is nothing to stop, and the request is what it always was.
    const requests: unknown[] = [];
    await new Judge({ label: "j", timeoutMs: null, complete: (request) => (requests.push(request), '{"score": 1}') }).scoreTask({ scenario, answer: "x" });
    expect(Object.keys(requests[0] as object).sort()).toEqual(["instructions", "kind", "prompt"]);
  });

  it("skips a reply without text", async () => {
    const { judge } = fakeJudge({ text: 42 } as unknown as JudgeReply);
    const { exchange } = await judge.scoreTask({ scenario, answer: "x" });
    expect(exchange).toMatchObject({ skipped: true, unusable_reason: "the judge returned no text" });
  });

  it("records the usage a completion reports, in snake_case", async () => {
    const { judge } = fakeJudge({ text: '{"score": 0.5}', usage: { inputTokens: 400, outputTokens: 20, cost: 0.0015, model: "claude-opus-5", junk: "x" } });
    const { value, exchange } = await judge.scoreTask({ scenario, answer: "x" });
    expect(value).toBe(0.5);
    expect(exchange?.usage).toEqual({ input_tokens: 400, output_tokens: 20, cost: 0.0015, model: "claude-opus-5" });
  });
});

describe("Judge.scoreCriterion", () => {
  it("names the criterion by its configured prompt, else its key humanized", async () => {
    const { judge, requests } = fakeJudge('{"score": 0.7}', '{"score": 0.6}');
    const first = await judge.scoreCriterion({ criterion: { key: "tone", config: { prompt: "Is the answer polite?" } }, prompt: "Help", answer: "Sure." });
    await judge.scoreCriterion({ criterion: { key: "response_length" }, prompt: "Help", answer: "Sure." });
    expect(first.value).toBe(0.7);
    expect(requests[0].prompt.startsWith("Criterion: Is the answer polite?\n")).toBe(true);
    expect(requests[1].prompt.startsWith("Criterion: Response length\n")).toBe(true);
    expect(requests[0].prompt).toContain("---\nHelp\n---");
    expect(requests[0].prompt).toContain("---\nSure.\n---");
  });

  it("finds an out-of-range criterion score unusable, as for task completion", async () => {
    const { judge } = fakeJudge('{"score": 2}', '{"score": -0.2}');
    const criterion = { key: "tone" };
    for (const reason of ['"score" is 2, outside 0..1', '"score" is -0.2, outside 0..1']) {
      const { value, exchange } = await judge.scoreCriterion({ criterion, prompt: "Help", answer: "Sure." });
      expect(value).toBeNull();
      expect(exchange?.unusable_reason).toContain(reason);
    }
  });

  it("cuts the user's message at 1,500 characters", async () => {
    const { judge, requests } = fakeJudge('{"score": 0.7}');
    await judge.scoreCriterion({ criterion: { key: "tone" }, prompt: "p".repeat(1600), answer: "ok" });
    expect(requests[0].prompt).toContain(`---\n${"p".repeat(1497)}...\n---`);
  });
});

describe("Judge.recommend", () => {
  const replay = {
    answer: "I cannot look that up.",
    toolCalls: [{ name: "search", arguments: { q: "4821" }, error: "timeout" }, { name: "noop" }],
  };
  const diagnosis = { fault: "missing_capability", summary: "The agent said it lacks the ability to perform this task." };

  it("sends instructions, roster, scenario, calls, answer and fault, in that order", async () => {
    const { judge, requests } = fakeJudge('{"recommendation": "Add lookup_order.", "suggested_tool": {"name": "lookup_order", "description": "Find an order"}, "instruction_change": "Always look the order up."}');
    const { value, exchange } = await judge.recommend({
      scenario,
      replay,
      diagnosis,
      availableTools: { search: "Search the help centre", noop: "" },
      instructions: "You are a support agent.",
    });
    expect(value).toEqual({
      recommendation: "Add lookup_order.",
      suggested_tool: { name: "lookup_order", description: "Find an order" },
      instruction_change: "Always look the order up.",
    });
    expect(exchange?.kind).toBe("recommend");
    expect(requests[0].instructions).toBe(RECOMMEND_INSTRUCTIONS);
    const prompt = requests[0].prompt;
    const order = [
      "You are a support agent.",
      "- search: Search the help centre",
      "- noop: \n",
      "Where is my order 4821?",
      "Expected tools: lookup_order",
      "Notes: Looks the order up first.",
      '- search (errored): {"q":"4821"}',
      "- noop: null",
      "I cannot look that up.",
      "Detected fault: missing_capability — The agent said it lacks the ability to perform this task.",
      '"suggested_tool"',
    ].map((part) => prompt.indexOf(part));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("uses placeholders when there are no instructions, tools, calls or answer", async () => {
    const { judge, requests } = fakeJudge('{"recommendation": "Answer."}');
    await judge.recommend({ scenario: { prompt: "Hi" }, replay: { answer: null }, diagnosis: { fault: "run_error", summary: "x" } });
    const prompt = requests[0].prompt;
    expect(prompt).toContain("(no instructions configured)");
    expect(prompt.match(/\(none\)/g)).toHaveLength(2);
    expect(prompt).toContain("---\n(empty)\n---");
    expect(prompt).not.toContain("Expected tools:");
    expect(prompt).not.toContain("Notes:");
  });

  it("drops unusable fields and keeps the rest", async () => {
    const { judge } = fakeJudge('{"recommendation": "  ", "suggested_tool": "refund_order", "instruction_change": 7, "extra": 1}');
    const { value, exchange } = await judge.recommend({ scenario, replay, diagnosis });
    expect(value).toEqual({ suggested_tool: { name: "refund_order", description: "" } });
    expect(exchange).toMatchObject({ skipped: false, unusable_reason: null, parsed: { suggested_tool: { name: "refund_order", description: "" } } });
  });

  it("drops a tool without a usable name", async () => {
    const { judge } = fakeJudge('{"recommendation": "Fix it.", "suggested_tool": {"name": "", "description": "d"}}');
    expect((await judge.recommend({ scenario, replay, diagnosis })).value).toEqual({ recommendation: "Fix it." });
  });

  it("is unusable when nothing usable is left", async () => {
    const { judge } = fakeJudge('{"recommendation": null, "suggested_tool": [], "instruction_change": ""}');
    const { value, exchange } = await judge.recommend({ scenario, replay, diagnosis });
    expect(value).toBeNull();
    expect(exchange?.skipped).toBe(true);
    expect(exchange?.unusable_reason).toMatch(/^no usable recommendation, suggested_tool or instruction_change/);
  });
});

describe("Judge.verdict", () => {
  const summaries = {
    "gpt-5-mini": { pass_rate: 100, avg_score: 0.875, avg_duration_ms: 1200, cost: 0.00001, faults: {} },
    "ollama/qwen3:8b": { pass_rate: 33.3, avg_score: null, avg_duration_ms: null, cost: null, faults: { tool_error: 2, low_quality: 1 } },
  };

  it("prints each model's line with raw Ruby numbers and no judge spend", async () => {
    const { judge, requests } = fakeJudge('{"winner": "gpt-5-mini", "rationale": "Passes everything."}');
    const { value, exchange } = await judge.verdict({ summaries, instructions: "Help customers with orders." });
    expect(value).toEqual({ winner: "gpt-5-mini", rationale: "Passes everything." });
    expect(exchange?.kind).toBe("verdict");
    expect(exchange?.parsed).toEqual({ winner: "gpt-5-mini", rationale: "Passes everything." });
    expect(requests[0].instructions).toBe(VERDICT_INSTRUCTIONS);
    const prompt = requests[0].prompt;
    expect(prompt).toContain("---\nHelp customers with orders.\n---");
    expect(prompt).toContain(
      "Results per model:\n" +
        "gpt-5-mini: pass rate 100.0%, mean score 0.875, avg latency 1200ms, cost $1.0e-05\n" +
        "ollama/qwen3:8b: pass rate 33.3%, mean score n/a, avg latency n/ams, cost $n/a, faults: tool_error×2, low_quality×1\n",
    );
    expect(prompt).not.toMatch(/judge_cost|judge_calls/);
  });

  it("uses the placeholder without instructions", async () => {
    const { judge, requests } = fakeJudge('{"winner": "gpt-5-mini"}');
    const { value } = await judge.verdict({ summaries });
    expect(requests[0].prompt).toContain("(no instructions configured)");
    expect(value).toEqual({ winner: "gpt-5-mini", rationale: "" });
  });

  it("is unusable when the winner was not compared, and says which were", async () => {
    const { judge } = fakeJudge('{"winner": "claude-opus-5", "rationale": "Best."}');
    const { value, exchange } = await judge.verdict({ summaries });
    expect(value).toBeNull();
    expect(exchange?.unusable_reason).toBe('"winner" names "claude-opus-5", which is not one of the compared models (gpt-5-mini, ollama/qwen3:8b)');
  });
});

describe("Judge timeout", () => {
  afterEach(() => { vi.useRealTimers(); });

  /** Asks a judge that never answers; `outcome()` is its answer once the call has settled. */
  function askHung(judge: Judge) {
    let outcome: Awaited<ReturnType<Judge["scoreTask"]>> | undefined;
    void judge.scoreTask({ scenario, answer: "x" }).then((value) => { outcome = value; });
    return () => outcome;
  }

  it("skips a call still unanswered after 120,000 ms when no timeoutMs is given, so a hung judge cannot hang a run", async () => {
    vi.useFakeTimers();
    const outcome = askHung(new Judge({ label: "hung", complete: () => new Promise<string>(() => undefined) }));
    await vi.advanceTimersByTimeAsync(119_999);
    expect(outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome()?.value).toBeNull();
    expect(outcome()?.exchange).toMatchObject({ skipped: true, unusable_reason: "the judge call failed: JudgeTimeout: no answer within 120000 ms" });
  });

  it("waits as long as it takes with an explicit timeoutMs: null", async () => {
    vi.useFakeTimers();
    const outcome = askHung(new Judge({ label: "patient", timeoutMs: null, complete: () => new Promise<string>(() => undefined) }));
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(outcome()).toBeUndefined();
  });
});

describe("new Judge", () => {
  it("requires a label and a completion function", () => {
    expect(() => new Judge({ label: " ", complete: () => "" })).toThrow(/label must be a non-blank string/);
    expect(() => new Judge({ label: "j", complete: undefined as never })).toThrow(/complete must be a function/);
  });
});
