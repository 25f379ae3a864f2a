// One scenario x model, start to finish (reference-core §11 `evaluate`): obtain the replay
// (a throw, nothing, an unusable value or a timeout becomes a failed replay), ask the judge for
// its grades, score, diagnose, refine the diagnosis with the judge within the run's limit,
// and build the Result with the judge's exchanges and what they used.
import { addedJudgeUsage } from "../cost/index.js";
import { Diagnosis } from "../diagnosis/index.js";
import type { Judge, JudgeExchange } from "../judge/index.js";
import { Replay } from "../replay/index.js";
import type { Scenario } from "../scenarios/index.js";
import { Scorer, TASK_COMPLETION, type Criterion, type ResultStatus, type Scores } from "../scoring/index.js";
import { Result } from "./result.js";
import { withTimeout } from "./timeout.js";
import type { RunScope } from "./runScope.js";
import { isThenable, keyedRecord } from "../support/index.js";

export interface RunnerSpec {
  readonly label: string;
  readonly provider: string;
  readonly model: string;
}

/**
 * The host's agent call. The third argument's signal is aborted when the replay's result will not
 * be used, so the call can stop its own work: with a `replayTimeoutMs`, when the budget runs out
 * (the result is already a run_error then, the reason a ReplayTimeoutError); with `concurrency > 1`,
 * when the run failed (an `onResult` or `aroundEvaluation` threw; the reason a RunFailedError
 * whose `cause` is that error). A replay nothing could abort (no budget, one pair at a time) gets
 * no signal.
 * `spec` is the model as the Runner was given it (`models`): a ModelSpec when given ModelSpecs,
 * which the Runner's type parameter carries (it was `any`, so `spec.modle` type-checked).
 */
export type ReplayFn<Spec extends RunnerSpec = RunnerSpec> = (scenario: Scenario, spec: Spec, context: { signal?: AbortSignal }) => unknown;
export type RunnerJudge = Pick<Judge, "label" | "scoreTask" | "scoreCriterion" | "recommend" | "verdict">;

/** Asked before each recommendation call (after the judge limit): false skips the call. */
export type RefineGate = (context: { scenario: Scenario; spec: RunnerSpec; fault: string }) => boolean | Promise<boolean>;

export interface EvaluationSettings {
  replay: ReplayFn;
  criteria: readonly Criterion[];
  /** Built once per Runner: criteria compile once, not once per pair. */
  scorer: Scorer;
  judge: RunnerJudge | null;
  judgeTask: boolean;
  availableTools: Record<string, string>;
  /** The roster's names, read once. */
  toolNames: string[];
  /** Keys of the llm_judge criteria. */
  judgeKeys: string[];
  instructions: string | null;
  agentName: string;
  threshold: number;
  refineFaults: readonly string[];
  judgeLimit: number;
  refineGate: RefineGate | null;
  requireJudgeScores: boolean;
  replayTimeoutMs: number | null;
  /** Shared by every evaluation of one Runner: the limit is per run, not per pair. */
  refinements: { attempted: number };
}

function replayOf(value: unknown): Replay {
  if (value === null || value === undefined) return Replay.failed("replay returned nothing");
  try {
    return Replay.from(value);
  } catch (error) {
    return Replay.failed(error);
  }
}

/**
 * Whatever the replay function gave, as a Replay; never throws. A function that answers
 * synchronously is read synchronously (no promise per pair); a promise is bounded by the timeout.
 */
function obtainReplay(settings: EvaluationSettings, scenario: Scenario, spec: RunnerSpec, scope?: RunScope): Replay | Promise<Replay> {
  // A run that has failed starts no replay (a wrapper may still call next() after the failure).
  if (scope?.failure) return Replay.failed(scope.failure);
  // A replay gets a signal when something can abort it: its budget, or its run failing (a
  // concurrent run's scope). One pair at a time without a budget, nothing would ever abort it.
  const controller = settings.replayTimeoutMs == null && !scope ? undefined : new AbortController();
  if (controller) scope?.started(controller);
  let value: unknown;
  try {
    value = settings.replay(scenario, spec, { signal: controller?.signal });
  } catch (error) {
    if (controller) scope?.settled(controller);
    return Replay.failed(error);
  }
  if (!isThenable(value)) {
    if (controller) scope?.settled(controller);
    return replayOf(value);
  }
  const bounded = withTimeout(Promise.resolve(value), settings.replayTimeoutMs, controller);
  return (scope && controller ? bounded.finally(() => scope.settled(controller)) : bounded).then(replayOf, (error: unknown) => Replay.failed(error));
}

const present = (text: string | null): boolean => text !== null && text.trim() !== "";

async function judgeGrades(settings: EvaluationSettings, scenario: Scenario, replay: Replay, exchanges: JudgeExchange[], scope?: RunScope) {
  const judge = settings.judge;
  const judged = settings.criteria.filter((c) => c.type === "llm_judge");
  const judgeScores: Record<string, number | null> = keyedRecord();
  let taskCompletion: number | null | undefined;
  if (!judge || !present(replay.answer)) return { judgeScores, taskCompletion, judged };
  for (const criterion of judged) {
    if (scope?.failure) break;
    const outcome = await judge.scoreCriterion({ criterion, prompt: scenario.prompt, answer: replay.answer });
    judgeScores[criterion.key] = outcome.value;
    if (outcome.exchange) exchanges.push(outcome.exchange);
  }
  if (settings.judgeTask && judged.length === 0 && !scope?.failure) {
    const outcome = await judge.scoreTask({ scenario, answer: replay.answer });
    taskCompletion = outcome.value;
    if (outcome.exchange) exchanges.push(outcome.exchange);
  }
  return { judgeScores, taskCompletion, judged };
}

async function mayRefine(settings: EvaluationSettings, scenario: Scenario, spec: RunnerSpec, fault: string, scope?: RunScope): Promise<boolean> {
  if (scope?.failure) return false;
  if (!settings.judge || !settings.refineFaults.includes(fault)) return false;
  if (settings.refinements.attempted >= settings.judgeLimit) return false;
  if (settings.refineGate && !(await settings.refineGate({ scenario, spec, fault }))) return false;
  // Checked again after the gate: pairs in flight together all passed the first check while
  // their gates were awaited. Counted before the call, so a call that fails still uses it up.
  if (settings.refinements.attempted >= settings.judgeLimit || scope?.failure) return false;
  settings.refinements.attempted += 1;
  return true;
}

/**
 * One pair: synchronous when the replay answered synchronously and no judge is configured.
 * `scope` is a concurrent run's: a failed run aborts the replay's signal, or starts no replay.
 */
export function evaluatePair(settings: EvaluationSettings, scenario: Scenario, spec: RunnerSpec, given?: unknown, scope?: RunScope): Result | Promise<Result> {
  const replay = given == null ? obtainReplay(settings, scenario, spec, scope) : Replay.from(given);
  if (replay instanceof Promise) return replay.then((held) => scorePair(settings, scenario, spec, held, scope));
  return scorePair(settings, scenario, spec, replay, scope);
}

/**
 * Once a concurrent run has failed, its pairs still in flight ask the judge nothing more: their
 * Results reach no report, and judge calls spend as replays do (a grade not asked is null).
 */
function scorePair(settings: EvaluationSettings, scenario: Scenario, spec: RunnerSpec, replay: Replay, scope?: RunScope): Result | Promise<Result> {
  if (settings.judge) return scoreJudged(settings, scenario, spec, replay, scope);
  const scores = settings.scorer.score(scenario, replay);
  const score = Scorer.mean(scores);
  // Without a judge, an llm_judge criterion is still an expected grade, and it is missing.
  const diagnosis = diagnose(settings, scenario, replay, scores, score, settings.judgeKeys) ?? missingGrades(settings, settings.judgeKeys, scores);
  return new Result({ scenario, spec, replay, scores, score, status: statusOf(replay, diagnosis), diagnosis });
}

/** With `requireJudgeScores`, the expected judge grades that came back null (reference-core §11 step 6). */
function missingGrades(settings: EvaluationSettings, expected: readonly string[], scores: Scores) {
  if (!settings.requireJudgeScores) return null;
  const unscored = expected.filter((key) => scores[key] === null || scores[key] === undefined);
  return unscored.length > 0 ? Diagnosis.judgeUnavailable(unscored) : null;
}

function diagnose(settings: EvaluationSettings, scenario: Scenario, replay: Replay, scores: Scores, score: number | null, judgeKeys: string[]) {
  return Diagnosis.diagnose({
    scenario, replay, scores, score,
    availableTools: settings.toolNames,
    threshold: settings.threshold,
    agentName: settings.agentName,
    judgeKeys,
  });
}

function statusOf(replay: Replay, diagnosis: unknown): ResultStatus {
  return replay.errored ? "errored" : diagnosis ? "failed" : "passed";
}

async function scoreJudged(settings: EvaluationSettings, scenario: Scenario, spec: RunnerSpec, replay: Replay, scope?: RunScope): Promise<Result> {
  const exchanges: JudgeExchange[] = [];
  const { judgeScores, taskCompletion, judged } = await judgeGrades(settings, scenario, replay, exchanges, scope);
  const scores = settings.scorer.score(scenario, replay, { judgeScores, ...(taskCompletion !== undefined ? { taskCompletion } : {}) });
  const score = Scorer.mean(scores);
  const expected = judged.map((c) => c.key);
  if (taskCompletion !== undefined) expected.push(TASK_COMPLETION);
  let diagnosis = diagnose(settings, scenario, replay, scores, score, settings.judgeKeys) ?? missingGrades(settings, expected, scores);
  if (diagnosis && (await mayRefine(settings, scenario, spec, diagnosis.fault, scope))) {
    const outcome = await settings.judge!.recommend({
      // The judge reads calls structurally; a Replay's calls keep whatever name the host gave.
      scenario, replay: replay as unknown as Parameters<RunnerJudge["recommend"]>[0]["replay"], diagnosis,
      availableTools: settings.availableTools, instructions: settings.instructions,
    });
    if (outcome.exchange) exchanges.push(outcome.exchange);
    if (outcome.value) diagnosis = Diagnosis.refine(diagnosis, outcome.value);
  }
  recordJudgeUsage(replay, exchanges);
  return new Result({ scenario, spec, replay, scores, score, status: statusOf(replay, diagnosis), diagnosis, judgeExchanges: exchanges });
}

/** The judge's calls for this result, as usage on the replay's metadata (unless the host set one). */
function recordJudgeUsage(replay: Replay, exchanges: readonly JudgeExchange[]): void {
  const metadata = replay.metadata as Record<string, unknown>;
  const usage = addedJudgeUsage(metadata, exchanges);
  if (usage) metadata.judge_usage = usage;
}
