// Scores one Replay against an evaluation's criteria and the scenario's expectations
// (reference-core §8). `score` is synchronous: the judge is asked by the Runner, asynchronously,
// before scoring, and its grades come in through `ScoreOptions` (`judgeScores` for llm_judge
// criteria by key, `taskCompletion` for the implicit task grade). A grade that is not a finite
// number is unscorable (null) and drops out of every mean.
import type { Replay } from "../replay/replay.js";
import type { Scenario } from "../scenarios/scenario.js";
import { checkCriterion, checkUniqueKeys, compileCriterion, CriterionError, CRITERION_TYPES, RULE_CRITERION_TYPES, type CompiledCriterion, type Criterion } from "./criteria.js";
import { gradeValue, meanScore, meetsThreshold, PASS_THRESHOLD, TASK_COMPLETION, type Scores } from "./gate.js";
import { matchesPattern, patternProblem } from "./pattern.js";
import { scenarioChecks } from "./scenarioChecks.js";
import { described, NON_BLANK_CHARACTER } from "../support/index.js";

/** The latest Scorer, held (see the constructor). */
const latest: Scorer[] = [];

export interface ScorerOptions {
  criteria?: ReadonlyArray<Criterion>;
  /** The pass threshold, 0..1 (0.7 by default). */
  threshold?: number;
}

export interface ScoreOptions {
  /** The judge's grade for each llm_judge criterion, by criterion key (missing or invalid -> null). */
  judgeScores?: Readonly<Record<string, unknown>>;
  /**
   * The judge's task-completion grade. When given (even as null, meaning the judge failed) and the
   * answer is present, it is added as `task_completion` after every other score, as the Runner does.
   */
  taskCompletion?: unknown;
}

export class Scorer {
  /** The rule criterion types, and all types including llm_judge. */
  static readonly RULE_CRITERION_TYPES = RULE_CRITERION_TYPES;
  static readonly CRITERION_TYPES = CRITERION_TYPES;

  readonly criteria: readonly Criterion[];
  readonly threshold: number;
  readonly #compiled: readonly CompiledCriterion[];
  /** Some criterion matches patterns, so reads the lower-cased answer. */
  readonly #readsLower: boolean;

  constructor({ criteria = [], threshold = PASS_THRESHOLD }: ScorerOptions = {}) {
    // An object of criteria failed as "criteria.map is not a function".
    if (!Array.isArray(criteria)) throw new CriterionError("criteria", `must be an array of criteria ({ key, type, config }), got ${described(criteria)}`);
    this.criteria = criteria.map((criterion, index) => ({ ...checkCriterion(criterion, index) }));
    checkUniqueKeys(criteria as Criterion[]);
    this.threshold = threshold;
    this.#compiled = this.criteria.map(compileCriterion);
    this.#readsLower = this.#compiled.some((criterion) => criterion.type === "contains" || criterion.type === "not_contains");
    // Each Runner builds its own Scorer: keeping the latest keeps V8's hidden class for scorers
    // alive between runs, so a full collection does not deoptimize `score` (see DiagnosisContext).
    latest[0] = this;
  }

  /** Keys of the llm_judge criteria: the grades Diagnosis and the gate read as the judge's. */
  get judgeKeys(): string[] {
    return this.#compiled.filter((criterion) => criterion.judged).map((criterion) => criterion.key);
  }

  /**
   * `criterion key -> 0..1 or null`: every criterion in order (0.0 each when the answer is blank),
   * then `expected_tools`, `expected_content`, `forbidden_content`, `tools_succeeded` when they
   * apply, then `task_completion` when given.
   */
  score(scenario: Scenario, replay: Replay, options: ScoreOptions = {}): Scores {
    const scores: Scores = {};
    const answer = replay.answerText;
    const present = NON_BLANK_CHARACTER.test(answer);
    // Lower-casing copies the answer (kept on the replay for every later reader): only when read.
    const lower = present && this.#readsLower ? replay.answerLower : "";
    const judgeScores = options.judgeScores;
    for (const criterion of this.#compiled) {
      scores[criterion.key] = present
        ? criterion.rule(answer, lower, replay, criterion.judged ? gradeValue(judgeScores?.[criterion.key]) : null)
        : 0.0;
    }
    const checks = scenarioChecks(scenario);
    const expectedCalled = checks.expectedTools.length > 0 && checks.anyExpectedCalled(replay.toolNames);
    if (checks.expectedTools.length > 0) scores.expected_tools = expectedCalled ? 1.0 : 0.0;
    if (checks.expected.length > 0) scores.expected_content = checks.expectedContentScore(replay);
    if (checks.forbidden.length > 0) scores.forbidden_content = checks.anyForbidden(replay) ? 0.0 : 1.0;
    // A tool that ran without erroring is evidence only when it is one the scenario expected.
    if (replay.toolCalls.length > 0 && (checks.expectedTools.length === 0 || expectedCalled)) {
      scores.tools_succeeded = replay.failedToolCalls.length > 0 ? 0.0 : 1.0;
    }
    if (options.taskCompletion !== undefined && present) scores[TASK_COMPLETION] = gradeValue(options.taskCompletion);
    return scores;
  }

  /** Whether `score` and the judge grades in `scores` both reach this scorer's threshold. */
  meetsThreshold(scores: Scores, score: number | null = meanScore(scores)): boolean {
    return meetsThreshold({ score, scores, threshold: this.threshold, judgeKeys: this.judgeKeys });
  }

  /** Mean of the scored (non-null) values rounded to 3 decimals; null when none. */
  static mean(values: Scores | ReadonlyArray<number | null | undefined>): number | null {
    return meanScore(values);
  }

  /** Why `pattern` can never match (a `/regex/` that does not compile), or null. */
  static patternProblem(pattern: string): string | null {
    return patternProblem(pattern);
  }

  /** Case-insensitive substring, else regex (`/body/flags` for an explicit regex); see pattern.ts. */
  static matchesPattern(text: unknown, pattern: unknown): boolean {
    return matchesPattern(text, pattern);
  }
}
