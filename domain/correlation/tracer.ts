// The telemetry port Correlation writes to (guide, "Correlating traces with results"): the
// host injects it, so the evaluation core takes on no telemetry dependency.

/** What a tracer hands `onTrace`: an object with the trace id, or the id itself. */
export type TraceHandle = { traceId?: string | null; trace_id?: string | null } | string;

export interface TraceOptions {
  /** What the traced block does: the replay action ("eval") or the judge call's kind. */
  action: string;
  /** Correlation keys, each prefixed `eval.` (run id, result id, scenario, model, ...). */
  attributes: Record<string, string | number | boolean>;
  /**
   * Called with the trace once the tracer accepted it (a dropped trace never calls it). Call it
   * as soon as the id is known, when the span starts: an id given after the evaluation's Result
   * was made (a replay past its timeout settles later) is not recorded, as the Result is final.
   */
  onTrace: (trace: TraceHandle) => void;
}

/** Runs `fn` inside a trace named `name` (the agent's or the judge's) and returns its value. */
export type Tracer = <T>(name: string, options: TraceOptions, fn: () => Promise<T>) => Promise<T>;

// An id of zeros names no trace: it is what OpenTelemetry's API gives for a span when no SDK is
// registered (W3C Trace Context calls it invalid), and it was recorded on every result alike.
const NO_TRACE = /^[\s0-]*$/;

export function traceIdOf(trace: TraceHandle | null | undefined): string | null {
  const id = typeof trace === "string" ? trace : trace && typeof trace === "object" ? (trace.traceId ?? trace.trace_id) : null;
  return typeof id === "string" && !NO_TRACE.test(id) ? id : null;
}
