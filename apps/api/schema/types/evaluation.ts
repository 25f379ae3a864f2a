import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { connectionOf, type ConnectionOf } from "./connection.js";
import { Standing } from "./enums.js";

@ObjectType("Scenario", { description: "A scenario of an evaluation's suite, as it stands now." })
export class ScenarioNode {
  @Field(() => String, { description: "The scenario's key, unique within the suite." })
  key!: string;

  @Field(() => String, { description: "What the agent is asked." })
  prompt!: string;

  @Field(() => String, { nullable: true, description: "Its group's key (a catalog set's, or a grouped suite's); null when it has none." })
  group!: string | null;

  @Field(() => String, { nullable: true, description: "The group's display name, when the catalog or suite gives one; null otherwise." })
  groupName!: string | null;

  @Field(() => String, { nullable: true, description: "Free-form notes from the suite or catalog; null when none." })
  notes!: string | null;

  @Field(() => GraphQLJSON, { description: "{ tools, contains, not_contains }" })
  expectations!: unknown;

  // Answered so the suite goes back through replaceScenarios as it came: without them, sending
  // it back erased a catalog scenario's tags and the params a run hands the agent.
  @Field(() => [String], { description: "Free-form labels from the catalog ([] when none)." })
  tags!: string[];

  @Field(() => GraphQLJSON, { description: "Free-form parameters from the catalog, handed to the agent with the scenario ({} when none)." })
  params!: unknown;

  @Field(() => Int, { description: "Its place in the suite's order (scenarios are listed by position, then key)." })
  position!: number;

  @Field(() => Boolean, { description: "False once disabled (replaceScenarios with onRemoved DISABLE, or dropped by the catalog set it follows): kept, with its past results, but not run and not counted in scenarioCount." })
  enabled!: boolean;
}

@ObjectType("Evaluation", { description: "An evaluation: an agent's definition (criteria, judge, threshold) and its scenario suite." })
export class EvaluationNode {
  @Field(() => ID, { description: "The evaluation's id." })
  id!: string;

  @Field(() => String, { description: "The name of the agent it evaluates (Agent.name)." })
  agent!: string;

  @Field(() => String, { description: "Its name, unique among the agent's evaluations (compared as stored: trimmed, case kept)." })
  name!: string;

  @Field(() => GraphQLJSON, { description: "The judge it asks for, as recorded: { kind, model }, kind rules, llm or judge_defined (lowercase, see JudgeKind); model null when it names none (an llm judge then uses the worker's own)." })
  judge!: unknown;

  @Field(() => GraphQLJSON, { description: "Its criteria as recorded, [{ key, type, config }] (snake_case); judge-defined KPIs follow them, with defined_by and defined_at, while its judge is judge_defined." })
  criteria!: unknown;

  @Field(() => Float, { description: "The score a pair must reach to pass, a fraction from 0 to 1 (not a percent); 0.7 unless createEvaluation set it." })
  threshold!: number;

  @Field(() => Boolean, { description: "True: a judge grade a pair expected and did not get (task_completion when the judge grades it, each llm_judge criterion) fails the pair with the fault judge_unavailable, never the run. False unless createEvaluation set it (every evaluation created before the setting existed); each run keeps the value it started with (Run.requireJudgeScores)." })
  requireJudgeScores!: boolean;

  @Field(() => [String], { description: "The models a run compares when startRun names none, as given (trimmed, each once)." })
  compareModels!: string[];

  @Field(() => GraphQLJSON, { nullable: true, description: "The catalog set it was made from and follows: { catalog_key, product_key, set_key, digest } (digest: the catalog's SHA-256 it last synced to). Null when it was not made from a catalog set." })
  catalog!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "The external suite it stands for, as its EvaluationCreated recorded it ({ source, suite, scope }, the reference's config.external for imported reports). Null for every evaluation createEvaluation makes: it records none." })
  external!: unknown;

  @Field(() => Boolean, { description: "True once archived (archiveEvaluation), until it is unarchived (archiveEvaluation false, a new run or an imported report)." })
  archived!: boolean;

  @Field(() => String, { nullable: true, description: "When it was archived, ISO-8601 UTC with milliseconds (e.g. `2026-12-07T04:51:45.259Z`); null while it is not." })
  archivedAt!: string | null;

  @Field(() => Int, { description: "Enabled scenarios in its suite (disabled ones stay listed in scenarios but are not run)." })
  scenarioCount!: number;

  @Field(() => Int, { description: "How many runs it has had: its highest run number (runs are numbered from 1, imported ones included)." })
  runCount!: number;

  @Field(() => Standing, {
    description:
      "Whether the headline run (newest COMPLETED) scored the agent's latest recorded release: ARCHIVED if archived, NONE without a completed run, UNRECORDED if it pinned no release, CURRENT if it pinned the latest (or the agent has none recorded), else STALE.",
  })
  standing!: Standing;

  /** The headline run's id (read models), which `headlineRun` reads. */
  headlineRunId!: string | null;

  @Field(() => String, { description: "When it was created (EvaluationCreated), as an ISO-8601 UTC timestamp with milliseconds (e.g. `2026-12-07T04:51:45.259Z`)." })
  createdAt!: string;

  @Field(() => String, { description: "When it last changed (its definition, suite, catalog sync, archive state, KPIs, or a new run), ISO-8601 UTC with milliseconds (e.g. `2026-12-07T04:51:45.259Z`)." })
  updatedAt!: string;
}

export const EvaluationConnection = connectionOf(EvaluationNode, "Evaluation");
export type EvaluationConnection = ConnectionOf<EvaluationNode>;

export const ScenarioConnection = connectionOf(ScenarioNode, "Scenario");
export type ScenarioConnection = ConnectionOf<ScenarioNode>;
