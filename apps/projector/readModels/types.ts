// What the read models answer: plain objects in camelCase, JSON columns as stored (snake_case
// keys, as the report JSON has them), timestamps as ISO strings (UTC, milliseconds).
import type { RunStatus } from "../progress/progress.js";
import type { Standing } from "./standing.js";

export type { Standing } from "./standing.js";

export type Json = any;
export type ResultStatus = "pending" | "passed" | "failed" | "errored";

export interface CatalogSummary {
  tenant: string; key: string; name: string; description: string | null; digest: string; source: Json; metadata: Json;
  scenarioCount: number; importedAt: string;
}
export interface Catalog extends CatalogSummary { canonicalYaml: string; products: Json }

export interface Evaluation {
  id: string; tenant: string; agent: string; name: string; judge: Json; criteria: Json; threshold: number; compareModels: string[];
  /** A missing expected judge grade fails its pair judge_unavailable (migration 017; false for one created before). */
  requireJudgeScores: boolean;
  catalog: Json; external: Json; archived: boolean; archivedAt: string | null; scenarioCount: number; runCount: number;
  latestRunId: string | null; latestRunNumber: number | null;
  /** The newest COMPLETED run (by number): what the standing is read from. */
  headlineRunId: string | null; headlineRunNumber: number | null;
  /** Read when asked, from the headline run's release and the agent's latest (standing.ts). */
  standing: Standing;
  createdAt: string; updatedAt: string;
  /** Its judge-defined KPIs (also in `criteria`) and config.kpi_provenance { judge, defined_at }; [] and null until defined. */
  kpis: Json; kpiProvenance: Json;
}

export interface EvaluationScenario {
  evaluationId: string; key: string; tenant: string; prompt: string; group: string | null; groupName: string | null; notes: string | null;
  expectations: { tools: string[]; contains: string[]; not_contains: string[] }; data: Json; position: number; enabled: boolean;
}

export interface Run {
  id: string; tenant: string; evaluationId: string; number: number; origin: "engine" | "external" | "imported"; status: RunStatus;
  external: boolean; selection: Json; models: { label: string; provider: string; model: string }[]; criteria: Json; judge: Json;
  judgeLabel: string | null; threshold: number | null; release: Json; metadata: Json; tools: Json; catalog: Json; importSource: Json;
  /** As RunStarted froze it (migration 017; false for a run started before); null for an imported run, whose report does not say. */
  requireJudgeScores: boolean | null;
  /**
   * The envelope's run_id an imported run was imported with (the host's name for it, which
   * GET /api/evaluation_reports/:run_id reads it back by): ReportImported's host_run_id, or the
   * run's own id for one imported before tenant keying (its id was the envelope's). Null for a run started here.
   */
  hostRunId: string | null;
  total: number; completed: number; passed: number; failed: number; errored: number;
  agentInputTokens: number; agentOutputTokens: number; agentCost: number | null;
  judgeCalls: number; judgeInputTokens: number; judgeOutputTokens: number; judgeCost: number | null;
  /** RunCompleted's summary (or the imported report without its results). */
  summary: Json; completionRequested: boolean; errorMessage: string | null; failurePairs: Json;
  scheduledAt: string; startedAt: string | null; completedAt: string | null; updatedAt: string;
  /** KpiAuthoringRecorded as recorded (a judge_defined run that started without KPIs); null otherwise. */
  kpiAuthoring: Json;
}

export interface Result {
  runId: string; n: number; tenant: string; scenarioKey: string; group: string | null; modelLabel: string; provider: string | null;
  model: string | null; position: number; status: ResultStatus; score: number | null; scores: Json; fault: string | null;
  recommendation: string | null; diagnosis: Json; answer: string | null; toolCalls: Json; error: string | null; durationMs: number | null;
  inputTokens: number | null; outputTokens: number | null; cost: number | null; costSource: string | null; replayMetadata: Json;
  /** The scenario exactly as this pair was evaluated on. */
  scenario: Json; judgeExchanges: Json; judgeCalls: number; judgeInputTokens: number; judgeOutputTokens: number;
  judgeCost: number | null; replayedAt: string | null; scoredAt: string | null;
}

/** The light part of a result: enough for a scenario x model matrix or a list, without answers. */
export type ResultCell = Pick<
  Result,
  "runId" | "n" | "scenarioKey" | "group" | "modelLabel" | "position" | "status" | "score" | "fault" | "durationMs" | "cost" | "costSource" | "scoredAt"
>;

/**
 * How many of a run's scored results share one way their cost was arrived at: whether they carry
 * a (finite) cost and their `cost_source` as stored, for the run's usage counts, with what those
 * results add up to: their costs (priced groups; null otherwise) and their recorded durations.
 */
export interface ReplayCostGroup {
  runId: string; priced: boolean; costSource: string | null; count: number;
  /** The group's costs summed (exactly, as numeric), null for a group without a finite cost. */
  cost: number | null;
  /** The group's finite duration_ms summed, null when none of its results recorded one. */
  durationMs: number | null;
  /** How many of the group's results recorded a finite duration_ms. */
  timed: number;
}

/**
 * One kind's judge calls (score, recommend, verdict, define, or a kind an imported report names):
 * tokens and cost are null when some of its calls were recorded without them split by kind (an
 * imported report tallies calls per kind only); cost is also null when none of its calls had one.
 */
export interface JudgeKindFigures { kind: string; calls: number; inputTokens: number | null; outputTokens: number | null; cost: number | null }

/**
 * The judge calls recorded on a run rather than on one of its results: a run started here, its
 * verdict's exchange; an imported run, its report's run-level judge usage (`run_judge_usage`,
 * else `judge_usage.run`), figures read as the run's judge totals read them.
 */
export interface RunJudgePart {
  calls: number; inputTokens: number; outputTokens: number; cost: number | null; model: string | null; byKind: JudgeKindFigures[];
  /** The verdict's exchange, metered by the platform's judge, is part of it. */
  metered: boolean;
  /** An imported report's run-level usage, as reported, is part of it. */
  reported: boolean;
}

/** A part of a run's usage figures, read only when asked (ReadModels.runUsageFigures). */
export type RunUsagePart = "replays" | "judgeKinds" | "judgeModels" | "judgeSources" | "judgeRun";

/** What a run's usage counts, read in one aggregate query for many runs (ReadModels.runUsageFigures). */
export interface RunUsageFigures {
  runId: string;
  /** Its scored results, grouped by (finite cost, stored cost source). */
  replays: ReplayCostGroup[];
  /** Its results' judge calls per kind. */
  judgeKinds: JudgeKindFigures[];
  /** The first model its results' judge usage names (not blank), with the result (n) naming it; none or one. */
  judgeModels: { model: string; n: number }[];
  /** Whether any of its results' judge usage was metered (the platform's judge) or reported (the replay's own); null when not asked or none. */
  judgeSources: { meter: boolean; reported: boolean } | null;
  judgeRun: RunJudgePart | null;
}

export interface FixItem { runId: string; ordinal: number; tenant: string; kind: string; fault: string; models: string[]; item: Json }

export interface ModelSummary {
  runId: string; label: string; tenant: string; position: number; provider: string | null; model: string | null;
  passRate: number | null; avgScore: number | null; summary: Json;
}

export interface RunComparison { runId: string; tenant: string; comparison: Json; seed: number | null; resamples: number | null; confidence: number | null; recordedAt: string }

export interface RunVerdict {
  runId: string; tenant: string; winner: string | null; rationale: string | null; judge: string | null; judgeLabel: string | null;
  ranking: Json; judgeExchange: Json; recordedAt: string;
}

export interface PageArgs {
  /** At most this many (default 20, capped at 100). */
  first?: number;
  /** An endCursor from a previous page. */
  after?: string | null;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

export interface ResultFilter {
  model?: string | null;
  status?: ResultStatus | null;
  fault?: string | null;
  scenarioKey?: string | null;
}

/** One version of an agent, as first recorded (agent_releases). */
export interface AgentRelease {
  version: number;
  /** `v<version>`, as a run pins it. */
  label: string;
  digest: string; revision: string | null;
  recordedAt: string;
}

/**
 * An agent of a tenant (a name its evaluations or its releases carry): its latest release, how
 * its evaluations stand, and the pass rate pooled over those that count (agents.ts).
 */
export interface Agent {
  tenant: string; name: string;
  latestRelease: AgentRelease | null;
  /** When the latest release became the latest (a return to an earlier version moves it). */
  latestSince: string | null;
  /** Its evaluations by standing. */
  standings: Record<Standing, number>;
  /** Evaluations whose standing is current or unrecorded: their headline runs are pooled. */
  evaluationsCounted: number;
  /** Evaluations whose standing is stale, archived or none. */
  evaluationsLeftOut: number;
  /** Passed results of the counted evaluations' headline runs. */
  pooledPassed: number;
  /** Scored results (passed, failed or errored) of the counted evaluations' headline runs. */
  pooledScored: number;
  /** pooledPassed / pooledScored as a percent, one decimal (half away from zero); null when nothing is scored. */
  pooledPassRate: number | null;
}

/** A tenant's use in one calendar month (usage_meters): scenario x model pairs started, reports imported. */
export interface UsageMeters {
  month: string;
  executions: number;
  reports: number;
}
