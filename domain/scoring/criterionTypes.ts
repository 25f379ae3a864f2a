// The criterion types the Scorer scores (reference-core §8): a file of their own so the checks
// in criterionConfig.ts and the rules in criteria.ts both read them without importing each other.

export const RULE_CRITERION_TYPES = [
  "response_present",
  "min_length",
  "max_latency_ms",
  "token_budget",
  "contains",
  "not_contains",
] as const;
export const CRITERION_TYPES = [...RULE_CRITERION_TYPES, "llm_judge"] as const;
export type CriterionType = (typeof CRITERION_TYPES)[number];
