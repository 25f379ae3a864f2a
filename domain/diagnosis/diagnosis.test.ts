// Faults run_error .. expected_tool_not_called: each trigger, its exact strings, and its precedence.
import { describe, expect, it } from "vitest";
import { Scenario } from "../scenarios/scenario.js";
import { diagnose, looked, orderStatus, refundWindow } from "./fixtures.testing.js";

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
    expect(diagnose(orderStatus, { answer: "\u0085" }, { agentName: "SupportAgent" })?.summary).toBe("SupportAgent returned an empty answer.");
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

  it("quotes a failed call's error text when it gives no detail (it quoted \"\")", () => {
    const found = diagnose(orderStatus, { answer: "Booked.", toolCalls: [{ name: "book_table", error: "409 Conflict: the table is taken" }] });
    expect(found?.recommendation).toContain('book_table errored with "409 Conflict: the table is taken"');
    expect(found?.evidence).toMatchObject({ detail: "409 Conflict: the table is taken" });
    // An error given as `true` has no text: the detail stays empty, as before.
    expect(diagnose(orderStatus, { answer: "Booked.", toolCalls: [{ name: "book_table", error: true }] })?.evidence).toMatchObject({ detail: "" });
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
