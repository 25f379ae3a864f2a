// Faults ungrounded_answer .. low_quality, and the judge hooks.
import { describe, expect, it } from "vitest";
import { Replay } from "../replay/replay.js";
import { Scenario } from "../scenarios/scenario.js";
import type { Criterion } from "../scoring/criteria.js";
import { cancelPlan, diagnose, looked, orderStatus, refundWindow, ROSTER } from "./fixtures.testing.js";
import { Diagnosis } from "./index.js";

describe("ungrounded_answer", () => {
  it("reports specifics stated without any tool call when the agent had tools", () => {
    const answer = "You have 3 open tickets, the oldest from last week.";
    const found = diagnose(refundWindow, { answer });
    expect(found).toEqual({
      fault: "ungrounded_answer",
      summary: `The agent stated specifics ("${answer}") without calling any tool that could have supplied them.`,
      recommendation:
        "Nothing in the answer came from a tool, so the figures in it are invented. Tell the agent in its instructions to answer this kind of task only from a tool result and to say when it has none; if none of lookup_order, refund_order, search_faq returns this data, add a tool that does.",
      evidence: { claim: answer, tools_available: ROSTER },
    });
  });

  it("reads ids, dates, counts and counted records as specifics, and prose numbers as not", () => {
    const fault = (answer: string) => diagnose(refundWindow, { answer })?.fault ?? null;
    expect(fault("Invoice #1042 is paid.")).toBe("ungrounded_answer");
    expect(fault("It was renewed on 2026-03-01.")).toBe("ungrounded_answer");
    expect(fault("There are **12 refunds waiting.")).toBe("ungrounded_answer");
    expect(fault("I found 7 in your account.")).toBe("ungrounded_answer");
    expect(fault("4 unpaid invoices remain.")).toBe("ungrounded_answer");
    expect(fault("Refunds are accepted within 30 days.")).toBeNull();
    expect(fault("We received 12 refund requests last week, all 40 have one.")).toBeNull();
  });

  it("takes the claim from 40 characters before the first pattern that matches, 120 long", () => {
    const answer = `${"Thanks for your patience while I checked. ".repeat(2)}You have 5 pending refunds and one on 2026-01-02; ${"x".repeat(200)}`;
    const at = answer.indexOf("2026-01-02"); // the date pattern is tried before the count
    expect(diagnose(refundWindow, { answer })?.evidence.claim).toBe(answer.slice(at - 40, at + 80).trim());
  });

  it("does not apply to an agent with no tools, or one that called a tool", () => {
    expect(diagnose(refundWindow, { answer: "You have 3 open tickets." }, { availableTools: [] })).toBeNull();
    expect(diagnose(refundWindow, { answer: "You have 3 open tickets.", toolCalls: [{ name: "search_faq" }] })).toBeNull();
  });

  it("comes before forbidden content", () => {
    const scenario = new Scenario({ key: "k", prompt: "p", forbiddenPatterns: ["guarantee"] });
    expect(diagnose(scenario, { answer: "I guarantee order #77 ships today." })?.fault).toBe("ungrounded_answer");
  });
});

describe("forbidden_content and missing_content", () => {
  it("reports forbidden content ahead of missing content", () => {
    const found = diagnose(cancelPlan, { answer: "I cannot do that here; please contact support." }, { availableTools: [] });
    expect(found).toEqual({
      fault: "forbidden_content",
      summary: "The answer contains content the scenario forbids: I cannot, contact support.",
      recommendation:
        'Add an explicit instruction against "I cannot" and, if the phrase comes from a tool result, filter it in the tool rather than relying on the model to omit it.',
      evidence: { matched: ["I cannot", "contact support"] },
    });
  });

  it("reports missing content, blaming the skipped tool when there was one to call", () => {
    const found = diagnose(cancelPlan, { answer: "Your plan is cancelled." });
    expect(found).toEqual({
      fault: "missing_content",
      summary: "The answer is missing expected content: /effective (immediately|at the end)/i.",
      recommendation:
        'The agent answered without calling a tool, so it could not have found "/effective (immediately|at the end)/i". Instruct it to use its tools for this kind of task.',
      evidence: { missing: ["/effective (immediately|at the end)/i"] },
    });
  });

  it("says the answer never mentions the content otherwise", () => {
    const found = diagnose(cancelPlan, { answer: "Done.", toolCalls: [{ name: "refund_order" }] });
    expect(found?.summary).toBe("The answer is missing expected content: cancel, /effective (immediately|at the end)/i.");
    expect(found?.recommendation).toBe(
      'The answer never mentions "cancel". Check whether the tool result contained it — if it did, the instructions should ask for it explicitly; if not, the tool needs to return it.',
    );
  });

  it("comes before low quality", () => {
    expect(diagnose(cancelPlan, { answer: "Your plan is cancelled." }, { taskCompletion: 0.1 })?.fault).toBe("missing_content");
  });

  it("passes when every expected pattern is present", () => {
    expect(diagnose(cancelPlan, { answer: "Cancelled, effective at the end of the month." })).toBeNull();
  });
});

describe("low_quality", () => {
  it("reports a mean score below the threshold with the weakest criterion", () => {
    const criteria: Criterion[] = [
      { key: "response_length", type: "min_length", config: { chars: 200 } },
      { key: "speed", type: "max_latency_ms", config: { ms: 1_000 } },
    ];
    const found = diagnose(refundWindow, { answer: "Refunds: 30 days.", durationMs: 4_000 }, { criteria });
    expect(found).toEqual({
      fault: "low_quality",
      summary: "Scored 17% against a pass threshold of 70%, weakest on response_length (9%).",
      recommendation:
        "Read the answer against the response length criterion and adjust the instructions where it falls short. A criterion that keeps scoring low across scenarios points at the instructions; one that fails on one scenario points at that task's tooling.",
      evidence: { scores: { response_length: 0.085, speed: 0.25 } },
    });
  });

  it("fails a low task-completion grade even when the mean passes", () => {
    const found = diagnose(orderStatus, { ...looked, answer: "Order 4821: see the tracking page." }, { taskCompletion: 0.4 });
    expect(found?.fault).toBe("low_quality");
    expect(found?.summary).toBe("Task completion scored 40% against a pass threshold of 70%, weakest on task_completion (40%).");
    expect(found?.evidence.scores).toEqual({ expected_tools: 1, tools_succeeded: 1, task_completion: 0.4 });
  });

  it("labels several judge grades as judged quality and names the weakest grade", () => {
    const criteria: Criterion[] = [
      { key: "accuracy", type: "llm_judge" },
      { key: "empathy", type: "llm_judge" },
    ];
    const found = diagnose(refundWindow, { answer: "30 days." }, { criteria, judgeScores: { accuracy: 0.9, empathy: 0.3 } });
    expect(found?.summary).toBe("Judged quality scored 60% against a pass threshold of 70%, weakest on empathy (30%).");
  });

  it("passes exactly at the threshold and honours a custom threshold", () => {
    expect(diagnose(refundWindow, { answer: "Within 30 days." }, { taskCompletion: 0.7 })).toBeNull();
    const found = diagnose(refundWindow, { answer: "Within 30 days." }, { taskCompletion: 0.8, threshold: 0.85 });
    expect(found?.summary).toBe("Task completion scored 80% against a pass threshold of 85%, weakest on task_completion (80%).");
  });

  it("leaves an unscorable grade out", () => {
    expect(diagnose(refundWindow, { answer: "Within 30 days." }, { taskCompletion: null })).toBeNull();
  });

  it("suggests comparing with a passing answer when no score names a weakest criterion", () => {
    const found = Diagnosis.diagnose({
      scenario: refundWindow,
      replay: new Replay({ answer: "Within 30 days." }),
      scores: {},
      score: 0.5,
      availableTools: ROSTER,
    });
    expect(found?.summary).toBe("Scored 50% against a pass threshold of 70%.");
    expect(found?.recommendation).toBe("Compare this answer with a passing one for a similar scenario and adjust the instructions.");
  });
});

describe("judge hooks", () => {
  const base = diagnose(orderStatus, { answer: "Orders usually ship within two days." })!;

  it("replaces the recommendation with the judge's stripped one and keeps the reply", () => {
    const refined = Diagnosis.refine(base, {
      recommendation: "  Add lookup_order to the instructions' tool list.  ",
      suggested_tool: { name: "track_shipment", description: "Carrier tracking by order number" },
      instruction_change: "Always look the order up before answering.",
    });
    expect(refined.recommendation).toBe("Add lookup_order to the instructions' tool list.");
    expect(refined.judge?.suggested_tool?.name).toBe("track_shipment");
    expect(base.judge).toBeUndefined();
  });

  it("keeps the evidence-based recommendation when the judge gives none", () => {
    expect(Diagnosis.refine(base, { instruction_change: "Look it up." }).recommendation).toBe(base.recommendation);
    expect(Diagnosis.refine(base, { recommendation: "   " }).recommendation).toBe(base.recommendation);
    expect(Diagnosis.refine(base, null)).toBe(base);
  });

  it("refines only the faults a judge can add to", () => {
    expect(Diagnosis.shouldRefine("expected_tool_not_called")).toBe(true);
    expect(Diagnosis.shouldRefine("tool_error")).toBe(false);
    expect(Diagnosis.shouldRefine("run_error", ["run_error"])).toBe(true);
  });

  it("builds the Runner's judge_unavailable diagnosis", () => {
    expect(Diagnosis.judgeUnavailable(["empathy", "task_completion"])).toEqual({
      fault: "judge_unavailable",
      summary: "The evaluation judge did not return a usable score for empathy, task_completion.",
      recommendation:
        "Check the judge's credentials, model availability and JSON response, then re-run this evaluation. The available rule scores do not establish answer quality.",
      evidence: { unscored_criteria: ["empathy", "task_completion"] },
    });
    expect(Diagnosis.judgeUnavailable([])).toBeNull();
  });

  it("lists the faults in the guide's order", () => {
    expect(Diagnosis.FAULTS.slice(0, 8)).toEqual([
      "run_error",
      "tool_error",
      "missing_capability",
      "expected_tool_not_called",
      "ungrounded_answer",
      "forbidden_content",
      "missing_content",
      "low_quality",
    ]);
  });
});
