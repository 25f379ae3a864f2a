import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { connectionOf, type ConnectionOf } from "./connection.js";
import { Standing } from "./enums.js";

@ObjectType("Scenario", { description: "A scenario of an evaluation's suite, as it stands now." })
export class ScenarioNode {
  @Field(() => String)
  key!: string;

  @Field(() => String)
  prompt!: string;

  @Field(() => String, { nullable: true })
  group!: string | null;

  @Field(() => String, { nullable: true })
  groupName!: string | null;

  @Field(() => String, { nullable: true })
  notes!: string | null;

  @Field(() => GraphQLJSON, { description: "{ tools, contains, not_contains }" })
  expectations!: unknown;

  // Answered so the suite goes back through replaceScenarios as it came: without them, sending
  // it back erased a catalog scenario's tags and the params a run hands the agent.
  @Field(() => [String], { description: "Free-form labels from the catalog ([] when none)." })
  tags!: string[];

  @Field(() => GraphQLJSON, { description: "Free-form parameters from the catalog, handed to the agent with the scenario ({} when none)." })
  params!: unknown;

  @Field(() => Int)
  position!: number;

  @Field(() => Boolean)
  enabled!: boolean;
}

@ObjectType("Evaluation", { description: "An evaluation: an agent's definition (criteria, judge, threshold) and its scenario suite." })
export class EvaluationNode {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  agent!: string;

  @Field(() => String)
  name!: string;

  @Field(() => GraphQLJSON)
  judge!: unknown;

  @Field(() => GraphQLJSON)
  criteria!: unknown;

  @Field(() => Float)
  threshold!: number;

  @Field(() => [String])
  compareModels!: string[];

  @Field(() => GraphQLJSON, { nullable: true })
  catalog!: unknown;

  @Field(() => GraphQLJSON, { nullable: true })
  external!: unknown;

  @Field(() => Boolean)
  archived!: boolean;

  @Field(() => String, { nullable: true, description: "When it was archived; null while it is not." })
  archivedAt!: string | null;

  @Field(() => Int)
  scenarioCount!: number;

  @Field(() => Int)
  runCount!: number;

  @Field(() => Standing, {
    description:
      "Whether the headline run (newest COMPLETED) scored the agent's latest recorded release: ARCHIVED if archived, NONE without a completed run, UNRECORDED if it pinned no release, CURRENT if it pinned the latest (or the agent has none recorded), else STALE.",
  })
  standing!: Standing;

  /** The headline run's id (read models), which `headlineRun` reads. */
  headlineRunId!: string | null;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String)
  updatedAt!: string;
}

export const EvaluationConnection = connectionOf(EvaluationNode, "Evaluation");
export type EvaluationConnection = ConnectionOf<EvaluationNode>;

export const ScenarioConnection = connectionOf(ScenarioNode, "Scenario");
export type ScenarioConnection = ConnectionOf<ScenarioNode>;
