// What the Markdown writers read from a report. Report implements it; keeping it an interface
// lets each section be written (and tested) from plain values.
import type { ComparisonJSON } from "../stats/index.js";
import type {
  FixItem, InProgress, ModelSummary, Release, ReportModel, ReportResult, RunCosts, ScenarioCost, Verdict,
} from "./reportTypes.js";

export interface MarkdownSource {
  readonly results: readonly ReportResult[];
  readonly models: readonly ReportModel[];
  readonly summaryByModel: Record<string, ModelSummary>;
  readonly verdict: Verdict | null;
  readonly comparisonJSON: ComparisonJSON | null;
  readonly comparisonMethod: string | null;
  readonly scenarioCosts: Record<string, ScenarioCost>;
  readonly runCosts: RunCosts;
  readonly fixItems: readonly FixItem[];
  readonly judgeName: string | null;
  readonly judgeUsage: { estimated?: boolean } | null;
  readonly release: Release | null;
  /** The run's metadata: its scalar values head the report as the page's chips do. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Why the run stopped before it finished; null for a finished one. */
  readonly failure: string | null;
  /** Why a judge_defined run has no judge-defined KPIs; null when it has them or needs none. */
  readonly kpiFailure: string | null;
  /** A run still going: results scored so far, of how many; null once it has ended. */
  readonly inProgress: InProgress | null;
  readonly threshold: number;
  /** Results grouped by scenario key, in run order. */
  readonly resultsByScenario: ReadonlyMap<string, readonly ReportResult[]>;
}
