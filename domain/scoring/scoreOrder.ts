// The order of a result's scores, as the Scorer writes them: every criterion in order, then the
// scenario's own checks, then task_completion. Read back from jsonb (the SQL event stores), a
// scores object has its keys sorted by length, then bytes, and the reports that list criteria
// in first-seen order (criterion statistics, the page's footer) would follow that instead.
import { TASK_COMPLETION, type Scores } from "./gate.js";

/**
 * The scores the Scorer writes itself, after the criteria, under these names: a criterion keyed
 * with one of them would be overwritten, or read as the built-in score (criterionConfig.ts).
 */
export const BUILT_IN_SCORES: readonly string[] = ["expected_tools", "expected_content", "forbidden_content", "tools_succeeded", TASK_COMPLETION];
const AFTER_CRITERIA = BUILT_IN_SCORES;

/** `scores` with its keys in the Scorer's order for these criteria; keys it does not know last. */
export function scoresInScorerOrder(scores: Readonly<Scores>, criterionKeys: readonly string[]): Scores {
  const out: Scores = {};
  for (const key of criterionKeys) if (key in scores) out[key] = scores[key];
  for (const key of AFTER_CRITERIA) if (key in scores && !(key in out)) out[key] = scores[key];
  for (const key of Object.keys(scores)) if (!(key in out)) out[key] = scores[key];
  return out;
}
