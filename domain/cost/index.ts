// Public surface of domain/cost: per-result cost readers and the roll-ups the Report calls. The
// platform's own pricing of a replay that reports no cost is domain/pricing.
export {
  costRate,
  countOf,
  costSource,
  isEstimatedCost,
  isEstimatedUsage,
  numberOrNull,
  resultCost,
  resultJudgeUsage,
} from "./resultCost.js";
export type { CostRateRecord, CostResultLike, JudgeUsageRecord } from "./resultCost.js";
// CostSource is public from domain/replay (the same union); not re-exported here to keep one name.
export { addedJudgeUsage, carriesJudgeUsage, JUDGE_KIND_NAME_MAX, JUDGE_KINDS_MAX, judgeUsage, judgeUsageFromExchanges, OTHER_JUDGE_KIND, usageByKind } from "./judgeUsage.js";
export type { JudgeUsageTotals } from "./judgeUsage.js";
export { costCounts, costsByModel, modelCosts, runCosts, scenarioCosts } from "./rollups.js";
export type { CostBasis, CostCounts, CountedCostResult, ModelCostSummary, RunCostSummary, ScenarioCostSummary } from "./rollups.js";
