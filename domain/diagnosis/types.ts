// The shapes a diagnosis takes (reference-core §9): one fault per failing result, a summary, an
// evidence-based recommendation, the evidence itself (snake_case keys, as reports and events
// carry it) and, once a judge refined it, what the judge said.

/** Faults in the order they are tried, most mechanical cause first (guide "Faults"). */
export const FAULTS = [
  "run_error",
  "tool_error",
  "missing_capability",
  "expected_tool_not_called",
  "ungrounded_answer",
  "forbidden_content",
  "missing_content",
  "low_quality",
  "judge_unavailable",
] as const;
export type Fault = (typeof FAULTS)[number];

/** Faults where a judge can add what the evidence alone cannot: a tool to add, an instruction to change. */
export const DEFAULT_REFINE_FAULTS: readonly Fault[] = [
  "missing_capability",
  "expected_tool_not_called",
  "ungrounded_answer",
  "low_quality",
  "missing_content",
];

export type Evidence = Record<string, unknown>;

/** A tool the judge says the agent needs. */
export interface SuggestedTool {
  name: string;
  description: string;
}

/**
 * A judge's refinement of a recommendation (the Judge's `recommend` parses its reply into this):
 * only non-blank strings survive, and anything left out is simply absent.
 */
export interface JudgeRefinement {
  recommendation?: string;
  suggested_tool?: SuggestedTool;
  instruction_change?: string;
}

export interface DiagnosisResult {
  fault: Fault;
  summary: string;
  recommendation: string;
  evidence: Evidence;
  /** Present once a judge refined the recommendation. */
  judge?: JudgeRefinement;
}

export interface DiagnoseInput {
  scenario: import("../scenarios/scenario.js").Scenario;
  replay: import("../replay/replay.js").Replay;
  scores: Record<string, number | null>;
  /** The mean score (Scorer.mean), null when nothing was scored. */
  score: number | null;
  /** Names of the tools the agent could call (its roster). */
  availableTools?: readonly string[];
  /** Pass threshold, 0.7 by default. */
  threshold?: number;
  /** How recommendations name the agent (`The agent` by default). */
  agentName?: string;
  /** Keys of llm_judge criteria; task_completion always counts as a judge grade. */
  judgeKeys?: readonly string[];
}
