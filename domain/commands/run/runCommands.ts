// Run commands (stream `run-<id>`). StartRun and ImportReport are shared with the evaluation
// aggregate, which numbers the run first (see startRun and importReport in ../twoStreamCommands.ts).
import { z } from "zod";
import { judgeExchangeInput, verdictData } from "../../events/runEvents.js";
import { criterionData, idSchema, jsonObject, kpiProvenance, nonBlank } from "../../events/shared.js";
import { ImportReport, StartRun } from "../evaluation/evaluationCommands.js";

export const RequestRunCompletion = z.object({
  type: z.literal("RequestRunCompletion"),
  run_id: idSchema,
  scored: z.number().int().nonnegative(),
});
export type RequestRunCompletion = z.output<typeof RequestRunCompletion>;

export const RecordVerdict = z.object({
  type: z.literal("RecordVerdict"),
  run_id: idSchema,
  verdict: verdictData.nullable(),
  judge_label: z.string().nullable(),
  ranking: jsonObject,
  judge_exchange: judgeExchangeInput.nullable().default(null),
});
export type RecordVerdict = z.output<typeof RecordVerdict>;

export const RecordComparison = z.object({
  type: z.literal("RecordComparison"),
  run_id: idSchema,
  comparison: jsonObject,
  seed: z.number().int(),
  resamples: z.number().int().positive(),
  confidence: z.number().gt(0).lt(1),
});
export type RecordComparison = z.output<typeof RecordComparison>;

const scoredPair = z.object({ scenario_key: nonBlank, model_label: nonBlank, pass: z.boolean() });

export const CompleteRun = z.object({
  type: z.literal("CompleteRun"),
  run_id: idSchema,
  /** Every scored result the caller found for this run (from the result streams or the host). */
  results: z.array(scoredPair),
  summary: jsonObject.default({}),
});
export type CompleteRun = z.output<typeof CompleteRun>;

export const FailRun = z.object({ type: z.literal("FailRun"), run_id: idSchema, message: nonBlank });
export type FailRun = z.output<typeof FailRun>;

/**
 * The dispatcher published a run's outstanding jobs again (see RunRedriven): recorded once they
 * reached the bus, so a re-drive that could not publish (the broker down) counts for nothing; a
 * restart's is recorded before its process takes jobs, so it counts even when the process dies
 * on one of them.
 */
export const RecordRedrive = z.object({
  type: z.literal("RecordRedrive"),
  run_id: idSchema,
  cause: z.enum(["restart", "watchdog"]),
  jobs: z.enum(["replay", "completion"]),
  pending: z.number().int().nonnegative(),
});
export type RecordRedrive = z.output<typeof RecordRedrive>;

/**
 * An external run's host sent a result its contract refuses (the result aggregate decided which:
 * a pair outside the selection, or a second, different replay for a recorded pair): the run fails.
 */
export const RejectPair = z.object({
  type: z.literal("RejectPair"),
  run_id: idSchema,
  scenario_key: nonBlank,
  model_label: nonBlank,
  problem: z.enum(["unknown", "duplicate"]),
});
export type RejectPair = z.output<typeof RejectPair>;

/**
 * Takes the settling of a judge_defined run's KPIs before its judge is asked
 * (KpiAuthoringStarted), for `hold_ms`: the claimer's judge timeout plus a margin.
 */
export const ClaimKpiAuthoring = z.object({
  type: z.literal("ClaimKpiAuthoring"),
  run_id: idSchema,
  claim_id: nonBlank,
  hold_ms: z.number().int().positive(),
});
export type ClaimKpiAuthoring = z.output<typeof ClaimKpiAuthoring>;

/** How a judge_defined run that started without KPIs settled them (KpiAuthoringRecorded). */
export const RecordKpiAuthoring = z.object({
  type: z.literal("RecordKpiAuthoring"),
  run_id: idSchema,
  /** The claim it settles (ClaimKpiAuthoring): a claim taken over since may not settle. */
  claim_id: nonBlank.nullable().default(null),
  outcome: z.enum(["defined", "reused", "failed"]),
  criteria: z.array(criterionData).default([]),
  kpi_provenance: kpiProvenance.nullable().default(null),
  message: nonBlank.nullable().default(null),
  reason: z.string().nullable().default(null),
  judge_exchange: judgeExchangeInput.nullable().default(null),
});
export type RecordKpiAuthoring = z.output<typeof RecordKpiAuthoring>;

export const RunCommand = z.discriminatedUnion("type", [
  ClaimKpiAuthoring,
  RecordKpiAuthoring,
  StartRun,
  RequestRunCompletion,
  RecordVerdict,
  RecordComparison,
  CompleteRun,
  FailRun,
  RecordRedrive,
  RejectPair,
  ImportReport,
]);
export type RunCommand = z.output<typeof RunCommand>;
