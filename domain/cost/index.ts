// Public surface of domain/cost: per-result cost readers and the roll-ups the Report calls. The
// platform's own pricing of a replay that reports no cost is domain/pricing.
export {
  costRate,
  costSource,
  isEstimatedCost,
  isEstimatedUsage,
  resultCost,
  resultJudgeUsage,
} from "./resultCost.js";
export type { CostRateRecord, CostResultLike, JudgeUsageRecord } from "./resultCost.js";
// CostSource is public from domain/replay (the same union); not re-exported here to keep one name.
export { judgeUsage, judgeUsageFromExchanges, usageByKind } from "./judgeUsage.js";
export type { JudgeUsageTotals } from "./judgeUsage.js";
export { costCounts, costsByModel, modelCosts, runCosts, scenarioCosts } from "./rollups.js";
export type { CostBasis, CostCounts, CountedCostResult, ModelCostSummary, RunCostSummary, ScenarioCostSummary } from "./rollups.js";
