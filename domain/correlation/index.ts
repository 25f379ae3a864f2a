// Public surface of domain/correlation: run/result ids and trace ids tied to results.
export { Correlation, DEFAULT_TRACE_KEYS } from "./correlation.js";
export type { AroundEvaluation, CorrelatedResult, CorrelationOptions, EvaluationContext, JudgeKindName } from "./correlation.js";
export type { TraceHandle, TraceOptions, Tracer as CorrelationTracer } from "./tracer.js";
