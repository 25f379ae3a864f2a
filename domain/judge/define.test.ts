import { describe, expect, it } from "vitest";
import { Judge, type JudgeReply } from "./judge.js";
import { fakeJudge } from "./fakeJudge.testing.js";
import { DEFINE_INSTRUCTIONS, kpiCriterion, type DefineInput } from "./kpis.js";


const kpi = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  name: `Name ${key}`,
  description: `Measures ${key}.`,
  rubric: "1.0 fully, 0.5 partly, 0.0 not at all.",
  ...extra,
});
const answer = (...kpis: unknown[]) => JSON.stringify({ kpis });
const three = answer(kpi("accuracy"), kpi("tone"), kpi("next_step"));

const input: DefineInput = {
  instructions: "You are the support agent of Acme. Look orders up before answering.",
  description: "Order support",
  existingKeys: ["response_present", "latency"],
  recentRuns: [
    { number: 7, scored: 8, passed: 6, faults: { wrong_tool: 1, hallucination: 3, missing_tool: 3 } },
    { number: 6, scored: 4, passed: 1 },
    { number: 5, scored: 0, passed: 0 },
    { number: 4, scored: 2, passed: 2 },
    { number: 3, scored: 2, passed: 2 },
    { number: 2, scored: 2, passed: 0, faults: { never_seen: 2 } },
  ],
};

describe("Judge.define", () => {
  it("asks with the instructions, the existing keys and at most 5 recent runs, and reads 3 KPIs", async () => {
    const { judge, requests } = fakeJudge({ text: three, usage: { inputTokens: 120, outputTokens: 80, model: "m" } });
    const { value, exchange } = await judge.define(input);
    expect(requests[0].kind).toBe("define");
    expect(requests[0].instructions).toBe(DEFINE_INSTRUCTIONS);
    const prompt = requests[0].prompt;
    expect(prompt).toContain("---\nYou are the support agent of Acme. Look orders up before answering.\n---");
    expect(prompt).toContain("What it is evaluated for:\n---\nOrder support\n---");
    expect(prompt).toContain("- response_present\n- latency");
    // Most frequent faults first, ties by name; a run with nothing scored has no rate.
    expect(prompt).toContain("- run 7: pass rate 75.0% (6 of 8 passed), most frequent faults: hallucination×3, missing_tool×3, wrong_tool×1");
    expect(prompt).toContain("- run 5: pass rate n/a (0 of 0 passed)");
    expect(prompt).toContain("- run 3:");
    expect(prompt).not.toContain("- run 2:");
    expect(prompt).not.toContain("never_seen");
    expect(prompt).toContain("Define 3 to 6 KPIs");
    expect(value?.map((k) => k.key)).toEqual(["accuracy", "tone", "next_step"]);
    expect(exchange).toMatchObject({
      kind: "define",
      label: "judge-model",
      raw: three,
      parsed: { kpis: value },
      unusable_reason: null,
      skipped: false,
      usage: { input_tokens: 120, output_tokens: 80, model: "m" },
    });
  });

  it("says when there are no instructions, criteria or runs", async () => {
    const { judge, requests } = fakeJudge(three);
    await judge.define({});
    expect(requests[0].prompt).toContain("(no instructions configured)");
    expect(requests[0].prompt).toContain("already scored on (a KPI must not reuse these keys):\n(none)");
    expect(requests[0].prompt).toContain("Recent runs (newest first):\n(none yet)");
    expect(requests[0].prompt).not.toContain("What it is evaluated for");
  });

  it("turns a KPI into the llm_judge criterion it is scored as", () => {
    expect(kpiCriterion(kpi("tone") as never)).toEqual({
      key: "tone",
      type: "llm_judge",
      config: { prompt: "Name tone: Measures tone.\nRubric: 1.0 fully, 0.5 partly, 0.0 not at all." },
    });
  });

  const unusable: [string, JudgeReply | Error, RegExp][] = [
    ["garbage", "I think accuracy matters most.", /holds no JSON object/],
    ["broken JSON", '{"kpis": [', /holds no JSON object|not valid JSON/],
    ["NaN", '{"kpis": NaN}', /not valid JSON/],
    ["no list", '{"kpis": {"a": 1}}', /"kpis" is missing or not a list/],
    ["an empty list", '{"kpis": []}', /0 usable KPIs, at least 3 are needed/],
    ["two KPIs", answer(kpi("a_one"), kpi("a_two")), /2 usable KPIs, at least 3 are needed/],
    ["50 KPIs", answer(...Array.from({ length: 50 }, (_, i) => kpi(`k${i}`))), /holds 50 KPIs; at most 6 are used/],
    ["seven KPIs", answer(...Array.from({ length: 7 }, (_, i) => kpi(`k${i}`))), /holds 7 KPIs/],
    ["a duplicate key", answer(kpi("tone"), kpi("accuracy"), kpi("tone")), /names the key "tone" twice/],
    ["a key an existing criterion has", answer(kpi("tone"), kpi("latency"), kpi("accuracy")), /reuses the key "latency"/],
    ["a built-in score's key", answer(kpi("tone"), kpi("task_completion"), kpi("accuracy")), /kpis\[1\] "key" "task_completion" is reserved/],
    ["a key with spaces", answer(kpi("tone"), kpi("good tone"), kpi("accuracy")), /kpis\[1\] "key" "good tone" is not lower-case snake_case/],
    ["a key with HTML", answer(kpi("tone"), kpi("<b>x</b>"), kpi("accuracy")), /kpis\[1\] "key" "<b>x<\/b>" is not lower-case snake_case/],
    ["a numeric key", answer(kpi("tone"), { ...kpi("x"), key: 7 }, kpi("accuracy")), /kpis\[1\] "key" is not a string/],
    ["a blank rubric", answer(kpi("tone"), kpi("clarity", { rubric: "  " }), kpi("accuracy")), /kpis\[1\] "rubric" must be non-blank text/],
    ["a description too long", answer(kpi("tone"), kpi("clarity", { description: "d".repeat(501) }), kpi("accuracy")), /"description" is longer than 500/],
    ["a NUL in a name", answer(kpi("tone"), kpi("clarity", { name: "a\u0000b" }), kpi("accuracy")), /"name" holds characters that cannot be stored/],
    ["an entry that is not an object", answer(kpi("tone"), "clarity", kpi("accuracy")), /kpis\[1\] is not an object/],
    ["a throwing judge", new Error("rate limited"), /the judge call failed: Error: rate limited/],
    ["no text", { text: 42 } as unknown as JudgeReply, /the judge returned no text/],
  ];
  for (const [what, reply, reason] of unusable) {
    it(`is unusable, saying why, for ${what}`, async () => {
      const { judge } = fakeJudge(reply);
      const { value, exchange } = await judge.define(input);
      expect(value).toBeNull();
      expect(exchange?.kind).toBe("define");
      expect(exchange?.skipped).toBe(true);
      expect(exchange?.parsed).toBeNull();
      expect(exchange?.unusable_reason).toMatch(reason);
    });
  }

  it("is unusable when the judge never answers (the Judge's timeout)", async () => {
    const judge = new Judge({ label: "slow", timeoutMs: 20, complete: () => new Promise<string>(() => undefined) });
    const { value, exchange } = await judge.define(input);
    expect(value).toBeNull();
    expect(exchange?.unusable_reason).toMatch(/no answer within 20 ms/);
  });

  it("keeps 3 usable KPIs when a fourth is unusable, and trims their text", async () => {
    const { judge } = fakeJudge(answer(kpi("tone", { name: "  Tone  " }), kpi("Bad Key"), kpi("accuracy"), kpi("clarity")));
    const { value } = await judge.define(input);
    expect(value?.map((k) => k.key)).toEqual(["tone", "accuracy", "clarity"]);
    expect(value?.[0].name).toBe("Tone");
  });

  it("reads a fenced answer", async () => {
    const { judge } = fakeJudge("```json\n" + three + "\n```");
    expect((await judge.define(input)).value).toHaveLength(3);
  });
});
