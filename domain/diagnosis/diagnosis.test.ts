import { describe, expect, it } from "vitest";
import { Replay, type ReplayInit } from "../replay/replay.js";
import { Scenario } from "../scenarios/scenario.js";
import { Scorer } from "../scoring/scorer.js";
import type { Criterion } from "../scoring/criteria.js";
import { Diagnosis, type DiagnosisResult } from "./index.js";

const ROSTER = ["lookup_order", "refund_order", "search_faq"];

const orderStatus = new Scenario({
  key: "orders_1",
  prompt: "Where is my order 4821?",
  group: "orders",
  expectedTools: ["lookup_order"],
});
const refundWindow = new Scenario({ key: "billing_1", prompt: "How long do I have to ask for a refund?", group: "billing" });
const cancelPlan = new Scenario({
  key: "billing_2",
  prompt: "Cancel my subscription",
  forbiddenPatterns: ["I cannot", "contact support"],
  expectedPatterns: ["cancel", "/effective (immediately|at the end)/i"],
});

interface Options {
  availableTools?: string[];
  criteria?: Criterion[];
  taskCompletion?: number | null;
  judgeScores?: Record<string, number | null>;
  threshold?: number;
  agentName?: string;
}

function diagnose(scenario: Scenario, init: ReplayInit, options: Options = {}): DiagnosisResult | null {
  const replay = new Replay(init);
  const scorer = new Scorer({ criteria: options.criteria ?? [] });
  const scores = scorer.score(scenario, replay, { taskCompletion: options.taskCompletion, judgeScores: options.judgeScores });
  return Diagnosis.diagnose({
    scenario,
    replay,
    scores,
    score: Scorer.mean(scores),
    availableTools: options.availableTools ?? ROSTER,
    threshold: options.threshold,
    agentName: options.agentName,
    judgeKeys: scorer.judgeKeys,
  });
}

const looked = { toolCalls: [{ name: "lookup_order", arguments: { number: "4821" } }] };

describe("passing results", () => {
  it("has no diagnosis", () => {
    expect(diagnose(orderStatus, { ...looked, answer: "Order 4821 shipped yesterday." })).toBeNull();
    expect(diagnose(refundWindow, { answer: "You can ask for a refund within 30 days of purchase." })).toBeNull();
  });
});

describe("run_error", () => {
  it("reports a run that raised, with the error truncated to 200 in the summary and 1,000 in evidence", () => {
    const error = `Net::ReadTimeout: ${"x".repeat(1_200)}`;
    const found = diagnose(orderStatus, { error, toolCalls: [{ name: "lookup_order", error: "timeout" }] });
    expect(found?.fault).toBe("run_error");
    expect(found?.summary).toBe(`The run failed before the agent answered: ${error.slice(0, 197)}...`);
    expect((found?.evidence.error as string).length).toBe(1_000);
    expect(found?.recommendation).toBe(
      "Inspect the run's error. A failure here is infrastructure — it says nothing about the answer yet.",
    );
  });

  it("chooses the recommendation from the error text", () => {
    const advice = (error: string) => diagnose(orderStatus, { error })?.recommendation;
    expect(advice("AuthenticationError: 401 invalid x-api-key")).toBe(
      "Add credentials for the provider this model runs on before comparing it.",
    );
    expect(advice("model 'gpt-9' does not exist")).toBe(
      "The provider rejected the model name. Check the spelling against the provider's catalog, or prefix it with the provider (`ollama/qwen3:8b`) so it runs where it exists.",
    );
    expect(advice("HTTP 529 Overloaded")).toBe(
      "The provider throttled the run. Re-run the failed scenarios; if it recurs, run fewer scenarios per batch or compare fewer models at once.",
    );
    // credentials win over a 404 in the same message: first match in order
    expect(advice("404: api key not found")).toBe("Add credentials for the provider this model runs on before comparing it.");
  });

  it("reports an empty answer, before a failing tool", () => {
    const found = diagnose(orderStatus, { answer: "  ", toolCalls: [{ name: "lookup_order", error: true }] }, { agentName: "SupportAgent" });
    expect(found).toEqual({
      fault: "run_error",
      summary: "SupportAgent returned an empty answer.",
      recommendation:
        "The provider returned no content. Check the model name is one the provider serves and that the output budget leaves room for an answer after the tool calls.",
      evidence: { error: "empty answer" },
    });
  });

  it("lower-cases the agent name inside a sentence", () => {
    expect(diagnose(orderStatus, { error: "boom" }, { agentName: "SupportAgent" })?.summary).toBe(
      "The run failed before supportagent answered: boom",
    );
  });
});

describe("tool_error", () => {
  it("names the failing tools and the first failure's detail, ahead of a refusal", () => {
    const found = diagnose(orderStatus, {
      answer: "I am unable to retrieve that order right now.",
      toolCalls: [
        { name: "lookup_order", arguments: { number: "4821" }, error: true, detail: "500 Internal Server Error" },
        { name: "search_faq", error: "timeout", detail: "took 30s" },
        { name: "lookup_order", error: true, detail: "again" },
      ],
    });
    expect(found).toEqual({
      fault: "tool_error",
      summary: "Tool lookup_order, search_faq returned an error while answering.",
      recommendation:
        'Fix the failing tool before judging the answer: lookup_order, search_faq errored with "500 Internal Server Error". If the arguments look wrong, tighten the tool\'s parameter descriptions so the model calls it correctly; if the tool itself broke, fix its implementation.',
      evidence: { tools: ["lookup_order", "search_faq"], detail: "500 Internal Server Error", arguments: { number: "4821" } },
    });
  });

  it("truncates the detail to 300 and drops missing arguments", () => {
    const found = diagnose(orderStatus, { answer: "Sorry.", toolCalls: [{ name: "lookup_order", error: 0, detail: "e".repeat(400) }] });
    expect(found?.evidence).toEqual({ tools: ["lookup_order"], detail: `${"e".repeat(297)}...` });
  });
});

describe("missing_capability", () => {
  const refuses = (answer: string) => diagnose(refundWindow, { answer })?.fault === "missing_capability";

  it("recognises the refusal phrasings", () => {
    expect(refuses("I don't have access to your order history.")).toBe(true);
    expect(refuses("I'm unable to look up invoices.")).toBe(true);
    expect(refuses("I am not able to currently check refunds.")).toBe(true);
    expect(refuses("There is no tool available for refunds.")).toBe(true);
    expect(refuses("I don't have any tools to issue refunds.")).toBe(true);
    expect(refuses("That is not able to access billing.")).toBe(true);
    expect(refuses("I do not have visibility into billing.")).toBe(true);
    expect(refuses("That is outside of my capabilities.")).toBe(true);
    expect(refuses("This can't be determined with the available tools.")).toBe(true);
    expect(refuses("I CAN'T ACCESS BILLING. NO TOOL IS AVAILABLE.")).toBe(true);
  });

  it("does not read negative results or the reference's quirk as refusals", () => {
    expect(refuses("I can't find any refunds on your account.")).toBe(false);
    expect(refuses("I don't see a refund request.")).toBe(false);
    expect(refuses("That is not something I can do.")).toBe(false);
  });

  it("names expected tools missing from the roster, ahead of expected_tool_not_called", () => {
    const found = diagnose(orderStatus, { answer: "I cannot access order data." }, { availableTools: ["search_faq"] });
    expect(found).toEqual({
      fault: "missing_capability",
      summary: "The agent said it lacks the ability to perform this task.",
      recommendation: "The agent said it cannot do this, and the expected tool(s) lookup_order are not in its toolset. Add or enable them.",
      evidence: { refusal: "I cannot access order data.", tools_available: ["search_faq"], tools_called: [] },
    });
  });

  it("says so when the agent has no tools, or none covers the task", () => {
    expect(diagnose(refundWindow, { answer: "I can't check that." }, { availableTools: [] })?.recommendation).toBe(
      "The agent has no tools, so it can only answer from its instructions. Give it a tool that reads the data this task needs.",
    );
    expect(diagnose(refundWindow, { answer: "I can't check that." })?.recommendation).toBe(
      "None of the available tools (lookup_order, refund_order, search_faq) covers this task. Add a tool that does, or, if one of them should, rewrite its description so the model recognises when to use it.",
    );
  });

  it("excerpts the refusal from 80 characters before it, 260 long", () => {
    const answer = `${"Thanks for reaching out about your account and recent purchases. ".repeat(3)}I don't have access to billing. ${"More text. ".repeat(40)}`;
    const at = answer.indexOf("I don't have access");
    const refusal = diagnose(refundWindow, { answer })?.evidence.refusal;
    expect(refusal).toBe(answer.slice(at - 80, at - 80 + 260).trim());
  });

  it("lets a refusal pass when a tool was called and the score passed", () => {
    const answer = "Order 4821 shipped. I can't check the carrier's live tracking, though.";
    expect(diagnose(orderStatus, { ...looked, answer })).toBeNull();
    // mean of 1, 1 and 0.2 is 0.733: the refusal is forgiven, the task-completion gate still fails it
    expect(diagnose(orderStatus, { ...looked, answer }, { taskCompletion: 0.2 })?.fault).toBe("low_quality");
    // mean of 1, 1 and 0.0 is 0.667: below the threshold, so the refusal stands
    expect(diagnose(orderStatus, { ...looked, answer }, { taskCompletion: 0 })?.fault).toBe("missing_capability");
  });
});

describe("expected_tool_not_called", () => {
  it("names an expected tool the agent does not have", () => {
    const found = diagnose(orderStatus, { answer: "Orders usually ship within two days." }, { availableTools: ["search_faq"] });
    expect(found).toEqual({
      fault: "expected_tool_not_called",
      summary: "Expected lookup_order to be called; the agent called nothing.",
      recommendation:
        "The scenario expects lookup_order, which the agent does not have. Enable the tool (or add the server that provides it) and re-run.",
      evidence: { expected: ["lookup_order"], called: [], unavailable: ["lookup_order"] },
    });
  });

  it("names the wrong tools the agent used instead", () => {
    const found = diagnose(orderStatus, {
      answer: "Orders ship in two days.",
      toolCalls: [{ name: "search_faq" }, { name: "search_faq" }],
    });
    expect(found?.summary).toBe("Expected lookup_order to be called; the agent called search_faq.");
    expect(found?.recommendation).toBe(
      "The agent answered with search_faq instead of lookup_order. Sharpen both tools' descriptions so the model can tell them apart, or say in the instructions which tool answers this kind of task.",
    );
    expect(found?.evidence).toEqual({ expected: ["lookup_order"], called: ["search_faq", "search_faq"], unavailable: [] });
  });

  it("treats specifics stated without any call as invented", () => {
    const answer = "Your order #4821 shipped on 2026-05-02 and arrives Friday.";
    const found = diagnose(orderStatus, { answer });
    expect(found?.summary).toBe("Expected lookup_order to be called; the agent called nothing and answered with specifics no tool supplied.");
    expect(found?.recommendation).toBe(
      `lookup_order is available but the agent answered without calling any tool and stated specifics it could not have looked up ("${answer}"). Treat the answer as invented: instruct it to answer this kind of task only from a tool result, and to say so when it has none.`,
    );
    expect(found?.evidence).toEqual({ expected: ["lookup_order"], called: [], unavailable: [], ungrounded: true, claim: answer });
  });

  it("advises tool-backed answers when nothing specific was claimed", () => {
    const found = diagnose(new Scenario({ key: "k", prompt: "p", expectedTools: ["lookup_order", "search_faq"] }), {
      answer: "Orders usually ship within 2 days.",
    });
    expect(found?.summary).toBe("Expected lookup_order or search_faq to be called; the agent called nothing.");
    expect(found?.recommendation).toBe(
      "lookup_order, search_faq is available but the agent answered without calling any tool. Tell it in the instructions to prefer tool-backed answers for this kind of task, and check the tool's description says what it returns.",
    );
  });

  it("comes before forbidden content", () => {
    const scenario = new Scenario({ key: "k", prompt: "p", expectedTools: ["refund_order"], forbiddenPatterns: ["contact support"] });
    expect(diagnose(scenario, { answer: "Please contact support." })?.fault).toBe("expected_tool_not_called");
  });
});

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
