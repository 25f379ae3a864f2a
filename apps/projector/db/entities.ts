// MikroORM 6 entities of the read models, as EntitySchema (no decorators). Property names are the
// columns in camelCase (MikroORM's underscore naming maps them to the snake_case columns of
// migrations/*.sql). The projector writes with SQL; these serve the API and ad-hoc reads.
import { BigIntType, EntitySchema } from "@mikro-orm/core";

type Json = unknown;
const json = { type: "json", nullable: true } as const;
const jsonRequired = { type: "json" } as const;
const text = { type: "text", nullable: true } as const;
const int = { type: "integer" } as const;
const float = { type: "double", nullable: true } as const;
const big = { type: new BigIntType("number") } as const;
const sum = { type: "decimal", columnType: "numeric", nullable: true } as const;
const when = { type: "Date", columnType: "timestamptz", nullable: true } as const;

interface CatalogRow {
  tenant: string; key: string; name: string; description: string | null; digest: string; canonicalYaml: string;
  source: Json; metadata: Json; products: Json; scenarioCount: number; importedAt: Date;
}
const CatalogEntity = new EntitySchema<CatalogRow>({
  name: "Catalog", tableName: "catalogs",
  properties: {
    tenant: { type: "text", primary: true }, key: { type: "text", primary: true }, name: { type: "text" }, description: text,
    digest: { type: "text" }, canonicalYaml: { type: "text" }, source: jsonRequired, metadata: jsonRequired, products: jsonRequired,
    scenarioCount: int, importedAt: { ...when, nullable: false },
  },
});

export interface EvaluationRow {
  id: string; tenant: string; agent: string; name: string; judge: Json; criteria: Json; threshold: number; compareModels: Json;
  /** Migration 017. */
  requireJudgeScores: boolean;
  catalog: Json; external: Json; archived: boolean; archivedAt: Date | null; scenarioCount: number; runCount: number;
  latestRunId: string | null; latestRunNumber: number | null;
  /** The newest COMPLETED run (migration 010): what the evaluation's standing is read from. */
  headlineRunId: string | null; headlineRunNumber: number | null; createdAt: Date; updatedAt: Date;
  /** Its judge-defined KPIs and their provenance (migration 015). */
  kpis: Json; kpiProvenance: Json;
}
export const EvaluationEntity = new EntitySchema<EvaluationRow>({
  name: "Evaluation", tableName: "evaluations",
  properties: {
    id: { type: "text", primary: true }, tenant: { type: "text" }, agent: { type: "text" }, name: { type: "text" }, judge: jsonRequired,
    criteria: jsonRequired, threshold: { type: "double" }, requireJudgeScores: { type: "boolean" }, compareModels: jsonRequired, catalog: json, external: json,
    archived: { type: "boolean" }, archivedAt: when, scenarioCount: int, runCount: int, latestRunId: text,
    latestRunNumber: { ...int, nullable: true }, headlineRunId: text, headlineRunNumber: { ...int, nullable: true },
    createdAt: { ...when, nullable: false }, updatedAt: { ...when, nullable: false }, kpis: jsonRequired, kpiProvenance: json,
  },
});

interface EvaluationScenarioRow {
  evaluationId: string; key: string; tenant: string; prompt: string; group: string | null; groupName: string | null;
  notes: string | null; expectations: Json; data: Json; position: number; enabled: boolean;
}
const EvaluationScenarioEntity = new EntitySchema<EvaluationScenarioRow>({
  name: "EvaluationScenario", tableName: "evaluation_scenarios",
  properties: {
    evaluationId: { type: "text", primary: true }, key: { type: "text", primary: true }, tenant: { type: "text" },
    prompt: { type: "text" }, group: { ...text, fieldName: "group" }, groupName: text, notes: text, expectations: jsonRequired,
    data: jsonRequired, position: int, enabled: { type: "boolean" },
  },
});

export interface RunRow {
  id: string; tenant: string; evaluationId: string; number: number; origin: string; status: string; external: boolean;
  selection: Json; models: Json; criteria: Json; judge: Json; judgeLabel: string | null; threshold: number | null;
  /** Migration 017: as RunStarted froze it; null for an imported run. */
  requireJudgeScores: boolean | null;
  release: Json; metadata: Json; tools: Json; catalog: Json; importSource: Json;
  /** An imported run's envelope run_id (the host's); null for a run started here. */
  hostRunId: string | null;
  total: number; completed: number; passed: number; failed: number; errored: number;
  agentInputTokens: number; agentOutputTokens: number; agentCost: number | null;
  judgeCalls: number; judgeInputTokens: number; judgeOutputTokens: number; judgeCost: number | null;
  /** The exact sums behind agentCost and judgeCost (numeric, as text), kept by the projector. */
  agentCostSum: string | null; judgeCostSum: string | null;
  summary: Json; completionRequested: boolean; errorMessage: string | null; failurePairs: Json;
  scheduledAt: Date; startedAt: Date | null; completedAt: Date | null; updatedAt: Date;
  /** How a judge_defined run settled its KPIs (migration 015). */
  kpiAuthoring: Json;
}
export const RunEntity = new EntitySchema<RunRow>({
  name: "Run", tableName: "runs",
  properties: {
    id: { type: "text", primary: true }, tenant: { type: "text" }, evaluationId: { type: "text" }, number: int,
    origin: { type: "text" }, status: { type: "text" }, external: { type: "boolean" }, selection: json, models: jsonRequired,
    criteria: jsonRequired, judge: json, judgeLabel: text, threshold: float, requireJudgeScores: { type: "boolean", nullable: true }, release: json, metadata: jsonRequired,
    tools: jsonRequired, catalog: json, importSource: json, hostRunId: text, total: int, completed: int, passed: int, failed: int, errored: int,
    agentInputTokens: big, agentOutputTokens: big, agentCost: float, judgeCalls: int, judgeInputTokens: big,
    judgeOutputTokens: big, judgeCost: float, agentCostSum: sum, judgeCostSum: sum, summary: json, completionRequested: { type: "boolean" },
    errorMessage: text, failurePairs: json, scheduledAt: { ...when, nullable: false }, startedAt: when, completedAt: when,
    updatedAt: { ...when, nullable: false }, kpiAuthoring: json,
  },
});

export interface ResultRow {
  runId: string; n: number; tenant: string; scenarioKey: string; group: string | null; modelLabel: string;
  provider: string | null; model: string | null; position: number; status: string; score: number | null; scores: Json;
  fault: string | null; recommendation: string | null; diagnosis: Json; answer: string | null; toolCalls: Json;
  error: string | null; durationMs: number | null; inputTokens: number | null; outputTokens: number | null;
  cost: number | null; costSource: string | null; replayMetadata: Json; scenario: Json; judgeExchanges: Json;
  judgeCalls: number; judgeInputTokens: number; judgeOutputTokens: number; judgeCost: number | null;
  /** The judge's calls by kind ({kind: {calls, input_tokens, output_tokens, cost}}) and the model they name (migration 011). */
  judgeByKind: Json; judgeModel: string | null;
  /** meter, reported or null: where the judge usage comes from (migration 013). */
  judgeSource: string | null;
  replayedAt: Date | null; scoredAt: Date | null;
}
export const ResultEntity = new EntitySchema<ResultRow>({
  name: "Result", tableName: "results",
  properties: {
    runId: { type: "text", primary: true }, n: { ...int, primary: true }, tenant: { type: "text" }, scenarioKey: { type: "text" },
    group: { ...text, fieldName: "group" }, modelLabel: { type: "text" }, provider: text, model: text, position: int,
    status: { type: "text" }, score: float, scores: json, fault: text, recommendation: text, diagnosis: json, answer: text,
    toolCalls: json, error: text, durationMs: float, inputTokens: { ...big, nullable: true }, outputTokens: { ...big, nullable: true },
    cost: float, costSource: text, replayMetadata: json, scenario: jsonRequired, judgeExchanges: json, judgeCalls: int,
    judgeInputTokens: big, judgeOutputTokens: big, judgeCost: float, judgeByKind: json, judgeModel: text, judgeSource: text, replayedAt: when, scoredAt: when,
  },
});

interface FixItemRow { runId: string; ordinal: number; tenant: string; kind: string; fault: string; models: Json; item: Json }
const FixItemEntity = new EntitySchema<FixItemRow>({
  name: "FixItem", tableName: "fix_items",
  properties: {
    runId: { type: "text", primary: true }, ordinal: { ...int, primary: true }, tenant: { type: "text" }, kind: { type: "text" },
    fault: { type: "text" }, models: jsonRequired, item: jsonRequired,
  },
});

interface ModelSummaryRow {
  runId: string; label: string; tenant: string; position: number; provider: string | null; model: string | null;
  passRate: number | null; avgScore: number | null; summary: Json;
}
const ModelSummaryEntity = new EntitySchema<ModelSummaryRow>({
  name: "ModelSummary", tableName: "model_summaries",
  properties: {
    runId: { type: "text", primary: true }, label: { type: "text", primary: true }, tenant: { type: "text" }, position: int,
    provider: text, model: text, passRate: float, avgScore: float, summary: jsonRequired,
  },
});

interface ComparisonRow { runId: string; tenant: string; comparison: Json; seed: number | null; resamples: number | null; confidence: number | null; recordedAt: Date }
const ComparisonEntity = new EntitySchema<ComparisonRow>({
  name: "Comparison", tableName: "comparisons",
  properties: {
    runId: { type: "text", primary: true }, tenant: { type: "text" }, comparison: jsonRequired, seed: { ...big, nullable: true },
    resamples: { ...int, nullable: true }, confidence: float, recordedAt: { ...when, nullable: false },
  },
});

interface VerdictRow {
  runId: string; tenant: string; winner: string | null; rationale: string | null; judge: string | null; judgeLabel: string | null;
  ranking: Json; judgeExchange: Json; recordedAt: Date;
}
const VerdictEntity = new EntitySchema<VerdictRow>({
  name: "Verdict", tableName: "verdicts",
  properties: {
    runId: { type: "text", primary: true }, tenant: { type: "text" }, winner: text, rationale: text, judge: text, judgeLabel: text,
    ranking: jsonRequired, judgeExchange: json, recordedAt: { ...when, nullable: false },
  },
});

interface CheckpointRow { name: string; commitPosition: number; preparePosition: number; logFirstEvent: string | null; projectionVersion: number | null }
const CheckpointEntity = new EntitySchema<CheckpointRow>({
  name: "ProjectorCheckpoint", tableName: "projector_checkpoints",
  properties: { name: { type: "text", primary: true }, commitPosition: big, preparePosition: big, logFirstEvent: { type: "text", nullable: true },
    projectionVersion: { type: "integer", nullable: true } },
});

/** An event the read database refused, passed over (projection/rejections.ts). */
interface RejectionRow {
  name: string; commitPosition: number; preparePosition: number; streamId: string; streamVersion: number; type: string; sqlState: string; error: string;
}
const RejectionEntity = new EntitySchema<RejectionRow>({
  name: "ProjectorRejection", tableName: "projector_rejections",
  properties: {
    name: { type: "text", primary: true }, commitPosition: { ...big, primary: true }, preparePosition: { ...big, primary: true },
    streamId: { type: "text" }, streamVersion: big, type: { type: "text" }, sqlState: { type: "text" }, error: { type: "text" },
  },
});

/** How many times the read models were rebuilt (migration 009): one row, `id` always true. */
interface RebuildsRow { id: boolean; generation: number }
const RebuildsEntity = new EntitySchema<RebuildsRow>({
  name: "ProjectorRebuilds", tableName: "projector_rebuilds",
  properties: { id: { type: "boolean", primary: true }, generation: big },
});

/** An agent's latest release (migration 010). */
interface AgentRow { tenant: string; name: string; latestVersion: number; latestDigest: string; latestAt: Date }
const AgentEntity = new EntitySchema<AgentRow>({
  name: "Agent", tableName: "agents",
  properties: {
    tenant: { type: "text", primary: true }, name: { type: "text", primary: true }, latestVersion: int, latestDigest: { type: "text" },
    latestAt: { ...when, nullable: false },
  },
});

/** One version of an agent, as first recorded (migration 010; its manifest column dropped by 012). */
interface AgentReleaseRow { tenant: string; agent: string; version: number; digest: string; revision: string | null; recordedAt: Date }
const AgentReleaseEntity = new EntitySchema<AgentReleaseRow>({
  name: "AgentRelease", tableName: "agent_releases",
  properties: {
    tenant: { type: "text", primary: true }, agent: { type: "text", primary: true }, version: { ...int, primary: true }, digest: { type: "text" },
    revision: text, recordedAt: { ...when, nullable: false },
  },
});

/** A tenant's use of one kind in one calendar month (migration 014). */
interface UsageMeterRow { tenant: string; month: string; kind: string; used: number }
const UsageMeterEntity = new EntitySchema<UsageMeterRow>({
  name: "UsageMeter", tableName: "usage_meters",
  properties: {
    tenant: { type: "text", primary: true }, month: { type: "text", primary: true }, kind: { type: "text", primary: true }, used: { type: "bigint" },
  },
});

export const readModelEntities = [
  CatalogEntity, EvaluationEntity, EvaluationScenarioEntity, RunEntity, ResultEntity, FixItemEntity, ModelSummaryEntity,
  ComparisonEntity, VerdictEntity, CheckpointEntity, RejectionEntity, RebuildsEntity, AgentEntity, AgentReleaseEntity,
  UsageMeterEntity,
];
