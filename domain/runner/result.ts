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
  /** The group's display name, when the catalog gives one (the page's group rows read it). */
  group_name?: string;
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

// Once a run's results are dropped, a full collection frees V8's hidden class for results (class
// instances reach it by a weak transition) and deoptimizes every function checked against it, so
// the next run starts unoptimized. Holding the latest result keeps the class alive (see
// DiagnosisContext).
const latest: Result[] = [];

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
    latest[0] = this;
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
    return this.#document(true);
  }

  /**
   * `toJSON()`'s document with its nested values (scores, tool calls, diagnosis, metadata) shared
   * rather than copied: for a reader in this process that only reads it (the HTML page renders
   * thousands of results and copying each one's nested objects was most of the document's cost).
   * Not for handing out: a change to it would change this result.
   */
  toSharedJSON(): ResultJSON {
    return this.#document(false);
  }

  #document(copy: boolean): ResultJSON {
    // Written straight in the reference's key order, leaving out null and undefined fields: one
    // object per result (building every key and then copying the non-null ones made two).
    const replay = this.replay;
    const scenario = this.scenario;
    const spec = this.spec;
    const diagnosis = this.diagnosis;
    const json: Record<string, unknown> = {};
    if (scenario.key != null) json.scenario_key = scenario.key;
    if (scenario.group != null) json.group = scenario.group;
    if (scenario.groupName != null) json.group_name = scenario.groupName;
    if (scenario.prompt != null) json.prompt = scenario.prompt;
    if (spec.label != null) json.label = spec.label;
    if (spec.provider != null) json.provider = spec.provider;
    if (spec.model != null) json.model = spec.model;
    if (this.status != null) json.status = this.status;
    if (this.score != null) json.score = this.score;
    json.scores = copy ? { ...this.scores } : this.scores;
    if (replay.answer != null) json.answer = replay.answer;
    json.tool_calls = copy ? replay.toolCalls.map(copyCall) : replay.toolCalls;
    if (replay.durationMs != null) json.duration_ms = replay.durationMs;
    if (replay.inputTokens != null) json.input_tokens = replay.inputTokens;
    if (replay.outputTokens != null) json.output_tokens = replay.outputTokens;
    if (replay.cost != null) json.cost = replay.cost;
    if (replay.error != null) json.error = replay.error;
    if (diagnosis) {
      if (diagnosis.fault != null) json.fault = diagnosis.fault;
      if (diagnosis.recommendation != null) json.recommendation = diagnosis.recommendation;
      // Copied, not cloned: evidence may hold a tool call's arguments, whatever the host put there.
      json.diagnosis = copy ? { ...diagnosis, evidence: { ...diagnosis.evidence } } : diagnosis;
    }
    const judgeUsage = this.judgeUsage;
    if (judgeUsage != null) json.judge_usage = judgeUsage;
    json.metadata = copy ? { ...replay.metadata } : replay.metadata;
    return json as unknown as ResultJSON;
  }
}

const copyCall = (call: ToolCall): ToolCall => ({ ...call });
