// Runner (reference-core §11, guide "Adding a judge", "In a dashboard"): every scenario x model
// replayed, scored, diagnosed and (with a judge) refined, then one Report. A replay that throws,
// returns nothing or hangs past `replayTimeoutMs` is a run_error result, never a failed run;
// errors from `aroundEvaluation` propagate. With `concurrency > 1` replays run in parallel and
// results keep scenario x model order; a pair that throws fails the run and aborts the replays
// still running.
import { Diagnosis } from "../diagnosis/index.js";
import { Scorer, type Criterion } from "../scoring/index.js";
import { Report, type ReportLinks, type Release, type ToolResolver } from "../report/index.js";
import type { Scenario } from "../scenarios/index.js";
import { checkThreshold } from "../report/threshold.js";
import { checkUniqueLabels } from "../report/uniqueLabels.js";
import { normalizeTools, type AvailableToolsInput } from "./availableTools.js";
import { evaluatePair, type EvaluationSettings, type RefineGate, type ReplayFn, type RunnerJudge, type RunnerSpec } from "./evaluate.js";
import { checkDefineKpis, checkJudge, checkModels, checkOptions, checkRefineFaults, checkScenarios } from "./optionShapes.js";
import { described } from "../support/index.js";
import { inOrder } from "./pool.js";
import { RunScope } from "./runScope.js";
import { canDefineKpis, settleKpis, type DefineKpisOptions, type KpiSettlement } from "./definedKpis.js";
import { judgeUsageFromExchanges } from "../cost/index.js";
import type { Result } from "./result.js";

export const DEFAULT_REFINE_FAULTS: readonly string[] = Diagnosis.DEFAULT_REFINE_FAULTS;
export const DEFAULT_JUDGE_LIMIT = 25;

export interface EvaluationContext {
  scenario: Scenario;
  spec: RunnerSpec;
  runMetadata: Record<string, unknown>;
}
export type AroundEvaluationFn = (context: EvaluationContext, next: () => Promise<Result>) => Promise<Result>;
/** A wrapper function, or an object carrying one (a Correlation). */
export type AroundEvaluation = AroundEvaluationFn | { aroundEvaluation: AroundEvaluationFn };

export interface RunnerOptions<Spec extends RunnerSpec = RunnerSpec> {
  scenarios: readonly Scenario[];
  models: readonly Spec[];
  replay: ReplayFn<Spec>;
  criteria?: readonly { key: string; type: string; config?: Record<string, unknown> }[];
  judge?: RunnerJudge | null;
  /** Ask the judge for task_completion when no llm_judge criterion is configured (default true). */
  judgeTask?: boolean;
  availableTools?: AvailableToolsInput;
  instructions?: string | null;
  agentName?: string | null;
  threshold?: number;
  refineFaults?: readonly string[];
  judgeLimit?: number;
  refineGate?: RefineGate | null;
  onResult?: ((result: Result) => void | Promise<void>) | null;
  aroundEvaluation?: AroundEvaluation | null;
  requireJudgeScores?: boolean;
  metadata?: Record<string, unknown>;
  release?: Release | null;
  concurrency?: number;
  /** Per-replay budget; a replay still running after it becomes a run_error. */
  replayTimeoutMs?: number | null;
  /**
   * Judge-defined KPIs (a set whose judge is `judge_defined`): before any pair is scored the judge
   * defines 3-6 KPIs, scored as llm_judge criteria beside `criteria`. Without a judge, or with an
   * unusable answer, the run scores on `criteria` alone and its report says why (`kpi_failure`).
   * `true`, or what the judge reads beyond the instructions and criteria.
   */
  defineKpis?: boolean | DefineKpisOptions;
  /** Passed through to the Report. */
  toolResolver?: ToolResolver | null;
  links?: ReportLinks;
}

function wrapperOf(around: AroundEvaluation | null | undefined): AroundEvaluationFn | null {
  if (!around) return null;
  if (typeof around === "function") return around;
  if (typeof around.aroundEvaluation === "function") return around.aroundEvaluation;
  throw new TypeError("Runner: aroundEvaluation must be a function (context, next) => Result or an object with one");
}

/** The settings that follow from the criteria: compiled once, not once per pair. */
function criteriaSettings(criteria: readonly Criterion[], threshold: number): Pick<EvaluationSettings, "criteria" | "scorer" | "judgeKeys"> {
  return {
    criteria,
    scorer: new Scorer({ criteria, threshold }),
    judgeKeys: criteria.filter((c) => c.type === "llm_judge").map((c) => c.key),
  };
}

export class Runner<Spec extends RunnerSpec = RunnerSpec> {
  readonly scenarios: readonly Scenario[];
  readonly models: readonly RunnerSpec[];
  readonly metadata: Record<string, unknown>;
  readonly #options: RunnerOptions<Spec>;
  #settings: EvaluationSettings;
  readonly #around: AroundEvaluationFn | null;
  #kpis: KpiSettlement | null = null;
  /** Whether a report already carries the define call's spend: a second run() did not pay for it again. */
  #kpiCallReported = false;

  constructor(options: RunnerOptions<Spec>) {
    if (!Array.isArray(options?.scenarios)) throw new TypeError("Runner: scenarios must be an array of Scenario");
    if (!Array.isArray(options.models)) throw new TypeError("Runner: models must be an array of model specs");
    if (typeof options.replay !== "function") throw new TypeError("Runner: replay must be a function (scenario, spec) => Replay");
    checkOptions(options);
    checkScenarios(options.scenarios);
    checkModels(options.models);
    checkUniqueLabels("Runner", options.models);
    checkJudge(options.judge);
    checkDefineKpis(options.defineKpis);
    if (options.defineKpis && options.judge && !canDefineKpis(options.judge)) throw new TypeError("Runner: defineKpis needs a judge that can define KPIs (a Judge, with define())");
    checkRefineFaults(options.refineFaults);
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`Runner: concurrency must be a positive integer, got ${String(concurrency)}`);
    const timeout = options.replayTimeoutMs;
    if (timeout != null && !(Number.isFinite(timeout) && timeout > 0)) throw new RangeError(`Runner: replayTimeoutMs must be a positive number, got ${String(timeout)}`);
    const threshold = options.threshold ?? 0.7;
    checkThreshold("Runner", threshold);
    const judgeLimit = options.judgeLimit ?? DEFAULT_JUDGE_LIMIT;
    if (!(Number.isInteger(judgeLimit) || judgeLimit === Infinity) || judgeLimit < 0) throw new RangeError(`Runner: judgeLimit must be a whole number of calls, 0 or more (Infinity for no limit), got ${String(judgeLimit)}`);
    this.#options = options;
    this.scenarios = options.scenarios;
    this.models = options.models;
    // By reference: a Correlation keeps writing onto the object the Report carries.
    this.metadata = options.metadata ?? {};
    this.#around = wrapperOf(options.aroundEvaluation);
    const tools = normalizeTools(options.availableTools);
    this.#settings = {
      // Called only with the Runner's own models, each a Spec.
      replay: options.replay as ReplayFn,
      ...criteriaSettings(options.criteria ?? [], threshold),
      judge: options.judge ?? null,
      judgeTask: options.judgeTask ?? true,
      availableTools: tools,
      toolNames: Object.keys(tools),
      instructions: options.instructions ?? null,
      agentName: options.agentName?.trim() ? options.agentName : "The agent",
      threshold,
      refineFaults: options.refineFaults ?? DEFAULT_REFINE_FAULTS,
      judgeLimit,
      refineGate: options.refineGate ?? null,
      requireJudgeScores: options.requireJudgeScores ?? false,
      replayTimeoutMs: timeout ?? null,
      refinements: { attempted: 0 },
    };
  }

  /** Refinement calls attempted by this Runner (counted before each call). */
  get refinements(): number {
    return this.#settings.refinements.attempted;
  }

  /**
   * Scores one pair without the wrapper and without `onResult`, for a caller doing its own
   * scheduling. `replay` is the replay already held; without it the replay function is called.
   */
  async evaluate(scenario: Scenario, spec: RunnerSpec, replay?: unknown): Promise<Result> {
    return evaluatePair(this.#settings, scenario, spec, replay);
  }

  /** How the run's KPIs were settled (defineKpis), once run() has settled them; else null. */
  get kpiSettlement(): KpiSettlement | null {
    return this.#kpis;
  }

  async run(): Promise<Report> {
    if (this.#options.defineKpis && !this.#kpis) await this.#settleKpis();
    const results = await this.#evaluateAll();
    const kpis = this.#kpis;
    const defineCall = kpis?.exchange && !this.#kpiCallReported ? kpis.exchange : null;
    this.#kpiCallReported ||= defineCall !== null;
    const report = new Report({
      results,
      models: this.models,
      criteria: this.#settings.criteria,
      judge: this.#settings.judge,
      instructions: this.#settings.instructions,
      threshold: this.#settings.threshold,
      metadata: this.metadata,
      release: this.#options.release ?? null,
      agentName: this.#options.agentName ?? null,
      toolResolver: this.#options.toolResolver ?? null,
      links: this.#options.links,
      kpiFailure: kpis?.failure ?? null,
      // The define call belongs to no result: it is the run's own judge spend, as the verdict's is.
      // A second run() reuses the KPIs without asking again: its report carries no define call.
      judgeUsage: defineCall ? judgeUsageFromExchanges([defineCall]) : null,
    });
    if (this.#settings.judge) await report.judgeVerdict();
    return report;
  }

  /** Asks the judge for KPIs once; the ones it defined are scored beside the run's criteria. */
  async #settleKpis(): Promise<void> {
    const judge = this.#settings.judge;
    const given = this.#options.defineKpis;
    const kpis = await settleKpis(canDefineKpis(judge) ? judge : null, this.#settings.criteria, this.#settings.instructions, typeof given === "object" ? given : {});
    this.#kpis = kpis;
    if (kpis.criteria.length) this.#settings = { ...this.#settings, ...criteriaSettings([...this.#settings.criteria, ...kpis.criteria], this.#settings.threshold) };
  }

  async #evaluateAll(): Promise<Result[]> {
    const concurrency = this.#options.concurrency ?? 1;
    if (concurrency === 1) {
      if (!this.#around && !this.#options.onResult) return evaluateInOrder(this.#settings, this.scenarios, this.models);
      // One at a time; a pair that evaluates synchronously costs no promise.
      const results: Result[] = [];
      for (const scenario of this.scenarios) {
        for (const spec of this.models) {
          const result = this.#evaluateWrapped(scenario, spec);
          results.push(result instanceof Promise ? await result : result);
        }
      }
      return results;
    }
    const pairs: [Scenario, RunnerSpec][] = [];
    for (const scenario of this.scenarios) for (const spec of this.models) pairs.push([scenario, spec]);
    // The first pair to throw fails the run: the replays still running are aborted (their signal,
    // with a RunFailedError naming that error), none starts after, and a pair still in flight is
    // not reported: run() has failed, and onResult (a row saved, a line printed) must not be
    // called for a run its caller saw fail. run() rejects with the first error (see inOrder).
    const scope = new RunScope();
    return inOrder(pairs.length, concurrency, async (i) => {
      try {
        return await this.#evaluateWrapped(pairs[i][0], pairs[i][1], scope);
      } catch (error) {
        scope.fail(error);
        throw error;
      }
    });
  }

  #evaluateWrapped(scenario: Scenario, spec: RunnerSpec, scope?: RunScope): Result | Promise<Result> {
    if (!this.#around && !this.#options.onResult) return evaluatePair(this.#settings, scenario, spec, undefined, scope);
    return this.#wrapped(scenario, spec, scope);
  }

  async #wrapped(scenario: Scenario, spec: RunnerSpec, scope?: RunScope): Promise<Result> {
    let result: Result;
    if (this.#around) {
      let yielded: Result | undefined;
      const next = async (): Promise<Result> => (yielded = await evaluatePair(this.#settings, scenario, spec, undefined, scope));
      const returned = await this.#around({ scenario, spec, runMetadata: this.metadata }, next);
      if (yielded === undefined || returned !== yielded) {
        throw new TypeError(`aroundEvaluation must return the Result its next() yields, got ${described(returned)}`);
      }
      result = returned;
    } else {
      result = await evaluatePair(this.#settings, scenario, spec, undefined, scope);
    }
    if (!scope?.failure) await this.#options.onResult?.(result);
    return result;
  }
}

/**
 * Every pair in scenario x model order, one at a time, with no wrapper and no callback (the usual
 * run): a pair that evaluates synchronously costs no promise. A function rather than a Runner
 * method so the hot loop never checks a Runner's hidden class, which V8 frees with the last
 * Runner and would deoptimize this loop for (see DiagnosisContext).
 */
async function evaluateInOrder(settings: EvaluationSettings, scenarios: readonly Scenario[], models: readonly RunnerSpec[]): Promise<Result[]> {
  const results: Result[] = [];
  for (const scenario of scenarios) {
    for (const spec of models) {
      const result = evaluatePair(settings, scenario, spec);
      results.push(result instanceof Promise ? await result : result);
    }
  }
  return results;
}
