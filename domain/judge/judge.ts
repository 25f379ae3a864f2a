// The Judge (reference-core §10): prompts, parsing and failure tolerance around a completion
// function the host injects. A judge that throws or answers unusably is skipped for that call
// and the evaluation degrades to rule scoring; every call returns the exchange (prompt, raw
// answer, parsed value or why it was unusable, usage) so a grade can be audited later.

import {
  RECOMMEND_INSTRUCTIONS,
  SCORE_INSTRUCTIONS,
  VERDICT_INSTRUCTIONS,
  criterionPrompt,
  recommendPrompt,
  taskPrompt,
  verdictCandidates,
  verdictPrompt,
  type CriterionLike,
  type DiagnosisLike,
  type ReplayLike,
  type ScenarioLike,
  type VerdictSummary,
} from "./prompts.js";
import { parseRecommendation, parseScore, parseVerdict, type JudgeRecommendation, type JudgeVerdict, type Parsed } from "./parse.js";
import { checkKnownOptions, isBlank } from "../support/index.js";
import { DEFINE_INSTRUCTIONS, definePrompt, parseKpis, type DefineInput, type DefinedKpi } from "./kpis.js";
import { judgeCallUsage, type JudgeCallUsage } from "./usage.js";

export type JudgeKind = "score" | "recommend" | "verdict" | "define";

export interface JudgeRequest {
  instructions: string;
  prompt: string;
  /** Which call this is; a completion function may ignore it. */
  kind: JudgeKind;
  /**
   * Aborted once the Judge stops waiting (its `timeoutMs` passed): a completion function that
   * passes it to its client stops the request, and its retries, instead of paying for an answer
   * nobody reads.
   */
  signal?: AbortSignal;
}

/** Text, or text with what the call used (tokens, cost, model) when the host knows it. */
export type JudgeReply = string | { text: string; usage?: Record<string, unknown> | null };
export type CompleteFn = (request: JudgeRequest) => Promise<JudgeReply> | JudgeReply;

/** The record of one judge call, stored with the grade it produced (or failed to). */
export interface JudgeExchange {
  kind: JudgeKind;
  label: string;
  prompt: string;
  instructions: string;
  /** The judge's answer as received; null when the call threw or returned no text. */
  raw: string | null;
  /** What was read from the answer: `{ score }`, the kept recommendation fields, or `{ winner, rationale }`. */
  parsed: Record<string, unknown> | null;
  unusable_reason: string | null;
  skipped: boolean;
  usage: JudgeCallUsage | null;
}

/** A judge method's answer: the value (null when unusable) and the exchange behind it. */
export interface JudgeOutcome<T> {
  value: T | null;
  /** Null only when the judge was not asked at all (a blank answer has nothing to grade). */
  exchange: JudgeExchange | null;
}

/**
 * How long a call may go unanswered when no `timeoutMs` is given: the budget the worker gives a
 * replay by default. A judge that never answers would otherwise hang the whole run, where the
 * guide promises an evaluation never fails because its judge did.
 */
export const DEFAULT_JUDGE_TIMEOUT_MS = 120_000;

export interface JudgeOptions {
  label: string;
  complete: CompleteFn;
  /**
   * A call still unanswered after this many milliseconds is skipped (the grade degrades to rules).
   * Omitted: DEFAULT_JUDGE_TIMEOUT_MS; null: no limit.
   */
  timeoutMs?: number | null;
}

const JUDGE_OPTIONS: Record<keyof JudgeOptions, true> = { label: true, complete: true, timeoutMs: true };
const JUDGE_OPTION_NAMES = Object.keys(JUDGE_OPTIONS);

export class Judge {
  readonly label: string;
  readonly #complete: CompleteFn;
  readonly #timeoutMs: number | null;

  constructor(options: JudgeOptions) {
    // `timeout` (for timeoutMs) was ignored: the judge ran on the default limit.
    checkKnownOptions("Judge", options ?? {}, JUDGE_OPTION_NAMES);
    if (typeof options?.label !== "string" || isBlank(options.label)) {
      throw new TypeError("Judge: label must be a non-blank string");
    }
    if (typeof options.complete !== "function") {
      throw new TypeError("Judge: complete must be a function ({ instructions, prompt }) => text");
    }
    const timeout = options.timeoutMs === undefined ? DEFAULT_JUDGE_TIMEOUT_MS : options.timeoutMs;
    if (timeout !== null && !(Number.isFinite(timeout) && timeout > 0)) {
      throw new TypeError(`Judge: timeoutMs must be a positive number of milliseconds, got ${String(timeout)}`);
    }
    this.label = options.label;
    this.#complete = options.complete;
    this.#timeoutMs = timeout;
  }

  /** How long a call may go unanswered (null: no limit): a worker's KPI claim lasts this plus a margin. */
  get timeoutMs(): number | null {
    return this.#timeoutMs;
  }

  /** Did the answer complete the scenario's task? 0..1, or null. Not asked for a blank answer. */
  scoreTask(input: { scenario: ScenarioLike; answer: string | null | undefined }): Promise<JudgeOutcome<number>> {
    if (isBlank(input.answer)) return Promise.resolve({ value: null, exchange: null });
    return this.#ask("score", SCORE_INSTRUCTIONS, taskPrompt(input.scenario, input.answer as string), parseScore, asScore);
  }

  /** How well the answer meets one `llm_judge` criterion, 0..1, or null. */
  scoreCriterion(input: { criterion: CriterionLike; prompt: string; answer: string | null | undefined }): Promise<JudgeOutcome<number>> {
    if (isBlank(input.answer)) return Promise.resolve({ value: null, exchange: null });
    const prompt = criterionPrompt(input.criterion, input.prompt, input.answer as string);
    return this.#ask("score", SCORE_INSTRUCTIONS, prompt, parseScore, asScore);
  }

  /** Refines a diagnosis: the fix, a tool to add, an instruction change (usable fields only). */
  recommend(input: {
    scenario: ScenarioLike;
    replay: ReplayLike;
    diagnosis: DiagnosisLike;
    availableTools?: Readonly<Record<string, string>>;
    instructions?: string | null;
  }): Promise<JudgeOutcome<JudgeRecommendation>> {
    return this.#ask("recommend", RECOMMEND_INSTRUCTIONS, recommendPrompt(input), parseRecommendation, (value) => ({ ...value }));
  }

  /** Picks the model to ship among the compared ones with a scored answer (verdictCandidates), with a rationale. */
  verdict(input: { summaries: Readonly<Record<string, VerdictSummary>>; instructions?: string | null }): Promise<JudgeOutcome<JudgeVerdict>> {
    const labels = Object.keys(input.summaries);
    const candidates = verdictCandidates(input.summaries);
    const prompt = verdictPrompt(input.summaries, input.instructions);
    return this.#ask("verdict", VERDICT_INSTRUCTIONS, prompt, (text) => parseVerdict(text, labels, candidates), (value) => ({ ...value }));
  }

  /**
   * Defines 3 to 6 KPIs for an evaluation whose judge defines its criteria (judge_defined), from
   * its instructions and at most 5 recent runs; unusable unless every rule of parseKpis holds.
   */
  define(input: DefineInput): Promise<JudgeOutcome<DefinedKpi[]>> {
    const existing = input.existingKeys ?? [];
    return this.#ask("define", DEFINE_INSTRUCTIONS, definePrompt(input), (text) => parseKpis(text, existing), (kpis) => ({ kpis: kpis.map((kpi) => ({ ...kpi })) }));
  }

  async #ask<T>(
    kind: JudgeKind,
    instructions: string,
    prompt: string,
    parse: (text: string) => Parsed<T>,
    record: (value: T) => Record<string, unknown>,
  ): Promise<JudgeOutcome<T>> {
    const exchange: JudgeExchange = {
      kind,
      label: this.label,
      prompt,
      instructions,
      raw: null,
      parsed: null,
      unusable_reason: null,
      skipped: false,
      usage: null,
    };
    let reply: JudgeReply;
    try {
      reply = await withTimeout((signal) => this.#complete(signal ? { instructions, prompt, kind, signal } : { instructions, prompt, kind }), this.#timeoutMs);
    } catch (error) {
      return skipped(exchange, `the judge call failed: ${errorText(error)}`);
    }
    const text = typeof reply === "string" ? reply : typeof reply?.text === "string" ? reply.text : null;
    if (typeof reply === "object" && reply !== null) exchange.usage = judgeCallUsage(reply.usage);
    if (text === null) return skipped(exchange, "the judge returned no text");
    exchange.raw = text;
    const parsed = parse(text);
    if (!parsed.ok) return skipped(exchange, parsed.reason);
    exchange.parsed = record(parsed.value);
    return { value: parsed.value, exchange };
  }
}

const asScore = (score: number): Record<string, unknown> => ({ score });

function skipped<T>(exchange: JudgeExchange, reason: string): JudgeOutcome<T> {
  exchange.skipped = true;
  exchange.unusable_reason = reason;
  return { value: null, exchange };
}

class JudgeTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "JudgeTimeout";
  }
}

async function withTimeout<T>(call: (signal: AbortSignal | null) => Promise<T> | T, ms: number | null): Promise<T> {
  if (ms === null) return call(null);
  const stop = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = new JudgeTimeout(ms);
      stop.abort(timeout);
      reject(timeout);
    }, ms);
  });
  try {
    return await Promise.race([(async () => call(stop.signal))(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
