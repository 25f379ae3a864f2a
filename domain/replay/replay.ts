// What one run of the agent on one scenario produced (reference-core §6, guide "Replay"):
// the answer, the tool calls, timing, tokens, cost, the run's error, and metadata the host wants
// carried onto the result. Immutable; the derived lists are computed once because scoring and
// diagnosis read them for every result.
import { givenCostSource } from "../cost/resultCost.js";
import { isBlank, NON_BLANK_CHARACTER } from "../support/blank.js";
import { thrownText } from "../support/thrownText.js";
import { jsonProblem } from "./jsonValue.js";
import { describe, ReplayError } from "./replayError.js";
import { toToolCall, toolCallFailed, toolCallProblem, toolCallName, type ToolCall } from "./toolCall.js";

/** How a result's cost was arrived at (metadata `cost_source`). */
export type CostSource = "reported" | "estimated" | "no_usage" | "unpriced" | (string & {});

export interface ReplayInit {
  answer?: string | null;
  toolCalls?: ReadonlyArray<unknown> | null;
  durationMs?: number | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  error?: string | Error | null;
  cost?: number | null;
  metadata?: Record<string, unknown> | null;
}

/** Serialized form: the guide's snake_case keys, null fields dropped. */
export interface ReplayJSON {
  answer?: string;
  tool_calls: ToolCall[];
  duration_ms?: number;
  input_tokens?: number;
  output_tokens?: number;
  error?: string;
  cost?: number;
  metadata: Record<string, unknown>;
}

/** Every key `Replay.from` reads, in either spelling, and the field it fills. */
const FIELDS: Readonly<Record<string, keyof ReplayInit>> = {
  answer: "answer",
  tool_calls: "toolCalls",
  toolCalls: "toolCalls",
  duration_ms: "durationMs",
  durationMs: "durationMs",
  input_tokens: "inputTokens",
  inputTokens: "inputTokens",
  output_tokens: "outputTokens",
  outputTokens: "outputTokens",
  error: "error",
  cost: "cost",
  metadata: "metadata",
};

/** The keys a replay is read by, in either spelling (a runtime redacting an answer keeps them as they are). */
export const REPLAY_KEYS: readonly string[] = Object.keys(FIELDS);

/** Each field's key as a replay is recorded (the guide's snake_case). */
const RECORDED_KEYS: Readonly<Record<keyof ReplayInit, string>> = {
  answer: "answer", toolCalls: "tool_calls", durationMs: "duration_ms", inputTokens: "input_tokens",
  outputTokens: "output_tokens", error: "error", cost: "cost", metadata: "metadata",
};

/** The keys a replay is recorded by, in the reference's order (an error naming what a replay takes). */
export const RECORDED_REPLAY_KEYS: readonly string[] = Object.values(RECORDED_KEYS);

/** A replay object's fields by their ReplayInit names, and the key each was given as; an unknown key or a field given twice throws, naming it. */
function readKeys(value: Record<string, unknown>): { init: Record<string, unknown>; seen: Record<string, string> } {
  const init: Record<string, unknown> = {};
  const seen: Record<string, string> = {};
  for (const key of Object.keys(value)) {
    // Own keys only: `constructor` or `toString` found Object.prototype's and was dropped unrefused.
    const field = Object.hasOwn(FIELDS, key) ? FIELDS[key] : undefined;
    if (!field) throw new ReplayError(key, "unknown key");
    if (seen[field]) throw new ReplayError(key, `given twice (also as ${seen[field]})`);
    seen[field] = key;
    init[field] = value[key];
  }
  return { init, seen };
}

/**
 * A replay object sent to be recorded (an external run's host), with its keys as recorded: read
 * as `Replay.from` reads keys (camelCase or snake_case; an unknown key or one given twice throws
 * a ReplayError naming it), the values left for the record's schema to check. A schema that
 * dropped unknown keys scored `{ answr }` as an empty answer, and `toolCalls` as no call made.
 */
export function replayKeysAsRecorded(value: Record<string, unknown>): Record<string, unknown> {
  const { init } = readKeys(value);
  const recorded: Record<string, unknown> = {};
  for (const field of Object.keys(init) as (keyof ReplayInit)[]) recorded[RECORDED_KEYS[field]] = init[field];
  return recorded;
}

const NUMERIC_FIELDS: ReadonlyArray<keyof ReplayInit> = ["durationMs", "inputTokens", "outputTokens"];

// Holding the latest replay keeps V8's hidden class for replays alive between runs, so a full
// collection after a run's replays are dropped does not deoptimize the scoring path (see
// DiagnosisContext).
const latest: Replay[] = [];

export class Replay {
  readonly answer: string | null;
  readonly toolCalls: readonly ToolCall[];
  readonly durationMs: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly error: string | null;
  readonly cost: number | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  #toolNames: string[] | null = null;
  #failedToolCalls: ToolCall[] | null = null;
  #answerLower: string | null = null;

  constructor(init: ReplayInit = {}) {
    this.answer = init.answer ?? null;
    this.toolCalls = (init.toolCalls ?? []).map(toToolCall);
    this.durationMs = init.durationMs ?? null;
    this.inputTokens = init.inputTokens ?? null;
    this.outputTokens = init.outputTokens ?? null;
    this.error = init.error === null || init.error === undefined ? null : thrownText(init.error);
    this.cost = init.cost ?? null;
    // Not `{ ...metadata }`: V8 gives a spread copy a hidden class of its own that dies with the
    // last copy, so when one run's results were let go every optimized reader of a result's
    // metadata (the report's renderers) was thrown away ("weak objects") and the next run's first
    // pages rendered unoptimized. Copies made key by key share the ordinary classes. (A key
    // `__proto__` stays an own key, as with spread.)
    this.metadata = Object.fromEntries(Object.entries(init.metadata ?? {}));
    latest[0] = this;
  }

  /**
   * A Replay from what a host returned: a Replay as is, or an object with the Replay's keys in
   * camelCase or the guide's snake_case. An unknown key, or a value of the wrong type, throws a
   * ReplayError naming it (a typo must not silently score as an empty answer).
   */
  static from(value: unknown): Replay {
    return readReplay(value, true);
  }

  /**
   * A replay as it was recorded (a ReplayRecorded event, a stored report), read as `from` reads
   * one but without its tool-call checks, which came later: a run recorded before them still
   * rebuilds, whatever its calls' keys.
   */
  static recorded(value: unknown): Replay {
    return readReplay(value, false);
  }

  /** A replay for a run that raised, so it is scored and diagnosed like any other. */
  static failed(error: unknown, init: Omit<ReplayInit, "error"> = {}): Replay {
    // A blank thrown value (`throw ""`) still failed the replay: recorded as blank, it read as no error.
    const text = error instanceof Error ? error : thrownText(error);
    return new Replay({ ...init, error: typeof text === "string" && isBlank(text) ? `the replay failed without a message (it threw ${JSON.stringify(text)})` : text });
  }

  /** The run failed before answering (an empty or whitespace error is not an error). */
  get errored(): boolean {
    return !isBlank(this.error);
  }

  /**
   * The replay is a run_error (diagnosis' first fault): it failed (`errored`), or it answered
   * nothing but blank text, tool calls or not.
   */
  get runError(): boolean {
    return this.errored || !NON_BLANK_CHARACTER.test(this.answerText);
  }

  /** Names of the tools called, in call order, with repeats. */
  get toolNames(): readonly string[] {
    return (this.#toolNames ??= this.toolCalls.map(toolCallName));
  }

  /** The calls whose tool returned an error. */
  get failedToolCalls(): readonly ToolCall[] {
    return (this.#failedToolCalls ??= this.toolCalls.filter(toolCallFailed));
  }

  /** Input plus output tokens; a missing count counts 0. */
  get totalTokens(): number {
    return (this.inputTokens ?? 0) + (this.outputTokens ?? 0);
  }

  /** The answer as text (`""` when there is none). */
  get answerText(): string {
    return this.answer ?? "";
  }

  /** The answer lower-cased once, for the case-insensitive pattern checks scoring and diagnosis share. */
  get answerLower(): string {
    return (this.#answerLower ??= this.answerText.toLowerCase());
  }

  /** Metadata `cost_source` when given as text (givenCostSource); else `unpriced` without a cost, `reported` with one. */
  get costSource(): CostSource {
    return givenCostSource(this.metadata.cost_source) ?? (this.cost === null ? "unpriced" : "reported");
  }

  /** Metadata `cost_rate` (`{ input, output, source }` in $ per million tokens), or null. */
  get costRate(): Record<string, unknown> | null {
    return objectOrNull(this.metadata.cost_rate);
  }

  /** Metadata `judge_usage`: what the judge spent grading this one result, or null. */
  get judgeUsage(): Record<string, unknown> | null {
    return objectOrNull(this.metadata.judge_usage);
  }

  toJSON(): ReplayJSON {
    // Built in the reference's field order, nulls left out.
    const json = {} as ReplayJSON;
    if (this.answer !== null) json.answer = this.answer;
    json.tool_calls = this.toolCalls.map((call) => ({ ...call }));
    if (this.durationMs !== null) json.duration_ms = this.durationMs;
    if (this.inputTokens !== null) json.input_tokens = this.inputTokens;
    if (this.outputTokens !== null) json.output_tokens = this.outputTokens;
    if (this.error !== null) json.error = this.error;
    if (this.cost !== null) json.cost = this.cost;
    json.metadata = { ...this.metadata };
    return json;
  }
}

function readReplay(value: unknown, checkCalls: boolean): Replay {
  if (value instanceof Replay) return value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ReplayError("(root)", `must be a Replay or an object, got ${describe(value)}`);
  }
  const fast = readInit(value as Record<string, unknown>, checkCalls);
  // Slow path, for an unusual key or an invalid value: the error names the key as given.
  let replay: Replay;
  if (fast) replay = new Replay(fast);
  else {
    const { init, seen } = readKeys(value as Record<string, unknown>);
    replay = new Replay(validate(init, seen, checkCalls));
  }
  if (checkCalls) checkJson(value as Record<string, unknown>);
  return replay;
}

/**
 * Each field as given is JSON (jsonValue.ts): a cyclic tool call's `arguments` or a BigInt
 * `result` is refused naming its path (`replay.toolCalls[0].arguments.self: circular …`). Its
 * `error` as an Error is left out: the replay keeps its message alone, and an HTTP client's
 * error holds cyclic sockets.
 */
function checkJson(value: Record<string, unknown>): void {
  for (const [key, item] of Object.entries(value)) {
    if (key === "error" && item instanceof Error) continue;
    const problem = jsonProblem(item, key);
    if (problem) throw new ReplayError(problem[0], problem[1]);
  }
}

const ANSWER = 1, CALLS = 2, DURATION = 4, INPUT = 8, OUTPUT = 16, ERROR = 32, COST = 64, METADATA = 128;

const usableCount = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === "number" && Number.isFinite(value) && value >= 0);

/**
 * The common case of `Replay.from` without the two throwaway dictionaries the general path
 * builds (one per pair, thousands per run): every key known and given once, every value valid.
 * Null sends the caller down the general path, which accepts or rejects exactly as before.
 */
function readInit(value: Record<string, unknown>, checkCalls: boolean): ReplayInit | null {
  const init: ReplayInit = {
    answer: undefined, toolCalls: undefined, durationMs: undefined, inputTokens: undefined,
    outputTokens: undefined, error: undefined, cost: undefined, metadata: undefined,
  };
  let seen = 0;
  for (const key of Object.keys(value)) {
    let bit: number;
    const given = value[key];
    switch (key) {
      case "answer": bit = ANSWER; init.answer = given as string | null; break;
      case "tool_calls": case "toolCalls": bit = CALLS; init.toolCalls = given as unknown[] | null; break;
      case "duration_ms": case "durationMs": bit = DURATION; init.durationMs = given as number | null; break;
      case "input_tokens": case "inputTokens": bit = INPUT; init.inputTokens = given as number | null; break;
      case "output_tokens": case "outputTokens": bit = OUTPUT; init.outputTokens = given as number | null; break;
      case "error": bit = ERROR; init.error = given as string | null; break;
      case "cost": bit = COST; init.cost = given as number | null; break;
      case "metadata": bit = METADATA; init.metadata = given as Record<string, unknown> | null; break;
      default: return null;
    }
    if (seen & bit) return null;
    seen |= bit;
  }
  const { answer, toolCalls, cost, error, metadata } = init;
  if (answer !== undefined && answer !== null && typeof answer !== "string") return null;
  if (toolCalls !== undefined && toolCalls !== null && (!Array.isArray(toolCalls) || (checkCalls && toolCalls.some(toolCallProblem)))) return null;
  if (!usableCount(init.durationMs) || !usableCount(init.inputTokens) || !usableCount(init.outputTokens)) return null;
  if (cost !== undefined && cost !== null && (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0)) return null;
  if (error !== undefined && error !== null && typeof error !== "string" && !(error instanceof Error)) return null;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== "object" || Array.isArray(metadata))) return null;
  return init;
}

function validate(init: Record<string, unknown>, keys: Record<string, string>, checkCalls: boolean): ReplayInit {
  const answer = init.answer;
  if (answer !== undefined && answer !== null && typeof answer !== "string") {
    throw new ReplayError(keys.answer, `must be a string or null, got ${describe(answer)}`);
  }
  const calls = init.toolCalls;
  if (calls !== undefined && calls !== null && !Array.isArray(calls)) {
    throw new ReplayError(keys.toolCalls, `must be an array of tool calls, got ${describe(calls)}`);
  }
  if (checkCalls) calls?.forEach((call: unknown, index) => {
    const problem = toolCallProblem(call);
    if (problem) throw new ReplayError(`${keys.toolCalls}[${index}].${problem[0]}`, problem[1]);
  });
  for (const field of NUMERIC_FIELDS) {
    const value = init[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new ReplayError(keys[field], `must be a non-negative number or null, got ${describe(value)}`);
    }
  }
  const cost = init.cost;
  // A negative cost printed "$-0.5000" and lowered the run's total, as negative tokens would have.
  if (cost !== undefined && cost !== null && (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0)) {
    throw new ReplayError("cost", `must be a non-negative finite number (USD) or null, got ${describe(cost)}`);
  }
  const error = init.error;
  if (error !== undefined && error !== null && typeof error !== "string" && !(error instanceof Error)) {
    throw new ReplayError("error", `must be a string, an Error or null, got ${describe(error)}`);
  }
  const metadata = init.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== "object" || Array.isArray(metadata))) {
    throw new ReplayError("metadata", `must be an object, got ${describe(metadata)}`);
  }
  return init as ReplayInit;
}

function objectOrNull(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
