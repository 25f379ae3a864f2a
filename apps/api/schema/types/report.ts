import { Field, ID, Int, ObjectType } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import type { Report } from "@verdict/domain";
import { ResultStatus, RunStatus } from "./enums.js";

@ObjectType("RunReport", { description: "A run's report, rebuilt from its recorded events (never re-judged or resampled)." })
export class RunReportNode {
  @Field(() => ID, { description: "The run's id." })
  runId!: string;

  /** The rebuilt Report the fields render (not exposed). */
  report!: Report;
}

@ObjectType({ description: "A recorded event, as the log holds it." })
export class AuditEvent {
  @Field(() => String, { description: "The event's type, e.g. RunStarted, ReplayRecorded, ResultScored, VerdictRecorded, RunCompleted." })
  type!: string;

  @Field(() => String, { description: "The stream it was appended to: `run-<runId>` for the run's own events, `result-<runId>.<n>` for a pair's." })
  streamId!: string;

  @Field(() => String, { description: "Position in its stream, from 0 (a 64-bit integer as text)." })
  version!: string;

  @Field(() => String, {
    description: "The event's place among the run's events (its run stream and pair streams, in log order), from 0, as text: the same in runAudit and runEvents.",
  })
  position!: string;

  @Field(() => String, { description: "When the log recorded it, as an ISO-8601 UTC timestamp with milliseconds (e.g. `2026-12-07T04:51:45.259Z`)." })
  recordedAt!: string;

  @Field(() => Int, { description: "The version of its type's data schema it was written in, from 1." })
  schemaVersion!: number;

  @Field(() => GraphQLJSON, { description: "The event's data as recorded (snake_case keys)." })
  data!: unknown;

  @Field(() => GraphQLJSON, { description: "The event's metadata as recorded: event_id, causation_id, correlation_id, tenant, actor, recorded_at." })
  metadata!: unknown;
}

@ObjectType({ description: "A grade and what it was decided from: the scenario as evaluated, the replay, the judge's exchanges." })
export class GradeAudit {
  @Field(() => String, { description: "The pair's scenario key." })
  scenarioKey!: string;

  @Field(() => String, { description: "The pair's model label." })
  modelLabel!: string;

  @Field(() => ResultStatus, { description: "PASSED, FAILED or ERRORED, as scored (an imported result: its report's status, any but passed or failed read as ERRORED)." })
  status!: ResultStatus;

  @Field(() => GraphQLJSON, { nullable: true, description: "The mean of its scored criteria, a number from 0 to 1 (a fraction, not a percent); null when none could be scored." })
  score!: number | null;

  @Field(() => GraphQLJSON, { description: "Each criterion's score by key, each from 0 to 1 or null when not scorable ({} when an imported result gives none)." })
  scores!: unknown;

  @Field(() => Boolean, { description: "Whether the pair passed, as ResultScored recorded it (an imported result: its report's status is passed)." })
  pass!: boolean;

  @Field(() => String, { nullable: true, description: "The fault diagnosed; null when it passed." })
  fault!: string | null;

  @Field(() => String, { nullable: true, description: "Why it failed, in one sentence: the diagnosis's summary as recorded. Null when no fault was diagnosed." })
  summary!: string | null;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: "What the fault was diagnosed from, snake_case keys as recorded (e.g. expected and called for expected_tool_not_called, missing for missing_content, error for run_error): the diagnosis's evidence. Null when no fault was diagnosed.",
  })
  evidence!: unknown;

  @Field(() => String, { nullable: true, description: "What to change so the pair passes, as recorded: the diagnosis's recommendation (the judge's refinement when it refined it). Null when no fault was diagnosed." })
  recommendation!: string | null;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: "The whole diagnosis as recorded, snake_case keys: fault, summary, recommendation, evidence, and judge once the judge refined it (its suggested_tool, instruction_change). Null when no fault was diagnosed.",
  })
  diagnosis!: unknown;

  @Field(() => GraphQLJSON, { description: "The scenario snapshot from RunStarted." })
  scenario!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "The recorded replay (answer, tool calls, usage)." })
  replay!: unknown;

  @Field(() => GraphQLJSON, { description: "Every judge exchange: prompt digest, raw answer, parsed grade, usage, trace ids." })
  judgeExchanges!: unknown;
}

@ObjectType({ description: "The verdict and what it was decided from: the ranking inputs and the judge's exchange." })
export class VerdictAudit {
  @Field(() => GraphQLJSON, { nullable: true, description: "The verdict recorded, { winner, rationale, judge }; null for a run of one model (nothing to pick) and when only the comparison is recorded." })
  verdict!: unknown;

  @Field(() => String, { nullable: true, description: "The judge the run was scored with, as the verdict recorded it (an imported run: its report's judge); null when none." })
  judgeLabel!: string | null;

  @Field(() => GraphQLJSON, { description: "The ranking inputs the verdict saw: each model's summary keyed by label (snake_case, its keys in the report's order), best first (a tie in the run's model order); {} when no verdict is recorded." })
  ranking!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "The judge's verdict call (kind, prompt_digest, raw_answer, parsed, usage, trace_ids, error); null when no judge was asked, and for an imported run." })
  judgeExchange!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "ComparisonRecorded: the comparison with its seed, resamples and confidence." })
  comparison!: unknown;
}

@ObjectType({ description: "A run's events in log order, with the evidence behind each grade and the verdict." })
export class RunAudit {
  @Field(() => ID, { description: "The run's id." })
  runId!: string;

  @Field(() => RunStatus, { description: "The run's status, as its events fold it." })
  status!: RunStatus;

  @Field(() => [AuditEvent], { description: "Every event of the run (its run stream and its pairs' streams), in log order." })
  events!: AuditEvent[];

  @Field(() => [GradeAudit], { description: "One per scored pair in pair order (n); an imported run: one per result of its report, in the report's order." })
  grades!: GradeAudit[];

  @Field(() => VerdictAudit, { nullable: true, description: "The verdict and the comparison with what they were decided from; null until either is recorded (an imported run: when its report has neither)." })
  verdict!: VerdictAudit | null;
}

@ObjectType({ description: "One scenario x model pair (matched by scenario key and model label) with its status in each run; null in the run that lacks it." })
export class PairChange {
  @Field(() => String, { description: "The pair's scenario key." })
  scenarioKey!: string;

  @Field(() => String, { description: "The pair's model label." })
  modelLabel!: string;

  @Field(() => ResultStatus, { nullable: true, description: "Its status in run a; null when the pair is only in b (added)." })
  before!: ResultStatus | null;

  @Field(() => ResultStatus, { nullable: true, description: "Its status in run b; null when the pair is only in a (removed)." })
  after!: ResultStatus | null;
}

@ObjectType({ description: "Run b against run a, pair by pair (scenario key x model label)." })
export class RunDiff {
  @Field(() => ID, { description: "The id of run a, the one compared against." })
  a!: string;

  @Field(() => ID, { description: "The id of run b, compared with a." })
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
