// The report as the HTML page reads it: exactly what `Report.toJSON()` returns, with the
// guide's snake_case keys. Everything a result or a model carries is optional except what a
// row cannot be drawn without, because a report imported from elsewhere may omit nils.

type ResultStatus = "passed" | "failed" | "errored";

export interface ToolCallDoc {
  name: string;
  arguments?: unknown;
  /** Truthy when the call failed (Ruby truthiness: anything but null/false). */
  error?: unknown;
  detail?: string | null;
}

export interface JudgeUsageDoc {
  calls?: number | null;
  input_tokens?: number | null;
  output_tokens?: number | null;
  cost?: number | null;
  model?: string | null;
  by_kind?: Record<string, number>;
  source?: string | null;
  estimated?: boolean;
  run?: { calls?: number | null; cost?: number | null; by_kind?: Record<string, number> } | null;
}

interface ExpectDoc {
  tools?: string[] | null;
  contains?: string[] | null;
  not_contains?: string[] | null;
}

export interface ResultDoc {
  scenario_key: string;
  group?: string | null;
  group_name?: string | null;
  prompt?: string | null;
  label: string;
  provider?: string | null;
  model?: string | null;
  status: ResultStatus;
  score?: number | null;
  scores?: Record<string, number | null> | null;
  answer?: string | null;
  tool_calls?: ToolCallDoc[] | null;
  duration_ms?: number | null;
  input_tokens?: number | null;
  output_tokens?: number | null;
  cost?: number | null;
  error?: string | null;
  fault?: string | null;
  recommendation?: string | null;
  diagnosis?: { summary?: string | null; [key: string]: unknown } | null;
  judge_usage?: JudgeUsageDoc | null;
  metadata?: Record<string, unknown> | null;
  /** The scenario's expectations, when the report carries them (shown in the matrix and details). */
  expect?: ExpectDoc | null;
}

export interface ModelSummaryDoc {
  provider?: string | null;
  model?: string | null;
  scenarios: number;
  passed: number;
  errored?: number;
  pass_rate?: number;
  avg_score?: number | null;
  avg_task_completion?: number | null;
  avg_duration_ms?: number | null;
  p50_duration_ms?: number | null;
  p95_duration_ms?: number | null;
  input_tokens?: number | null;
  output_tokens?: number | null;
  cost?: number | null;
  cost_per_1000?: number | null;
  priced?: number;
  reported?: number;
  estimated?: number;
  judge_cost?: number | null;
  judge_calls?: number | null;
  faults?: Record<string, number>;
}

interface VerdictDoc {
  winner?: string | null;
  rationale?: string | null;
  judge?: string | null;
  [key: string]: unknown;
}

interface ComparisonModelDoc {
  scenarios: number;
  pass_rate: number | null;
  interval: [number, number] | null;
}

interface ComparisonPairDoc {
  models: [string, string];
  scenarios: number;
  difference: number | null;
  interval: [number, number] | null;
  decisive: boolean;
}

export interface ComparisonDoc {
  models: Record<string, ComparisonModelDoc>;
  pairs: ComparisonPairDoc[];
  conclusion: string;
  seed?: number;
  resamples?: number;
  confidence?: number;
}

interface ToolServerDoc {
  key: string;
  name: string;
  status: string;
}

export interface FixItemDoc {
  kind: "fault" | "instruction";
  fault: string;
  count: number;
  scenario_keys: string[];
  models: string[];
  recommendation?: string | null;
  quote?: string | null;
  tools_label?: string | null;
  tools?: { name: string; note?: string | null; server?: ToolServerDoc | null }[];
  server?: ToolServerDoc | null;
  note?: string | null;
  action?: { label: string; hint?: string | null; path?: string | null } | null;
}

interface ReleaseDoc {
  digest?: string | null;
  revision?: string | null;
  label?: string | null;
}

export interface ReportDocument {
  /** Per-model summary keyed by label, in model order (the guide's `summary_by_model`). */
  summary_by_model?: Record<string, ModelSummaryDoc>;
  /** The reference library's name for the same map; read when `summary_by_model` is absent. */
  models?: Record<string, ModelSummaryDoc>;
  criteria?: Record<string, unknown>;
  recommendations?: unknown[];
  fix_items?: FixItemDoc[];
  verdict?: VerdictDoc | null;
  judge?: string | null;
  judge_usage?: JudgeUsageDoc | null;
  comparison?: ComparisonDoc | null;
  release?: ReleaseDoc | null;
  /** Why the run stopped before it finished (a failed run). */
  failure?: string | null;
  /** Why a judge_defined run has no judge-defined KPIs (it was scored on its own criteria). */
  kpi_failure?: string | null;
  /** A run still going: results scored so far, of how many. */
  in_progress?: { scored: number; total: number } | null;
  metadata?: Record<string, unknown> | null;
  /** Pass threshold, 0..1 (0.7 when absent). */
  threshold?: number | null;
  agent_name?: string | null;
  results: ResultDoc[];
}

/** The page's themes; "system" (or none) follows the reader's system. */
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];

/** Markdown for the Copy as Markdown buttons; each string reads as its piece of `toMarkdown()`. */
export interface ReportMarkdown {
  report: string;
  verdict: string;
  fixItems: string;
  /** One per fix item, in `fix_items` order. */
  fixItem: string[];
  /** Keyed by scenario key. */
  scenarios?: Record<string, string>;
  /**
   * Where each scenario's piece sits in `report`, `[from, to)`, when the caller wrote the report
   * and knows (Report does): the page takes these instead of finding each piece in the text.
   */
  scenarioRanges?: ReadonlyMap<string, readonly [number, number]>;
}

export interface RenderOptions {
  theme?: Theme | null;
  markdown: ReportMarkdown;
}
