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
  @Field(() => ID, { description: "The run's id: the platform's own (an imported run's is derived from the tenant and its envelope's run_id; hostRunId is the envelope's)." })
  id!: string;

  @Field(() => String, { description: "The id of the evaluation it ran (Run.evaluation reads it)." })
  evaluationId!: string;

  @Field(() => Int, { description: "Position in the evaluation's history, oldest = 1." })
  number!: number;

  // The read models' lowercase value (the enum's values), served by its UPPER_CASE name.
  @Field(() => RunOrigin, { description: "How the run came about: ENGINE (the workers replay it), EXTERNAL (its host replays it) or IMPORTED (a report imported whole)." })
  origin!: `${RunOrigin}`;

  @Field(() => Boolean, { description: "True when its host replays the pairs and records them (startRun with external: true; origin EXTERNAL); false for engine and imported runs." })
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

  @Field(() => String, { nullable: true, description: "The judge the run asked for when it started, then, once its verdict is recorded, the one it was scored with (as its verdict and report name it); an imported run's report's judge. Null when there is none (scored on rules alone)." })
  judgeLabel!: string | null;

  @Field(() => Boolean, { nullable: true, description: "Whether a judge grade a pair expected and did not get failed that pair judge_unavailable: the evaluation's requireJudgeScores as the run froze it when it started (false for a run started before the setting existed). Null for an imported run: its report does not say." })
  requireJudgeScores!: boolean | null;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description:
      "The run's metadata, as its report.json's `report.metadata` gives it (snake_case keys as the host gave them): an imported run's report's metadata, a run started here what it was started with " +
      "(the agent's instructions, a host's release tags and ids: whatever its start recorded). {} when it has none (report.json then leaves the key out). Can be large: weighed against the request's answer budget (maxAnswerBytes); " +
      "null, with a PAYLOAD_TOO_LARGE error at its path, when it would take the request's answer past it. The keys may come in another order than report.json's.",
  })
  metadata!: unknown;

  @Field(() => String, { nullable: true, description: "Why the run failed (RunFailed's message); null unless status is FAILED." })
  errorMessage!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "When an external run failed because its host broke the contract (a selected pair not reported at completeExternalRun, a pair outside the selection, a second different replay): { missing, unknown, duplicate }, each a list of \"<scenario key> × <model label>\". Null otherwise (no failure, or a failure of another kind)." })
  failurePairs!: unknown;

  @Field(() => String, { description: "When the run was scheduled, as an ISO-8601 UTC timestamp with milliseconds (e.g. `2026-12-07T04:51:45.259Z`). A run appears when it starts (RunStarted, or an imported run's import), so this is startedAt's instant; only a row kept from before runs started on their own (status PENDING) may differ." })
  scheduledAt!: string;

  @Field(() => String, { nullable: true, description: "When the run started (RunStarted; an imported run: its import), ISO-8601 UTC with milliseconds (e.g. `2026-12-07T04:51:45.259Z`). Null only for a row kept from before runs started on their own (status PENDING)." })
  startedAt!: string | null;

  @Field(() => String, { nullable: true, description: "When the run ended, ISO-8601 UTC with milliseconds (e.g. `2026-12-07T04:51:45.259Z`): RunCompleted (COMPLETED) or RunFailed (FAILED); an imported run's import. Null while RUNNING." })
  completedAt!: string | null;
}

@ObjectType({ simpleResolvers: true, description: "The last pair scored." })
export class LatestResult {
  @Field(() => String, { description: "The pair's scenario key." })
  scenarioKey!: string;

  @Field(() => String, { description: "The pair's model label (one of the run's models)." })
  modelLabel!: string;

  @Field(() => ResultStatus, { description: "PASSED, FAILED or ERRORED: only a scored pair is the latest." })
  status!: ResultStatus;

  @Field(() => Float, { nullable: true, description: "Its mean criterion score, a fraction from 0 to 1 (not a percent); null when no criterion could be scored." })
  score!: number | null;

  @Field(() => String, { nullable: true, description: "The fault diagnosed (e.g. missing_content, run_error); null when it passed." })
  fault!: string | null;
}

@ObjectType("RunProgress", { simpleResolvers: true, description: "How far a run is: pairs scored of the selection's total." })
export class RunProgressNode {
  @Field(() => ID, { description: "The run's id." })
  runId!: string;

  @Field(() => RunStatus, { description: "The run's status now (RUNNING until it is COMPLETED or FAILED)." })
  status!: RunStatus;

  @Field(() => Int, { description: "The run's pairs: its selected scenarios x its models (an imported run: its report's results)." })
  total!: number;

  @Field(() => Int, { description: "Pairs scored so far (passed + failed + errored); the other total - completed are PENDING." })
  completed!: number;

  @Field(() => Int, { description: "Pairs scored PASSED." })
  passed!: number;

  @Field(() => Int, { description: "Pairs scored FAILED (a fault was diagnosed)." })
  failed!: number;

  @Field(() => Int, { description: "Pairs scored ERRORED (the replay failed: a run_error)." })
  errored!: number;

  @Field(() => LatestResult, { nullable: true, description: "The pair scored last (by when it was scored); null until a pair is scored." })
  latestResult!: LatestResult | null;
}

@ObjectType("ModelSummary", { simpleResolvers: true, description: "One model's roll-up in a run." })
export class ModelSummaryNode {
  @Field(() => Float, { nullable: true, description: "Passed pairs / the model's pairs, as a percent from 0 to 100 (not a fraction), one decimal (summary_by_model's pass_rate); null when the recorded summary gives none." })
  passRate!: number | null;

  @Field(() => Float, { nullable: true, description: "The mean of the model's pair scores, a fraction from 0 to 1 (not a percent), 3 decimals (summary_by_model's avg_score); null when none of its pairs has a score." })
  avgScore!: number | null;

  @Field(() => GraphQLJSON, { description: "summary_by_model entry (snake_case keys, as the report has them)." })
  summary!: unknown;
}

@ObjectType({ simpleResolvers: true, description: "A model the run compared, as its selection resolved it, with its roll-up once scored." })
export class RunModel {
  @Field(() => String, { description: "The model's label in the run: what results' modelLabel, fix items' models and the verdict's winner name." })
  label!: string;

  @Field(() => String, { description: "Its provider (e.g. openai, anthropic), as the run's selection resolved it; an imported run's report's (\"\" when it names none)." })
  provider!: string;

  @Field(() => String, { description: "The model's id at its provider, as the run's selection resolved it; an imported run's report's (its label when it names none)." })
  model!: string;

  @Field(() => ModelSummaryNode, { nullable: true, description: "Its roll-up (pass rate, mean score, summary_by_model entry); null while nothing of it is scored." })
  summary!: ModelSummaryNode | null;
}

@ObjectType("Result", { simpleResolvers: true, description: "One scenario x model pair of a run." })
export class ResultNode {
  @Field(() => Int, { description: "The pair's place in the run, from 0: scenario index x model count + model index, in the run's selection (an imported run: the result's index in its report). Results are listed and paged by it: a `results` cursor is built from n, whatever the filters." })
  n!: number;

  @Field(() => String, { description: "The pair's scenario key." })
  scenarioKey!: string;

  @Field(() => String, { nullable: true, description: "The scenario's group key (a catalog set's, or a grouped suite's); null when it has none." })
  group!: string | null;

  @Field(() => String, { description: "The pair's model label (one of the run's models)." })
  modelLabel!: string;

  @Field(() => String, { nullable: true, description: "The model's provider, as the run resolved it; null when an imported report names none." })
  provider!: string | null;

  @Field(() => String, { nullable: true, description: "The model's id at its provider, as the run resolved it; null when an imported report names none." })
  model!: string | null;

  @Field(() => ResultStatus, { description: "PENDING until the pair is scored, then PASSED, FAILED (a fault diagnosed) or ERRORED (the replay failed)." })
  status!: ResultStatus;

  @Field(() => Float, { nullable: true, description: "The mean of its scored criteria, a fraction from 0 to 1 (not a percent), 3 decimals; null while PENDING and when no criterion could be scored." })
  score!: number | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "Each criterion's score by key, each a fraction from 0 to 1, or null when that criterion could not be scored; null while PENDING." })
  scores!: unknown;

  @Field(() => String, { nullable: true, description: "The one fault diagnosed: run_error, tool_error, missing_capability, expected_tool_not_called, ungrounded_answer, forbidden_content, missing_content, low_quality or judge_unavailable (an imported report's as it gives it). Null when it passed, and while PENDING." })
  fault!: string | null;

  @Field(() => String, { nullable: true, description: "What to change so the pair passes: its diagnosis's recommendation (the judge's refinement when it refined it). Null when no fault was diagnosed, and while PENDING." })
  recommendation!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "The diagnosis, snake_case keys as recorded: fault, summary, recommendation, evidence, and judge once the judge refined it. Null when no fault was diagnosed, and while PENDING." })
  diagnosis!: unknown;

  @Field(() => String, { nullable: true, description: "The agent's answer text, as its replay recorded it; null until replayed, and when the replay gave none." })
  answer!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "The tool calls the replay recorded, in order: [{ name, arguments, error, detail, duration_ms }] (snake_case). Null until replayed." })
  toolCalls!: unknown;

  @Field(() => String, { nullable: true, description: "Why the replay failed (its error text); null when it did not fail, and until replayed." })
  error!: string | null;

  @Field(() => Float, { nullable: true, description: "How long the replay took, in milliseconds, as recorded with it (the agent's or host's figure); null until replayed, and when none was recorded." })
  durationMs!: number | null;

  @Field(() => Float, { nullable: true, description: "Input tokens of the agent's replay, as the replay reported them (a count worked out from characters is never put here); null until replayed, and when not reported. A whole number: Float, not Int, because GraphQL's Int is 32-bit and a count may reach 10^12." })
  inputTokens!: number | null;

  @Field(() => Float, { nullable: true, description: "Output tokens of the agent's replay, as the replay reported them; null until replayed, and when not reported. A whole number: Float, not Int, because GraphQL's Int is 32-bit and a count may reach 10^12." })
  outputTokens!: number | null;

  @Field(() => Float, { nullable: true, description: "What the agent's replay cost, in USD (not cents): as the replay reported it, or estimated from the price table when the replay was recorded (costSource says which); an imported result's as its report gives it. Null when unpriced, and until replayed." })
  cost!: number | null;

  @Field(() => String, { nullable: true, description: "How cost was arrived at (the replay's metadata cost_source): reported, estimated (the price table's rate; the reports mark it ~), no_usage ($0: no tokens used), unpriced (no cost), or another text the replay declared. Null until replayed." })
  costSource!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "The scenario exactly as this pair was evaluated on." })
  scenario!: unknown;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description:
      "The replay's metadata, as report.json's `results[i].metadata` gives this pair (snake_case keys as the host or agent gave them: host run and result ids, trace_id, judge_trace_ids, release tags...). " +
      "It includes the keys the platform keeps there, as the report does: cost_source and cost_rate when the replay's cost was estimated, and judge_usage (what the judge spent grading this pair, " +
      "from its judge calls once scored, unless the replay carried its own). An imported result's as its report gives it ({} when it gives none). Null until replayed. The same values as report.json's; the keys may come in another order (the database keeps JSON its own way).",
  })
  metadata!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "Every judge call made for this pair, snake_case as recorded: kind, prompt_digest, raw_answer, parsed, usage, trace_ids, error. [] for an imported result (its report carries judge usage, not exchanges) and when no judge was asked; null while PENDING." })
  judgeExchanges!: unknown;
}

@ObjectType({ simpleResolvers: true, description: "One pair of a matrix row: the row's scenario under one model." })
class MatrixCell {
  @Field(() => String, { description: "The model's label (cells come in the run's model order)." })
  modelLabel!: string;

  @Field(() => ResultStatus, { description: "The pair's status: PENDING until scored, then PASSED, FAILED or ERRORED." })
  status!: ResultStatus;

  @Field(() => Float, { nullable: true, description: "The pair's mean criterion score, a fraction from 0 to 1 (not a percent); null while PENDING and when nothing could be scored." })
  score!: number | null;

  @Field(() => String, { nullable: true, description: "The pair's diagnosed fault; null when it passed, and while PENDING." })
  fault!: string | null;
}

@ObjectType({ simpleResolvers: true, description: "A scenario's row of the scenario x model matrix, in run order." })
export class MatrixRow {
  @Field(() => String, { description: "The scenario's key." })
  scenarioKey!: string;

  @Field(() => String, { nullable: true, description: "The scenario's group key; null when it has none." })
  group!: string | null;

  @Field(() => [MatrixCell], { description: "One cell per model of the run, in the run's model order." })
  cells!: MatrixCell[];
}

@ObjectType("FixItem", { simpleResolvers: true, description: "One item of the report's What to fix: a fault's failures and the fix they call for, or an instruction change the judge proposed." })
export class FixItemNode {
  @Field(() => FixItemKind, { description: "FAULT (the failures of one fault) or INSTRUCTION (a change to the agent's instructions the judge proposed)." })
  kind!: FixItemKind;

  @Field(() => String, { description: "The fault the item mends; \"instruction change\" for an INSTRUCTION item (\"\" when an item names none)." })
  fault!: string;

  @Field(() => [String], { description: "The labels of the models whose pairs it speaks for." })
  models!: string[];

  @Field(() => GraphQLJSON, { description: "The report's fix item (snake_case keys)." })
  item!: unknown;
}

@ObjectType("Verdict", { simpleResolvers: true, description: "Which model to ship: the ranking (pass rate, then mean score, then cost per priced scenario), or the judge's pick when it answered. Only a run of two or more models has one." })
export class VerdictNode {
  @Field(() => String, { nullable: true, description: "The label of the model picked; null when none could be (no scenario run, or every pair a run_error)." })
  winner!: string | null;

  @Field(() => String, { nullable: true, description: "Why, in words: the judge's rationale when it gave one, else the picked model's figures (\"Passed 2 of 2 scenarios (100%) ...\"), or why no model could be picked." })
  rationale!: string | null;

  @Field(() => String, { nullable: true, description: "The judge's label, or \"pass rate\"." })
  judge!: string | null;

  @Field(() => String, { nullable: true, description: "The judge the run was scored with, as the verdict recorded it (an imported run: its report's judge); null when scored on rules alone." })
  judgeLabel!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "The ranking inputs the verdict saw: each model's summary keyed by label (snake_case, its keys in the report's order), best first (a tie in the run's model order)." })
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

  @Field(() => Int, { description: "How many judge calls of this kind." })
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
  @Field(() => Int, { description: "How many judge calls the run itself holds (the verdict's, a judge_defined run's define call, or an imported report's run-level calls)." })
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


@ObjectType({ simpleResolvers: true, description: "One side of a run's spend: the agent's replays (RunUsage.agent) or the judge's calls (RunUsage.judge); each side answers null for the other side's own figures." })
export class UsagePart {
  @Field(() => Float, { description: "Input tokens summed: the agent side over the replays recorded so far (scored or not, as reported), the judge side over its calls. A whole number: Float, not Int, because GraphQL's Int is 32-bit and a sum may pass 2^31 (a count may reach 10^12)." })
  inputTokens!: number;

  @Field(() => Float, { description: "Output tokens summed, as inputTokens is. A whole number: Float, not Int, because GraphQL's Int is 32-bit (a count may reach 10^12)." })
  outputTokens!: number;

  @Field(() => Float, {
    nullable: true,
    description: "The priced replays' (or judge calls') cost summed, in 6 decimals as the report keeps a cost (so agent + judge is totalCost), null when none was priced. On the agent side it includes replays not yet scored, which the report and the counts (priced, unpriced, ...) leave out until they are scored (the judge's calls are recorded with the score). On the agent side, costBasis says whether it holds estimates and unpriced whether it is a lower bound.",
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
  @Field(() => UsagePart, { description: "The agent's side: what its replays cost to serve." })
  agent!: UsagePart;

  @Field(() => UsagePart, { description: "The judge's side: its calls to score, recommend, pick the verdict and define KPIs." })
  judge!: UsagePart;

  @Field(() => Float, { nullable: true, description: "agent + judge (each in 6 decimals), when either is priced." })
  totalCost!: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "The run's wall time in milliseconds (reference-platform #23's runtime_ms): completedAt - startedAt once it has ended (COMPLETED, or FAILED: until it failed). Null while it runs (no time so far is given), and for an imported run, whose report does not say how long it ran (it is started and completed at its import). Each time is the clock of the process that recorded the event: null, not negative, when completedAt reads earlier than startedAt (the API's and a worker's clocks apart; keep them synchronized).",
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
