// One check per fault, in the guide's order; each returns its diagnosis or null. Strings are the
// reference's, exactly (reference-core §9).
import * as Format from "../format/format.js";
import { toolCallName } from "../replay/toolCall.js";
import { judgeGrade, judgeGrades } from "../scoring/gate.js";
import { humanize } from "../support/humanize.js";
import type { DiagnosisContext } from "./context.js";
import { refusalIndex } from "./phrasings.js";
import { EMPTY_ANSWER_ADVICE, runErrorAdvice } from "./runErrorAdvice.js";
import { detailText, excerptAround, truncate } from "./text.js";
import type { DiagnosisResult, Evidence, Fault } from "./types.js";


type Check = (context: DiagnosisContext) => DiagnosisResult | null;

function result(fault: Fault, summary: string, recommendation: string, evidence: Evidence): DiagnosisResult {
  const compact: Evidence = {};
  for (const key of Object.keys(evidence)) if (evidence[key] !== null && evidence[key] !== undefined) compact[key] = evidence[key];
  return { fault, summary, recommendation, evidence: compact };
}

const runError: Check = (c) => {
  if (c.replay.errored) {
    const message = c.replay.error ?? "";
    return result("run_error", `The run failed before ${c.agentLower} answered: ${truncate(message, 200)}`, runErrorAdvice(message), {
      error: truncate(message, 1_000),
    });
  }
  if (!c.replay.runError) return null;
  return result("run_error", `${c.agent} returned an empty answer.`, EMPTY_ANSWER_ADVICE, { error: "empty answer" });
};

const toolError: Check = (c) => {
  const failed = c.replay.failedToolCalls;
  if (failed.length === 0) return null;
  const names = [...new Set(failed.map(toolCallName))];
  // `detail` is "the error or a preview of the result" (reference-core §6): a call that gives its
  // error as text and no detail has that text as its detail (the advice quoted "" for it).
  const first = failed[0];
  const detail = truncate(detailText(first.detail ?? (typeof first.error === "string" ? first.error : null)), 300);
  const list = names.join(", ");
  return result(
    "tool_error",
    `Tool ${list} returned an error while answering.`,
    `Fix the failing tool before judging the answer: ${list} errored with "${detail}". ` +
      "If the arguments look wrong, tighten the tool's parameter descriptions so the model calls it " +
      "correctly; if the tool itself broke, fix its implementation.",
    { tools: names, detail, arguments: failed[0].arguments },
  );
};

const missingCapability: Check = (c) => {
  // A refusal beside a tool call that produced a passing answer is a hedge, not a missing tool.
  // Checked first: it is cheaper than scanning the answer for the refusal phrasings.
  if (c.called.length > 0 && (c.score ?? 0) >= c.threshold) return null;
  const at = refusalIndex(c.answer);
  if (at < 0) return null;
  const missing = c.notInRoster(c.scenario.expectedTools);
  let recommendation: string;
  if (missing.length > 0) {
    recommendation = `${c.agent} said it cannot do this, and the expected tool(s) ${missing.join(", ")} are not in its toolset. Add or enable them.`;
  } else if (c.availableTools.length === 0) {
    recommendation = `${c.agent} has no tools, so it can only answer from its instructions. Give it a tool that reads the data this task needs.`;
  } else {
    recommendation =
      `None of the available tools (${c.availableTools.join(", ")}) covers this task. Add a tool that does, ` +
      "or, if one of them should, rewrite its description so the model recognises when to use it.";
  }
  return result("missing_capability", `${c.agent} said it lacks the ability to perform this task.`, recommendation, {
    refusal: excerptAround(c.answer, at, 80, 260),
    tools_available: [...c.availableTools],
    tools_called: [...c.called],
  });
};

const expectedToolNotCalled: Check = (c) => {
  const expected = c.scenario.expectedTools;
  if (expected.length === 0 || c.checks.anyExpectedCalled(c.called)) return null;
  const unavailable = c.notInRoster(expected);
  const calledNothing = c.called.length === 0;
  const ungrounded = calledNothing && c.assertsSpecifics;
  const claim = calledNothing ? c.claim : null;
  let recommendation: string;
  if (unavailable.length > 0) {
    recommendation = `The scenario expects ${unavailable.join(", ")}, which ${c.agentLower} does not have. Enable the tool (or add the server that provides it) and re-run.`;
  } else if (!calledNothing) {
    recommendation =
      `${c.agent} answered with ${c.calledDistinct.join(", ")} instead of ${expected.join(", ")}. Sharpen both tools' ` +
      "descriptions so the model can tell them apart, or say in the instructions which tool answers this kind of task.";
  } else if (ungrounded) {
    recommendation =
      `${expected.join(", ")} is available but ${c.agentLower} answered without calling any tool and stated specifics ` +
      `it could not have looked up ("${claim}"). Treat the answer as invented: instruct it to answer this kind of task ` +
      "only from a tool result, and to say so when it has none.";
  } else {
    recommendation =
      `${expected.join(", ")} is available but ${c.agentLower} answered without calling any tool. Tell it in the ` +
      "instructions to prefer tool-backed answers for this kind of task, and check the tool's description says what it returns.";
  }
  const called = calledNothing ? "nothing" : c.calledDistinct.join(", ");
  const suffix = ungrounded ? " and answered with specifics no tool supplied" : "";
  return result("expected_tool_not_called", `Expected ${expected.join(" or ")} to be called; ${c.agentLower} called ${called}${suffix}.`, recommendation, {
    expected: [...expected],
    called: [...c.called],
    unavailable,
    ungrounded: ungrounded ? true : null,
    claim,
  });
};

const ungroundedAnswer: Check = (c) => {
  if (c.availableTools.length === 0 || c.called.length > 0 || !c.assertsSpecifics) return null;
  const claim = c.claim;
  return result(
    "ungrounded_answer",
    `${c.agent} stated specifics ("${claim}") without calling any tool that could have supplied them.`,
    `Nothing in the answer came from a tool, so the figures in it are invented. Tell ${c.agentLower} in its ` +
      "instructions to answer this kind of task only from a tool result and to say when it has none; if none of " +
      `${c.availableTools.join(", ")} returns this data, add a tool that does.`,
    { claim, tools_available: [...c.availableTools] },
  );
};

const forbiddenContent: Check = (c) => {
  if (c.checks.forbidden.length === 0) return null;
  const matched = c.checks.forbiddenFound(c.replay);
  if (matched.length === 0) return null;
  return result(
    "forbidden_content",
    `The answer contains content the scenario forbids: ${matched.join(", ")}.`,
    `Add an explicit instruction against "${matched[0]}" and, if the phrase comes from a tool result, filter it ` +
      "in the tool rather than relying on the model to omit it.",
    { matched },
  );
};

const missingContent: Check = (c) => {
  if (c.checks.expected.length === 0) return null;
  const missing = c.checks.expectedMissing(c.replay);
  if (missing.length === 0) return null;
  const recommendation =
    c.called.length === 0 && c.availableTools.length > 0
      ? `${c.agent} answered without calling a tool, so it could not have found "${missing[0]}". Instruct it to use its tools for this kind of task.`
      : `The answer never mentions "${missing[0]}". Check whether the tool result contained it — if it did, the ` +
        "instructions should ask for it explicitly; if not, the tool needs to return it.";
  return result("missing_content", `The answer is missing expected content: ${missing.join(", ")}.`, recommendation, { missing });
};

/**
 * A judge grade measures the answer itself, so its mean has to reach the threshold on its own;
 * the mean score has to as well. The weakest entry is named from the grades when they failed.
 */
const lowQuality: Check = (c) => {
  const grade = judgeGrade(c.scores, c.judgeKeys);
  const failedGrade = grade !== null && grade < c.threshold;
  if (!failedGrade && !(c.score !== null && c.score < c.threshold)) return null;
  const grades = judgeGrades(c.scores, c.judgeKeys);
  const weakest = minimum(failedGrade ? grades : scoredEntries(c.scores));
  const against = `against a pass threshold of ${Format.percent(c.threshold)}`;
  let summary = failedGrade
    ? `${gradedLabel(grades)} scored ${Format.score(grade)} ${against}`
    : `Scored ${Format.score(c.score)} ${against}`;
  if (weakest) summary += `, weakest on ${weakest[0]} (${Format.score(weakest[1])})`;
  const recommendation = weakest
    ? `Read the answer against the ${humanize(weakest[0]).toLowerCase()} criterion and adjust the instructions where it ` +
      "falls short. A criterion that keeps scoring low across scenarios points at the instructions; one that fails on " +
      "one scenario points at that task's tooling."
    : "Compare this answer with a passing one for a similar scenario and adjust the instructions.";
  return result("low_quality", `${summary}.`, recommendation, { scores: { ...c.scores } });
};

function gradedLabel(grades: Array<[string, number]>): string {
  return grades.length === 1 && grades[0][0] === "task_completion" ? "Task completion" : "Judged quality";
}

function scoredEntries(scores: Record<string, number | null>): Array<[string, number]> {
  const entries: Array<[string, number]> = [];
  for (const key of Object.keys(scores)) {
    const value = scores[key];
    if (typeof value === "number") entries.push([key, value]);
  }
  return entries;
}

/** The first entry with the smallest value (Ruby `min_by` keeps the first on ties). */
function minimum(entries: Array<[string, number]>): [string, number] | null {
  let best: [string, number] | null = null;
  for (const entry of entries) if (best === null || entry[1] < best[1]) best = entry;
  return best;
}

/** Tried in this order; the first that applies is the result's one fault. */
export const CHECKS: readonly Check[] = [
  runError,
  toolError,
  missingCapability,
  expectedToolNotCalled,
  ungroundedAnswer,
  forbiddenContent,
  missingContent,
  lowQuality,
];
