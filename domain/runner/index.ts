// Public surface of domain/runner: the Runner (scenarios x models -> Results -> Report) and the
// Result it produces.
export { Runner, DEFAULT_JUDGE_LIMIT, DEFAULT_REFINE_FAULTS } from "./runner.js";
export type { RunnerOptions, AroundEvaluation, AroundEvaluationFn, EvaluationContext } from "./runner.js";
export type { RefineGate, ReplayFn, RunnerJudge, RunnerSpec } from "./evaluate.js";
export { ReplayTimeoutError } from "./timeout.js";
export { RunFailedError } from "./runScope.js";
export type { DefineKpisOptions, KpiSettlement } from "./definedKpis.js";
export * from "./result.js";
