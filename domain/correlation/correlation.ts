// Correlation (reference-core §16, guide "Correlating traces with results"): mints a run_id
// per run and a result_id per evaluation, puts them on every trace opened inside as
// `eval.`-prefixed attributes, and records the trace ids back: the replay's on
// `replay.metadata.trace_id`, the judge's on `judge_trace_ids` of the result it graded, or
// of the run metadata when no evaluation is open (the verdict). Contexts live in
// AsyncLocalStorage, so evaluations running concurrently never see each other's ids.

import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { IdGenerator } from "../events/index.js";
import { checkKnownOptions, described, isBlank, isThenable, thrownText } from "../support/index.js";
import { traceIdOf, type Tracer } from "./tracer.js";

export const DEFAULT_TRACE_KEYS = ["run_id", "result_id", "suite", "scenario_key", "model_label", "model", "provider"] as const;

export type Metadata = Record<string, unknown>;

const CORRELATION_OPTIONS: Record<keyof CorrelationOptions, true> = {
  agentName: true, judgeName: true, tracer: true, replayAction: true, traceKeys: true, ids: true, onTracerError: true,
};
const CORRELATION_OPTION_NAMES = Object.keys(CORRELATION_OPTIONS);

export interface CorrelationOptions {
  agentName: string;
  /** Defaults to `<agentName>Judge`. */
  judgeName?: string;
  tracer?: Tracer | null;
  /** The replay trace's action (default "eval"). */
  replayAction?: string;
  /** Which correlation keys become trace attributes; other run metadata stays off the traces. */
  traceKeys?: readonly string[];
  /** Mints run and result ids (default crypto.randomUUID); inject one for reproducible ids. */
  ids?: IdGenerator | (() => string);
  /**
   * Told of each failure of the tracer itself (it threw, or threw something other than the
   * block's own error); the traced block's outcome stands either way. Without it the first
   * failure of this Correlation is a process warning (`CorrelationWarning`), the later ones unsaid.
   */
  onTracerError?: ((error: unknown, context: TracerErrorContext) => void) | null;
}

/** Which traced block the tracer failed on. */
export interface TracerErrorContext {
  /** A replay (`correlation.replay`) or a judge call (`correlation.judge`, `traceJudge`). */
  kind: "replay" | "judge";
  /** The trace's name: the agent's or the judge's. */
  name: string;
  /** The trace's action: the replay action ("eval") or the judge call's kind ("score", ...). */
  action: string;
}

/** What the Runner hands its `aroundEvaluation` wrapper for one scenario × model. */
export interface EvaluationContext {
  scenario: { key: string };
  spec: { label: string; model?: string | null; provider?: string | null };
  /** The Runner's `metadata`: the run context when no `withRun` is open. */
  runMetadata?: Metadata | null;
}

/** A Result as far as Correlation touches it: ids are merged into its replay's metadata. */
export interface CorrelatedResult {
  replay: { metadata: Metadata };
}

/** The Runner's wrapper around replay + scoring + recommendations; must return what `next` returns. */
export type AroundEvaluation<R> = (context: EvaluationContext, next: () => Promise<R>) => Promise<R>;

interface Contexts {
  run: Metadata | null;
  result: Metadata | null;
}

export type JudgeKindName = "score" | "recommend" | "verdict" | (string & {});

export class Correlation {
  readonly agentName: string;
  readonly judgeName: string;
  readonly traceKeys: readonly string[];
  readonly #tracer: Tracer | null;
  readonly #replayAction: string;
  readonly #ids: () => string;
  readonly #onTracerError: CorrelationOptions["onTracerError"];
  /** Whether this Correlation has warned of a tracer failure (or of its onTracerError failing). */
  readonly #warned = { tracer: false, handler: false };
  readonly #storage = new AsyncLocalStorage<Contexts>();
  /**
   * Contexts whose evaluation (or withRun) has ended: a trace id the tracer gives after that is
   * not recorded, so a Result, once returned, never changes behind its host (an id pushed later
   * changed a report already saved by onResult).
   */
  readonly #closed = new WeakSet<Metadata>();

  constructor(options: CorrelationOptions) {
    // `judge_name` or `trace_keys` (the guide's Ruby spelling) was ignored and the default used.
    checkKnownOptions("Correlation", options ?? {}, CORRELATION_OPTION_NAMES);
    if (typeof options?.agentName !== "string" || isBlank(options.agentName)) {
      throw new TypeError("Correlation: agentName must be a non-blank string");
    }
    if (options.tracer != null && typeof options.tracer !== "function") {
      throw new TypeError("Correlation: tracer must be a function (name, { action, attributes, onTrace }, fn) => result");
    }
    if (options.onTracerError != null && typeof options.onTracerError !== "function") {
      throw new TypeError(`Correlation: onTracerError must be a function (error, { kind, name, action }) => void, got ${described(options.onTracerError)}`);
    }
    this.#onTracerError = options.onTracerError ?? null;
    this.agentName = options.agentName;
    this.judgeName = isBlank(options.judgeName) ? `${options.agentName}Judge` : (options.judgeName as string);
    this.traceKeys = [...(options.traceKeys ?? DEFAULT_TRACE_KEYS)];
    this.#tracer = options.tracer ?? null;
    this.#replayAction = options.replayAction ?? "eval";
    const ids = options.ids ?? randomUUID;
    this.#ids = typeof ids === "function" ? ids : () => ids.next();
  }

  /**
   * Runs `fn` inside a run context. `metadata` is the caller's own object, mutated in place
   * (a `run_id` is minted when absent), so pass it to the Runner/Report as their metadata.
   */
  withRun<T>(metadata: Metadata | null | undefined, fn: (metadata: Metadata) => T | Promise<T>): Promise<T> {
    const run = metadata ?? {};
    if (isBlank(run.run_id)) run.run_id = this.#ids();
    return this.#storage.run({ run, result: null }, async () => {
      try {
        return await fn(run);
      } finally {
        this.#closed.add(run);
      }
    });
  }

  /**
   * The Runner's `aroundEvaluation`: opens a result context (run_id, a new result_id, scenario
   * and model), runs the evaluation, then merges that context, trace ids included, into the
   * Result's replay metadata and returns the Result. Bound, so it can be passed as is.
   */
  readonly aroundEvaluation = async <R extends CorrelatedResult>(context: EvaluationContext, next: () => Promise<R>): Promise<R> => {
    const run = this.#storage.getStore()?.run ?? context.runMetadata ?? null;
    if (run && isBlank(run.run_id)) run.run_id = this.#ids();
    const result = compact({
      run_id: run?.run_id,
      result_id: this.#ids(),
      scenario_key: context.scenario.key,
      model_label: context.spec.label,
      model: context.spec.model,
      provider: context.spec.provider,
    });
    let evaluated: R;
    try {
      evaluated = await this.#storage.run({ run, result }, next);
    } finally {
      this.#closed.add(result);
    }
    const metadata = evaluated?.replay?.metadata;
    if (metadata === null || typeof metadata !== "object" || !Object.isExtensible(metadata)) {
      throw new TypeError("Correlation: the evaluated Result's replay.metadata must be a mutable object to receive its run and result ids");
    }
    Object.assign(metadata, result);
    return evaluated;
  };

  /** Runs the agent's replay traced under the agent name; its trace id lands on the current result. */
  replay<T>(fn: () => T | Promise<T>, action: string = this.#replayAction): Promise<T> {
    const contexts = this.#storage.getStore();
    const target = contexts?.result ?? null;
    return this.#trace({ kind: "replay", name: this.agentName, action }, contexts, fn, (id) => {
      if (target && !this.#closed.has(target)) target.trace_id = id;
    });
  }

  /**
   * Runs one judge call traced under the judge name; its trace id is appended to the current
   * result's `judge_trace_ids`, or the run metadata's when no evaluation is open.
   */
  judge<T>(kind: JudgeKindName, fn: () => T | Promise<T>): Promise<T> {
    const contexts = this.#storage.getStore();
    const target = contexts?.result ?? contexts?.run ?? null;
    return this.#trace({ kind: "judge", name: this.judgeName, action: kind }, contexts, fn, (id) => {
      if (!target || this.#closed.has(target)) return;
      const ids = target.judge_trace_ids;
      if (Array.isArray(ids)) ids.push(id);
      else target.judge_trace_ids = [id];
    });
  }

  /** Wraps a Judge's completion function so every call is traced under the kind it serves. */
  traceJudge<A extends { kind: JudgeKindName }, R>(complete: (request: A) => R | Promise<R>): (request: A) => Promise<R> {
    return (request) => this.judge(request.kind, () => complete(request));
  }

  /** The open run context merged with the open result context, or null outside both. */
  current(): Metadata | null {
    const contexts = this.#storage.getStore();
    if (!contexts || (!contexts.run && !contexts.result)) return null;
    return { ...(contexts.run ?? {}), ...(contexts.result ?? {}) };
  }

  async #trace<T>(
    traced: TracerErrorContext,
    contexts: Contexts | undefined,
    fn: () => T | Promise<T>,
    record: (traceId: string) => void,
  ): Promise<T> {
    if (!this.#tracer) return fn();
    const onTrace = (trace: Parameters<typeof traceIdOf>[0]): void => {
      const id = traceIdOf(trace);
      if (id) record(id);
    };
    // The block runs once, however the tracer calls it.
    let block: Promise<T> | null = null;
    const run = (): Promise<T> => (block ??= (async () => fn())());
    try {
      return await this.#tracer(traced.name, { action: traced.action, attributes: this.#attributes(contexts), onTrace }, run);
    } catch (error) {
      // Telemetry failing must not change what is evaluated (a broken exporter made every pair a
      // run_error blamed on the agent, or dropped the judge's grade): the block's own outcome
      // stands when it ran, and it runs untraced when the tracer failed before calling it.
      // run(), not fn(): a tracer that scheduled the block and then threw must not run it twice.
      // The failure is told (onTracerError, or one warning), not swallowed unsaid.
      if (block === null) {
        this.#tracerFailed(error, traced);
        return run();
      }
      const ran: Promise<T> = block;
      // A tracer that rethrows the block's own rejection (a span marked failed, as the README's
      // adapter does) passed the block's outcome on: that is no failure of the tracer.
      const rejection = await ran.then(() => RESOLVED, (reason: unknown) => reason);
      if (rejection !== error) this.#tracerFailed(error, traced);
      return ran;
    }
  }

  /** Tells the host of a tracer failure; never throws, so the traced block's outcome stands. */
  #tracerFailed(error: unknown, traced: TracerErrorContext): void {
    const handler = this.#onTracerError;
    if (!handler) {
      if (this.#warned.tracer) return;
      this.#warned.tracer = true;
      warn(`Correlation: the tracer failed on ${traced.name} ${traced.action} (${thrownText(error)}); the traced block's outcome stands, untraced if the tracer failed before running it. Later tracer failures of this Correlation are not warned: pass onTracerError to be told of each.`, "VERDICT_TRACER_FAILED");
      return;
    }
    const handlerFailed = (handlerError: unknown): void => {
      if (this.#warned.handler) return;
      this.#warned.handler = true;
      warn(`Correlation: onTracerError failed (${thrownText(handlerError)}) while told of the tracer failing on ${traced.name} ${traced.action} (${thrownText(error)}); the traced block's outcome stands. Later failures of onTracerError are not warned.`, "VERDICT_ON_TRACER_ERROR_FAILED");
    };
    try {
      const told: unknown = handler(error, { ...traced });
      if (isThenable(told)) told.then(undefined, handlerFailed);
    } catch (handlerError) {
      handlerFailed(handlerError);
    }
  }

  /** Run and result context reduced to the trace keys, each prefixed `eval.`. */
  #attributes(contexts: Contexts | undefined): Record<string, string | number | boolean> {
    const merged: Metadata = { ...(contexts?.run ?? {}), ...(contexts?.result ?? {}) };
    const attributes: Record<string, string | number | boolean> = {};
    for (const key of this.traceKeys) {
      const value = merged[key];
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") attributes[`eval.${key}`] = value;
    }
    return attributes;
  }
}

const RESOLVED = Symbol("resolved");



/**
 * A process warning (Node's own channel for "something is wrong but the work goes on": printed on
 * stderr unless the host listens for "warning" or runs with --no-warnings). The domain opens no
 * stream itself; where there is no process (a bundle for another runtime), nothing is said.
 */
function warn(message: string, code: string): void {
  globalThis.process?.emitWarning?.(message, { type: "CorrelationWarning", code });
}

function compact(entries: Record<string, unknown>): Metadata {
  const out: Metadata = {};
  for (const [key, value] of Object.entries(entries)) if (value !== null && value !== undefined) out[key] = value;
  return out;
}
