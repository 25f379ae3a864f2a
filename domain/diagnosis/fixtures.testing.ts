// Support and billing scenarios shared by the diagnosis tests, and a helper that scores a
// replay with the real Scorer before diagnosing it, as the Runner does.
import { Replay, type ReplayInit } from "../replay/replay.js";
import { Scenario } from "../scenarios/scenario.js";
import { Scorer } from "../scoring/scorer.js";
import type { Criterion } from "../scoring/criteria.js";
import { Diagnosis, type DiagnosisResult } from "./index.js";

export const ROSTER = ["lookup_order", "refund_order", "search_faq"];

export const orderStatus = new Scenario({
  key: "orders_1",
  prompt: "Where is my order 4821?",
  group: "orders",
  expectedTools: ["lookup_order"],
});
export const refundWindow = new Scenario({ key: "billing_1", prompt: "How long do I have to ask for a refund?", group: "billing" });
export const cancelPlan = new Scenario({
  key: "billing_2",
  prompt: "Cancel my subscription",
  forbiddenPatterns: ["I cannot", "contact support"],
  expectedPatterns: ["cancel", "/effective (immediately|at the end)/i"],
});

export interface Options {
  availableTools?: string[];
  criteria?: Criterion[];
  taskCompletion?: number | null;
  judgeScores?: Record<string, number | null>;
  threshold?: number;
  agentName?: string;
}

export function diagnose(scenario: Scenario, init: ReplayInit, options: Options = {}): DiagnosisResult | null {
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

export const looked = { toolCalls: [{ name: "lookup_order", arguments: { number: "4821" } }] };
