import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { connectionOf, type ConnectionOf } from "./connection.js";
import { CostBasis, FixItemKind, ResultStatus, RunOrigin, RunStatus } from "./enums.js";
import { RunReleaseNode } from "./agent.js";
import type { RunUsageFigures, RunUsagePart } from "@verdict/projector";

// simpleResolvers: these are plain objects, so graphql-js's default resolver reads their fields;
// type-graphql's per-field wrapper (middlewares, none here) cost ~5% of a 3,000-result query.

@ObjectType("Run", { simpleResolvers: true, description: "A run of an evaluation: its frozen selection, its results and what was decided from them." })
export class RunNode {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  evaluationId!: string;

  @Field(() => Int, { description: "Position in the evaluation's history, oldest = 1." })
  number!: number;

  // The read models' lowercase value (the enum's values), served by its UPPER_CASE name.
  @Field(() => RunOrigin)
  origin!: `${RunOrigin}`;

  @Field(() => Boolean)
  external!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      "The envelope's run_id an imported run was imported with (the host's name for the run, which GET /api/evaluation_reports/:run_id reads it back by " +
      "and its report.json gives back); for a run imported before tenant keying, its id, which was that run_id. Null for runs started here.",
  })
  hostRunId!: string | null;

  @Field(() => RunReleaseNode, {
    nullable: true,
    description: "The agent's release the run scored: the one startRun named, else the agent's latest recorded release when it started (label v<N>); an imported run's report.release. Null: none pinned.",
  })
  release!: RunReleaseNode | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "What was asked (keys, group) and what it resolved to." })
  selection!: unknown;

  @Field(() => String, { nullable: true })
  judgeLabel!: string | null;

  @Field(() => String, { nullable: true })
  errorMessage!: string | null;

  @Field(() => GraphQLJSON, { nullable: true })
  failurePairs!: unknown;

  @Field(() => String)
  scheduledAt!: string;

  @Field(() => String, { nullable: true })
  startedAt!: string | null;

  @Field(() => String, { nullable: true })
  completedAt!: string | null;
}

@ObjectType({ simpleResolvers: true, description: "The last pair scored." })
export class LatestResult {
  @Field(() => String)
  scenarioKey!: string;

  @Field(() => String)
  modelLabel!: string;

  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => Float, { nullable: true })
  score!: number | null;

  @Field(() => String, { nullable: true })
  fault!: string | null;
}

@ObjectType("RunProgress", { simpleResolvers: true, description: "How far a run is: pairs scored of the selection's total." })
export class RunProgressNode {
  @Field(() => ID)
  runId!: string;

  @Field(() => RunStatus)
  status!: RunStatus;

  @Field(() => Int)
  total!: number;

  @Field(() => Int)
  completed!: number;

  @Field(() => Int)
  passed!: number;

  @Field(() => Int)
  failed!: number;

  @Field(() => Int)
  errored!: number;

  @Field(() => LatestResult, { nullable: true })
  latestResult!: LatestResult | null;
}

@ObjectType("ModelSummary", { simpleResolvers: true, description: "One model's roll-up in a run." })
export class ModelSummaryNode {
  @Field(() => Float, { nullable: true, description: "Percent, one decimal." })
  passRate!: number | null;

  @Field(() => Float, { nullable: true })
  avgScore!: number | null;

  @Field(() => GraphQLJSON, { description: "summary_by_model entry (snake_case keys, as the report has them)." })
  summary!: unknown;
}

@ObjectType({ simpleResolvers: true })
export class RunModel {
  @Field(() => String)
  label!: string;

  @Field(() => String)
  provider!: string;

  @Field(() => String)
  model!: string;

  @Field(() => ModelSummaryNode, { nullable: true })
  summary!: ModelSummaryNode | null;
}

@ObjectType("Result", { simpleResolvers: true, description: "One scenario x model pair of a run." })
export class ResultNode {
  @Field(() => Int)
  n!: number;

  @Field(() => String)
  scenarioKey!: string;

  @Field(() => String, { nullable: true })
  group!: string | null;

  @Field(() => String)
  modelLabel!: string;

  @Field(() => String, { nullable: true })
  provider!: string | null;

  @Field(() => String, { nullable: true })
  model!: string | null;

  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => Float, { nullable: true })
  score!: number | null;

  @Field(() => GraphQLJSON, { nullable: true })
  scores!: unknown;

  @Field(() => String, { nullable: true })
  fault!: string | null;

  @Field(() => String, { nullable: true })
  recommendation!: string | null;

  @Field(() => GraphQLJSON, { nullable: true })
  diagnosis!: unknown;

  @Field(() => String, { nullable: true })
  answer!: string | null;

  @Field(() => GraphQLJSON, { nullable: true })
  toolCalls!: unknown;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field(() => Float, { nullable: true })
  durationMs!: number | null;

  @Field(() => Float, { nullable: true })
  inputTokens!: number | null;

  @Field(() => Float, { nullable: true })
  outputTokens!: number | null;

  @Field(() => Float, { nullable: true })
  cost!: number | null;

  @Field(() => String, { nullable: true })
  costSource!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "The scenario exactly as this pair was evaluated on." })
  scenario!: unknown;

  @Field(() => GraphQLJSON, { nullable: true })
  judgeExchanges!: unknown;
}

@ObjectType({ simpleResolvers: true })
class MatrixCell {
  @Field(() => String)
  modelLabel!: string;

  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => Float, { nullable: true })
  score!: number | null;

  @Field(() => String, { nullable: true })
  fault!: string | null;
}

@ObjectType({ simpleResolvers: true, description: "A scenario's row of the scenario x model matrix, in run order." })
export class MatrixRow {
  @Field(() => String)
  scenarioKey!: string;

  @Field(() => String, { nullable: true })
  group!: string | null;

  @Field(() => [MatrixCell])
  cells!: MatrixCell[];
}

@ObjectType("FixItem", { simpleResolvers: true })
export class FixItemNode {
  @Field(() => FixItemKind)
  kind!: FixItemKind;

  @Field(() => String)
  fault!: string;

  @Field(() => [String])
  models!: string[];

  @Field(() => GraphQLJSON, { description: "The report's fix item (snake_case keys)." })
  item!: unknown;
}

@ObjectType("Verdict", { simpleResolvers: true })
export class VerdictNode {
  @Field(() => String, { nullable: true })
  winner!: string | null;

  @Field(() => String, { nullable: true })
  rationale!: string | null;

  @Field(() => String, { nullable: true, description: "The judge's label, or \"pass rate\"." })
  judge!: string | null;

  @Field(() => String, { nullable: true })
  judgeLabel!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "The ranking inputs the verdict saw." })
  ranking!: unknown;
}

/** The agent side's counts of how its cost was arrived at (domain/cost's runCosts and modelCosts over the replayed results). */
export interface AgentCostCounts {
  priced: number;
  unpriced: number;
  reported: number;
  estimated: number;
  costBasis: CostBasis | null;
}

@ObjectType({ simpleResolvers: true, description: "One kind of judge call in a run (score, recommend, verdict, define, or a kind an imported report names)." })
export class JudgeKindUsage {
  @Field(() => String, { description: "score (grading an answer), recommend (refining a fix), verdict (picking the model to ship), define (authoring criteria), or the kind an imported report names." })
  kind!: string;

  @Field(() => Int)
  calls!: number;

  @Field(() => Float, { nullable: true, description: "The kind's input tokens; null when some of its calls were recorded without tokens by kind (an imported report's by_kind counts calls only)." })
  inputTokens!: number | null;

  @Field(() => Float, { nullable: true, description: "The kind's output tokens; null as inputTokens is." })
  outputTokens!: number | null;

  @Field(() => Float, { nullable: true, description: "The kind's cost (6 decimals); null when none of its calls had a cost, or when some were recorded without a cost by kind (an imported report)." })
  cost!: number | null;
}

@ObjectType({ simpleResolvers: true, description: "The judge calls no result owns: recorded on the run itself (reference-platform #23's judge.run)." })
export class JudgeRunUsage {
  @Field(() => Int)
  calls!: number;

  @Field(() => Float, { nullable: true, description: "Their cost (6 decimals), null when none had one." })
  cost!: number | null;

  @Field(() => [JudgeKindUsage], { description: "Their calls by kind (see UsagePart.byKind); an imported report's run-level usage that names no kinds gives none." })
  byKind!: JudgeKindUsage[];
}

/** The agent side's figures from the run's usage aggregate (agentUsageFigures). */
export interface AgentUsageFigures extends AgentCostCounts {
  replays: number;
  perInteraction: number | null;
  modelTimeMs: number | null;
}


@ObjectType({ simpleResolvers: true })
export class UsagePart {
  @Field(() => Float)
  inputTokens!: number;

  @Field(() => Float)
  outputTokens!: number;

  @Field(() => Float, {
    nullable: true,
    description: "The priced replays' (or judge calls') cost summed, null when none was priced. On the agent side it includes replays not yet scored, which the report and the counts (priced, unpriced, ...) leave out until they are scored (the judge's calls are recorded with the score). On the agent side, costBasis says whether it holds estimates and unpriced whether it is a lower bound.",
  })
  cost!: number | null;

  @Field(() => Int, { nullable: true, description: "Judge calls (judge side only): every result's and the run's own (judge.run)." })
  calls!: number | null;

  /** Which side this is: each side's aggregate fields answer null on the other. */
  side!: "agent" | "judge";

  /**
   * The run's usage figures for `parts` (ReadModels.runUsageFigures), read when a field needing
   * them is asked for: with the request's other runs, one statement per side.
   */
  figures!: (parts: readonly RunUsagePart[]) => Promise<RunUsageFigures>;
}

@ObjectType({ simpleResolvers: true, description: "Spend kept apart: the agent's replays and the judge's calls." })
export class RunUsage {
  @Field(() => UsagePart)
  agent!: UsagePart;

  @Field(() => UsagePart)
  judge!: UsagePart;

  @Field(() => Float, { nullable: true, description: "agent + judge, when either is priced." })
  totalCost!: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "The run's wall time in milliseconds (reference-platform #23's runtime_ms): completedAt - startedAt once it has ended (COMPLETED, or FAILED: until it failed). Null while it runs (no time so far is given), and for an imported run, whose report does not say how long it ran (it is started and completed at its import).",
  })
  runtimeMs!: number | null;
}

export const RunConnection = connectionOf(RunNode, "Run");
export type RunConnection = ConnectionOf<RunNode>;

export const ResultConnection = connectionOf(ResultNode, "Result");
export type ResultConnection = ConnectionOf<ResultNode>;

export const MatrixRowConnection = connectionOf(MatrixRow, "MatrixRow");
export type MatrixRowConnection = ConnectionOf<MatrixRow>;

export const FixItemConnection = connectionOf(FixItemNode, "FixItem");
export type FixItemConnection = ConnectionOf<FixItemNode>;
