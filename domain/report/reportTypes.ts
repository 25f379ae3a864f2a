// The shapes the report reads and writes. `ReportResult` is what a report needs from a Result
// (domain/runner/result.ts satisfies it); the rest are the JSON pieces with the guide's
// snake_case keys, so a report document reads the same whichever library wrote it.

export type ResultStatus = "passed" | "failed" | "errored";

export interface ReportToolCall {
  /** A replay stores what the host gave; read it with `toolCallName`. */
  name?: unknown;
  arguments?: unknown;
  error?: unknown;
  detail?: unknown;
  duration_ms?: unknown;
  [key: string]: unknown;
}

export interface ReportDiagnosis {
  fault: string;
  summary?: string | null;
  recommendation?: string | null;
  evidence?: Record<string, unknown>;
  judge?: { recommendation?: string; suggested_tool?: { name: string; description: string }; instruction_change?: string } | null;
}

export interface ReportModel {
  label: string;
  provider: string;
  model: string;
}

export interface ToolServer {
  key: string;
  name: string;
  status: string;
}

export interface ModelSummary {
  provider: string;
  model: string;
  scenarios: number;
  passed: number;
  errored: number;
  pass_rate: number;
  avg_score: number | null;
  avg_task_completion: number | null;
  avg_duration_ms: number | null;
  p50_duration_ms: number | null;
  p95_duration_ms: number | null;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  cost_per_1000: number | null;
  priced: number;
  reported: number;
  estimated: number;
  judge_cost: number | null;
  judge_calls: number;
  faults: Record<string, number>;
}

export interface CriterionStats {
  score?: number;
  min?: number;
  max?: number;
  passed?: number;
  total?: number;
  skipped?: true;
  reason?: string;
}

export interface Recommendation {
  fault: string;
  count: number;
  scenario_keys: string[];
  models: string[];
  recommendation: string | null;
  suggested_tools: { name: string; description: string }[];
}

export interface FixTool {
  name: string;
  note: string | null;
  server: ToolServer | null;
}

export interface FixAction {
  label: string;
  hint: string;
  path: string | null;
}

export interface FixItem {
  kind: "fault" | "instruction";
  fault: string;
  count: number;
  scenario_keys: string[];
  models: string[];
  recommendation: string | null;
  quote: string | null;
  tools_label: string | null;
  tools: FixTool[];
  server: ToolServer | null;
  note: string | null;
  action: FixAction | null;
}

export interface Verdict {
  winner: string | null;
  rationale: string | null;
  judge: string;
  [key: string]: unknown;
}

/** A run still going: the results scored so far out of all it will have (`in_progress`). */
export interface InProgress {
  scored: number;
  total: number;
}

export interface Release {
  digest?: string;
  revision?: string;
  label?: string;
}

export interface ReportLinks {
  mcp?: string;
  tools?: string;
  instructions?: string;
}

export type ToolResolver = (name: string) => Partial<ToolServer> | null | undefined;

/** What the report reads from a Result (domain/runner/result.ts). */
export interface ReportResult {
  readonly scenario: {
    readonly key: string;
    readonly prompt: string;
    readonly group?: string | null;
    readonly expectedTools: readonly string[];
    readonly expectedPatterns: readonly string[];
    readonly forbiddenPatterns: readonly string[];
  };
  readonly label: string;
  readonly provider: string;
  readonly model: string;
  readonly status: ResultStatus;
  readonly score: number | null;
  readonly scores: Readonly<Record<string, number | null>>;
  readonly replay: {
    readonly answer: string | null;
    readonly toolCalls: readonly ReportToolCall[];
    readonly durationMs: number | null;
    readonly inputTokens: number | null;
    readonly outputTokens: number | null;
    readonly error: string | null;
    readonly cost: number | null;
    readonly metadata: Record<string, unknown>;
  };
  readonly diagnosis: ReportDiagnosis | null;
  readonly fault: string | null;
  readonly summary: string | null;
  readonly recommendation: string | null;
  toJSON(): object;
}

// Cost views are domain/cost's; their types are read off its functions.
import type { runCosts, scenarioCosts } from "../cost/index.js";
export type ScenarioCost = ReturnType<typeof scenarioCosts>[string];
export type RunCosts = ReturnType<typeof runCosts>;
