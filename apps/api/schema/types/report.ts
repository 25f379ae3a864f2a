import { Field, ID, Int, ObjectType } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import type { Report } from "@verdict/domain";
import { ResultStatus, RunStatus } from "./enums.js";

@ObjectType("RunReport", { description: "A run's report, rebuilt from its recorded events (never re-judged or resampled)." })
export class RunReportNode {
  @Field(() => ID)
  runId!: string;

  /** The rebuilt Report the fields render (not exposed). */
  report!: Report;
}

@ObjectType({ description: "A recorded event, as the log holds it." })
export class AuditEvent {
  @Field(() => String)
  type!: string;

  @Field(() => String)
  streamId!: string;

  @Field(() => String, { description: "Position in its stream, from 0 (a 64-bit integer as text)." })
  version!: string;

  @Field(() => String, {
    description: "The event's place among the run's events (its run stream and pair streams, in log order), from 0, as text: the same in runAudit and runEvents.",
  })
  position!: string;

  @Field(() => String)
  recordedAt!: string;

  @Field(() => Int)
  schemaVersion!: number;

  @Field(() => GraphQLJSON)
  data!: unknown;

  @Field(() => GraphQLJSON)
  metadata!: unknown;
}

@ObjectType({ description: "A grade and what it was decided from: the scenario as evaluated, the replay, the judge's exchanges." })
export class GradeAudit {
  @Field(() => String)
  scenarioKey!: string;

  @Field(() => String)
  modelLabel!: string;

  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => GraphQLJSON, { nullable: true })
  score!: number | null;

  @Field(() => GraphQLJSON)
  scores!: unknown;

  @Field(() => String, { nullable: true })
  fault!: string | null;

  @Field(() => GraphQLJSON, { description: "The scenario snapshot from RunStarted." })
  scenario!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "The recorded replay (answer, tool calls, usage)." })
  replay!: unknown;

  @Field(() => GraphQLJSON, { description: "Every judge exchange: prompt digest, raw answer, parsed grade, usage, trace ids." })
  judgeExchanges!: unknown;
}

@ObjectType({ description: "The verdict and what it was decided from: the ranking inputs and the judge's exchange." })
export class VerdictAudit {
  @Field(() => GraphQLJSON, { nullable: true })
  verdict!: unknown;

  @Field(() => String, { nullable: true })
  judgeLabel!: string | null;

  @Field(() => GraphQLJSON)
  ranking!: unknown;

  @Field(() => GraphQLJSON, { nullable: true })
  judgeExchange!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "ComparisonRecorded: the comparison with its seed, resamples and confidence." })
  comparison!: unknown;
}

@ObjectType({ description: "A run's events in log order, with the evidence behind each grade and the verdict." })
export class RunAudit {
  @Field(() => ID)
  runId!: string;

  @Field(() => RunStatus)
  status!: RunStatus;

  @Field(() => [AuditEvent])
  events!: AuditEvent[];

  @Field(() => [GradeAudit])
  grades!: GradeAudit[];

  @Field(() => VerdictAudit, { nullable: true })
  verdict!: VerdictAudit | null;
}

@ObjectType({ description: "A pair present in both runs whose outcome is compared." })
export class PairChange {
  @Field(() => String)
  scenarioKey!: string;

  @Field(() => String)
  modelLabel!: string;

  @Field(() => ResultStatus, { nullable: true })
  before!: ResultStatus | null;

  @Field(() => ResultStatus, { nullable: true })
  after!: ResultStatus | null;
}

@ObjectType({ description: "Run b against run a, pair by pair (scenario key x model label)." })
export class RunDiff {
  @Field(() => ID)
  a!: string;

  @Field(() => ID)
  b!: string;

  @Field(() => [PairChange], { description: "Failed in a, passed in b." })
  fixed!: PairChange[];

  @Field(() => [PairChange], { description: "Passed in a, failed in b." })
  regressed!: PairChange[];

  @Field(() => [PairChange], { description: "Failed in both." })
  stillFailing!: PairChange[];

  @Field(() => [PairChange], { description: "Passed in both." })
  stillPassing!: PairChange[];

  @Field(() => [PairChange], { description: "Only in b." })
  added!: PairChange[];

  @Field(() => [PairChange], { description: "Only in a." })
  removed!: PairChange[];

  @Field(() => [PairChange], { description: "In both, but not scored yet (PENDING) in one or both: neither fixed nor regressed." })
  unscored!: PairChange[];
}
