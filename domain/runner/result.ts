// One scenario replayed under one model (reference-core §7): the replay, its scores, the mean
// score, the status and the diagnosis when it fell short. Serializes with the guide's snake_case
// keys in the reference's order, so a result written here and one written by the reference
// library are interchangeable documents.
import type { DiagnosisResult, JudgeRefinement, SuggestedTool } from "../diagnosis/index.js";
import type { JudgeExchange } from "../judge/index.js";
import type { CostSource, Replay, ToolCall } from "../replay/index.js";
import type { Scenario } from "../scenarios/scenario.js";
import type { ResultStatus, Scores } from "../scoring/gate.js";

/** The model a result ran under; a ModelSpec satisfies it. */
export interface ResultSpec {
  readonly label: string;
  readonly provider: string;
  readonly model: string;
}

export interface ResultInit {
  scenario: Scenario;
  spec: ResultSpec;
  replay: Replay;
  scores: Scores;
  score: number | null;
  status: ResultStatus;
  diagnosis?: DiagnosisResult | null;
  /** Every judge call made for this result (grades and the refinement), for the audit trail. */
  judgeExchanges?: readonly JudgeExchange[];
}

/** `Result#to_h`: these keys in this order, null fields dropped. */
export interface ResultJSON {
  scenario_key: string;
  group?: string;
  prompt: string;
  label: string;
  provider: string;
  model: string;
  status: ResultStatus;
  score?: number;
  scores: Scores;
  answer?: string;
  tool_calls: ToolCall[];
  duration_ms?: number;
  input_tokens?: number;
  output_tokens?: number;
  cost?: number;
  error?: string;
  fault?: string;
  recommendation?: string;
  diagnosis?: DiagnosisResult;
  judge_usage?: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export class Result {
  readonly scenario: Scenario;
  readonly spec: ResultSpec;
  readonly replay: Replay;
  readonly scores: Scores;
  readonly score: number | null;
  readonly status: ResultStatus;
  readonly diagnosis: DiagnosisResult | null;
  readonly judgeExchanges: readonly JudgeExchange[];

  constructor(init: ResultInit) {
    this.scenario = init.scenario;
    this.spec = init.spec;
    this.replay = init.replay;
    this.scores = init.scores;
    this.score = init.score;
    this.status = init.status;
    this.diagnosis = init.diagnosis ?? null;
    this.judgeExchanges = init.judgeExchanges ?? [];
  }

  get passed(): boolean {
    return this.status === "passed";
  }

  get failed(): boolean {
    return this.status === "failed";
  }

  get errored(): boolean {
    return this.status === "errored";
  }

  get label(): string {
    return this.spec.label;
  }

  get model(): string {
    return this.spec.model;
  }

  get provider(): string {
    return this.spec.provider;
  }

  get fault(): string | null {
    return this.diagnosis?.fault ?? null;
  }

  get summary(): string | null {
    return this.diagnosis?.summary ?? null;
  }

  get recommendation(): string | null {
    return this.diagnosis?.recommendation ?? null;
  }

  /** What the judge refined the diagnosis with, when it did. */
  get judgeRefinement(): JudgeRefinement | null {
    return this.diagnosis?.judge ?? null;
  }

  /** The tool a judge suggested adding, when it refined the diagnosis with one. */
  get suggestedTool(): SuggestedTool | null {
    return this.diagnosis?.judge?.suggested_tool ?? null;
  }

  /** `reported`, `estimated`, `no_usage` or `unpriced` (replay metadata `cost_source`, else inferred). */
  get costSource(): CostSource {
    return this.replay.costSource;
  }

  /** Any part of the cost was estimated from tokens × model rates: print it with `~`. */
  get estimatedCost(): boolean {
    return this.costSource === "estimated";
  }

  /** The rate an estimate used (`{ input, output, source }`, $ per million tokens), or null. */
  get costRate(): Record<string, unknown> | null {
    return this.replay.costRate;
  }

  /** What the judge spent grading this result, or null. */
  get judgeUsage(): Record<string, unknown> | null {
    return this.replay.judgeUsage;
  }

  toJSON(): ResultJSON {
    const replay = this.replay;
    const json = {
      scenario_key: this.scenario.key,
      group: this.scenario.group,
      prompt: this.scenario.prompt,
      label: this.label,
      provider: this.provider,
      model: this.model,
      status: this.status,
      score: this.score,
      scores: { ...this.scores },
      answer: replay.answer,
      tool_calls: replay.toolCalls.map((call) => ({ ...call })),
      duration_ms: replay.durationMs,
      input_tokens: replay.inputTokens,
      output_tokens: replay.outputTokens,
      cost: replay.cost,
      error: replay.error,
      fault: this.fault,
      recommendation: this.recommendation,
      // Copied, not cloned: evidence may hold a tool call's arguments, whatever the host put there.
      diagnosis: this.diagnosis ? { ...this.diagnosis, evidence: { ...this.diagnosis.evidence } } : null,
      judge_usage: this.judgeUsage,
      metadata: { ...replay.metadata },
    };
    return dropNulls(json) as unknown as ResultJSON;
  }
}

function dropNulls(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (record[key] !== null && record[key] !== undefined) out[key] = record[key];
  return out;
}
