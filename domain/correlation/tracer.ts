// The telemetry port Correlation writes to (guide, "Correlating traces with results"): the
// host injects it, so the evaluation core takes on no telemetry dependency.

/** What a tracer hands `onTrace`: an object with the trace id, or the id itself. */
export type TraceHandle = { traceId?: string | null; trace_id?: string | null } | string;

export interface TraceOptions {
  /** What the traced block does: the replay action ("eval") or the judge call's kind. */
  action: string;
  /** Correlation keys, each prefixed `eval.` (run id, result id, scenario, model, ...). */
  attributes: Record<string, string | number | boolean>;
  /** Called with the trace once the tracer accepted it; a dropped trace never calls it. */
  onTrace: (trace: TraceHandle) => void;
}

/** Runs `fn` inside a trace named `name` (the agent's or the judge's) and returns its value. */
export type Tracer = <T>(name: string, options: TraceOptions, fn: () => Promise<T>) => Promise<T>;

export function traceIdOf(trace: TraceHandle | null | undefined): string | null {
  if (typeof trace === "string") return trace.trim() === "" ? null : trace;
  if (!trace || typeof trace !== "object") return null;
  const id = trace.traceId ?? trace.trace_id;
  return typeof id === "string" && id.trim() !== "" ? id : null;
}
