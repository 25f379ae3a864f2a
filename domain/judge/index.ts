// Public surface of domain/judge: the Judge, its exchange records, prompts' fixed texts.
export { Judge, DEFAULT_JUDGE_TIMEOUT_MS } from "./judge.js";
export type { CompleteFn, JudgeExchange, JudgeKind, JudgeOptions, JudgeOutcome, JudgeReply, JudgeRequest } from "./judge.js";
export type { JudgeRecommendation, JudgeVerdict } from "./parse.js";
export { NOTES_LIMIT, RECOMMEND_INSTRUCTIONS, SCORE_INSTRUCTIONS, VERDICT_INSTRUCTIONS } from "./prompts.js";
export { hasScoredAnswer, verdictCandidates } from "./prompts.js";
export type { VerdictSummary } from "./prompts.js";
export type { JudgeCallUsage } from "./usage.js";
export { DEFINE_INSTRUCTIONS, KPI_MAX, KPI_MIN, KPI_NO_JUDGE_MESSAGE, KPI_UNUSABLE_MESSAGE, RECENT_RUNS_MAX, kpiCriterion, kpiDescription } from "./kpis.js";
export type { DefineInput, DefinedKpi, RecentRun } from "./kpis.js";
export { JUDGE_TEXT_BYTES, clippedExchange, clippedJudgeText } from "./judgeText.js";
export { ClippedJudge } from "./clippedJudge.js";
