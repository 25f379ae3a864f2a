// Public surface of domain/scoring: `Scorer` (`new Scorer({ criteria, threshold }).score(scenario,
// replay, { judgeScores, taskCompletion })`, `Scorer.mean`, `Scorer.matchesPattern`), the pass
// threshold, the task-completion gate and the status rule.
//
//   const scorer = new Scorer({ criteria: [{ key: "length", type: "min_length", config: { chars: 80 } }] });
//   const scores = scorer.score(scenario, replay, { taskCompletion: 0.9 });
//   const score = Scorer.mean(scores);
//   const ok = meetsThreshold({ score, scores, threshold: 0.7, judgeKeys: scorer.judgeKeys });
export { Scorer } from "./scorer.js";
export type { ScorerOptions, ScoreOptions } from "./scorer.js";
export { CriterionError, recordedCriteria } from "./criteria.js";
export type { Criterion, CriterionType } from "./criteria.js";
export {
  PASS_THRESHOLD,
  TASK_COMPLETION,
  meanScore,
  judgeGrade,
  judgeGrades,
  meetsThreshold,
  resultStatus,
  gradeValue,
} from "./gate.js";
// The criterion type lists are `Scorer.CRITERION_TYPES` / `Scorer.RULE_CRITERION_TYPES`
// (commands/ exports its own CRITERION_TYPES under that name).
export type { Scores, ResultStatus, GateInput } from "./gate.js";
export { BUILT_IN_SCORES, scoresInScorerOrder } from "./scoreOrder.js";
export { REGEX_INPUT_LIMIT, WIDE_REGEX_INPUT_LIMIT, patternShape, type PatternShape } from "./patternSafety.js";
