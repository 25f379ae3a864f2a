import { Field, Float, Int, ObjectType } from "type-graphql";
import { connectionOf, type ConnectionOf } from "./connection.js";

@ObjectType("RunRelease", { simpleResolvers: true, description: "The release of the agent a run scored, as the run pinned it (the report's `release`)." })
export class RunReleaseNode {
  @Field(() => String, { description: "The release's digest: an agent's recorded release's 12 hex, or what the run's caller or imported report named." })
  digest!: string;

  @Field(() => String, { nullable: true, description: "The release's revision, as the run pinned it: the recorded release's, or as the run's caller or imported report gave it; null when none was given." })
  revision!: string | null;

  @Field(() => String, { nullable: true, description: "`v<N>` for a recorded version the run pinned at its start; else as given." })
  label!: string | null;
}

@ObjectType("AgentRelease", { simpleResolvers: true, description: "One version of an agent: one per digest, numbered in the order first recorded." })
export class AgentReleaseNode {
  @Field(() => Int, { description: "The version's number, from 1, in the order the agent's digests were first recorded." })
  version!: number;

  @Field(() => String, { description: "`v<version>`, as a run pins it." })
  label!: string;

  @Field(() => String, { description: "First 12 lowercase hex of the SHA-256 of the canonical manifest (its secrets left out), or as recorded. The manifest itself is never kept." })
  digest!: string;

  @Field(() => String, { nullable: true, description: "The revision the version was first recorded with." })
  revision!: string | null;

  @Field(() => String, { description: "When the version was first recorded, as an ISO-8601 UTC timestamp with milliseconds (e.g. `2026-12-07T04:51:45.259Z`)." })
  recordedAt!: string;
}

@ObjectType("StandingCounts", { simpleResolvers: true, description: "How many of an agent's evaluations have each standing." })
export class StandingCountsNode {
  @Field(() => Int, { description: "Evaluations whose standing is CURRENT." })
  current!: number;

  @Field(() => Int, { description: "Evaluations whose standing is STALE." })
  stale!: number;

  @Field(() => Int, { description: "Evaluations whose standing is UNRECORDED." })
  unrecorded!: number;

  @Field(() => Int, { description: "Evaluations whose standing is ARCHIVED." })
  archived!: number;

  @Field(() => Int, { description: "Evaluations whose standing is NONE (no completed run)." })
  none!: number;
}

@ObjectType("Agent", {
  description:
    "An agent of the tenant (a name its evaluations or recorded releases carry): its releases, and its pass rate pooled over the evaluations whose standing is CURRENT or UNRECORDED.",
})
export class AgentNode {
  @Field(() => String, { description: "The agent's name, as its evaluations and recorded releases carry it." })
  name!: string;

  @Field(() => AgentReleaseNode, { nullable: true, description: "Null until a release is recorded (recordAgentRelease)." })
  latestRelease!: AgentReleaseNode | null;

  @Field(() => String, { nullable: true, description: "When the latest release became the latest (a return to an earlier version's digest moves it), ISO-8601 UTC with milliseconds; null until a release is recorded." })
  latestSince!: string | null;

  @Field(() => StandingCountsNode, { description: "Its evaluations by standing (archived ones included)." })
  standings!: StandingCountsNode;

  @Field(() => Int, { description: "Evaluations whose standing is CURRENT or UNRECORDED: the ones pooled." })
  evaluationsCounted!: number;

  @Field(() => Int, { description: "Evaluations whose standing is STALE, ARCHIVED or NONE: left out of the pooled pass rate." })
  evaluationsLeftOut!: number;

  @Field(() => Int, { description: "Passed results of the counted evaluations' headline runs." })
  pooledPassed!: number;

  @Field(() => Int, { description: "Scored results (passed, failed or errored) of the counted evaluations' headline runs." })
  pooledScored!: number;

  @Field(() => Float, { nullable: true, description: "pooledPassed / pooledScored as a percent, one decimal (half away from zero); null when nothing counted was scored." })
  pooledPassRate!: number | null;
}

export const AgentConnection = connectionOf(AgentNode, "Agent");
export type AgentConnection = ConnectionOf<AgentNode>;

export const AgentReleaseConnection = connectionOf(AgentReleaseNode, "AgentRelease");
export type AgentReleaseConnection = ConnectionOf<AgentReleaseNode>;
