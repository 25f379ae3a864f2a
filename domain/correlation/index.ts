// Public surface of domain/correlation: run/result ids and trace ids tied to results.
// (The Runner names its own EvaluationContext / AroundEvaluation; these are the same shapes.)
export { Correlation, DEFAULT_TRACE_KEYS } from "./correlation.js";
export type {
  AroundEvaluation as CorrelationAroundEvaluation,
  CorrelatedResult,
  CorrelationOptions,
  EvaluationContext as CorrelationContext,
  JudgeKindName,
  TracerErrorContext,
} from "./correlation.js";
export type { TraceHandle, TraceOptions, Tracer as CorrelationTracer } from "./tracer.js";
