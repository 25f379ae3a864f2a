// Public surface of domain/stats: the seeded comparison and nearest-rank percentiles.
export { Comparison } from "./comparison.js";
export type {
  ComparableResult,
  ComparisonInterval,
  ComparisonJSON,
  ComparisonModelRef,
  ComparisonOptions,
  ModelComparison,
  PairComparison,
} from "./comparison.js";
export { COMPARISON_NOT_DECISIVE } from "./conclusion.js";
export { nearestRank, nearestRanks } from "./nearestRank.js";
