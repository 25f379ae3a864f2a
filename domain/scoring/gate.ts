// The pass rule (reference-core §11, guide "Adding a judge"): a result passes when its replay did
// not error and Diagnosis finds nothing; the score part of that is decided here so Diagnosis,
// the Runner and reports agree. The mean score must reach the threshold (compared with `<`, so
// exactly 0.7 passes), and the judge's grades — task_completion plus any llm_judge criteria —
// must reach it on their own: rule checks cannot carry an answer the judge graded as failing.
import { roundHalfAwayFromZero } from "../support/round.js";
import { FloatSum } from "../support/floatSum.js";

/** The default pass threshold. */
export const PASS_THRESHOLD = 0.7;
/** The key of the judge's implicit task-completion grade. */
export const TASK_COMPLETION = "task_completion";

export type Scores = Record<string, number | null>;
export type ResultStatus = "passed" | "failed" | "errored";

/** Mean of the non-null values rounded to 3 decimals; null when nothing was scored. */
export function meanScore(values: Scores | ReadonlyArray<number | null | undefined>): number | null {
  const sum = new FloatSum();
  if (Array.isArray(values)) {
    for (const value of values) if (typeof value === "number" && Number.isFinite(value)) sum.add(value);
  } else {
    const scores = values as Scores;
    for (const key in scores) {
      const value = scores[key];
      if (typeof value === "number" && Number.isFinite(value)) sum.add(value);
    }
  }
  return sum.count === 0 ? null : roundHalfAwayFromZero(sum.value / sum.count, 3);
}

function graded(scores: Scores, key: string): boolean {
  const value = scores[key];
  return typeof value === "number" && Number.isFinite(value);
}

/** The judge-graded entries of `scores` (task_completion always counts), null values left out. */
export function judgeGrades(scores: Scores, judgeKeys: readonly string[] = []): Array<[string, number]> {
  const grades: Array<[string, number]> = [];
  for (let i = 0; i < judgeKeys.length; i += 1) {
    const key = judgeKeys[i];
    if (graded(scores, key) && judgeKeys.indexOf(key) === i) grades.push([key, scores[key] as number]);
  }
  if (graded(scores, TASK_COMPLETION) && !judgeKeys.includes(TASK_COMPLETION)) {
    grades.push([TASK_COMPLETION, scores[TASK_COMPLETION] as number]);
  }
  return grades;
}

/** The mean judge grade rounded to 3 decimals, or null when the judge graded nothing. */
export function judgeGrade(scores: Scores, judgeKeys: readonly string[] = []): number | null {
  // The common case, read without building the entries: no llm_judge criteria.
  if (judgeKeys.length === 0) {
    return graded(scores, TASK_COMPLETION) ? roundHalfAwayFromZero(scores[TASK_COMPLETION] as number, 3) : null;
  }
  const grades = judgeGrades(scores, judgeKeys);
  return grades.length === 0 ? null : meanScore(grades.map(([, value]) => value));
}

export interface GateInput {
  score: number | null;
  scores: Scores;
  threshold?: number;
  judgeKeys?: readonly string[];
}

/** The score side of the pass rule: mean score and judge grade each null or at least the threshold. */
export function meetsThreshold({ score, scores, threshold = PASS_THRESHOLD, judgeKeys = [] }: GateInput): boolean {
  if (score !== null && score < threshold) return false;
  const grade = judgeGrade(scores, judgeKeys);
  return grade === null || grade >= threshold;
}

/** `errored` when the run failed, `failed` when a fault was diagnosed, else `passed`. */
export function resultStatus({ errored, diagnosis }: { errored: boolean; diagnosis: unknown }): ResultStatus {
  if (errored) return "errored";
  return diagnosis ? "failed" : "passed";
}

/**
 * A judge's grade as a score: a finite number clamped to 0..1; anything else (a string, NaN,
 * Infinity, a missing grade) is unscorable and becomes null, so it is left out of every mean.
 */
export function gradeValue(value: unknown): number | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  return value < 0 ? 0 : value > 1 ? 1 : value;
}
