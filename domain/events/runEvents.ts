// Stream `run-<id>`: a run freezes what it evaluates when it starts, then records the verdict and
// the comparison with the evidence they were decided on, then ends exactly once.
import { z } from "zod";
import { defineEvent } from "./defineEvent.js";
import {
  catalogReference,
  criterionData,
  hostRunIdText,
  isoDate,
  jsonObject,
  judgeData,
  kpiProvenance,
  modelSpecData,
  nonBlank,
  releaseData,
  scenarioData,
  scenarioWrite,
  toolData,
  usageData,
  usageInput,
} from "./shared.js";

const runStartedV3 = z.object({
  run_id: nonBlank,
  evaluation_id: nonBlank,
  tenant: nonBlank,
  number: z.number().int().positive(),
  /** External runs: the host replays and sends RecordReplay per pair. */
  external: z.boolean(),
  /** What was asked (keys, group) and what it resolved to. */
  selection: z.object({
    keys: z.array(z.string()).nullable(),
    group: z.string().nullable(),
    scenario_keys: z.array(z.string()),
    model_labels: z.array(z.string()),
  }),
  /** Every scenario exactly as evaluated, in run order. */
  scenarios: z.array(scenarioData).min(1, "a run evaluates at least one scenario"),
  models: z.array(modelSpecData).min(1, "a run evaluates at least one model"),
  criteria: z.array(criterionData),
  judge: judgeData,
  judge_label: z.string().nullable(),
  threshold: z.number().min(0).max(1),
  /**
   * The evaluation's require_judge_scores, frozen so a run scores as it started. Session 44, same
   * version: a run recorded before reads false, as it was scored.
   */
  require_judge_scores: z.boolean().default(false),
  release: releaseData.nullable(),
  metadata: jsonObject,
  tools: z.array(toolData),
  catalog: catalogReference.nullable(),
  /**
   * The evaluation's agent when the run started: how the run's diagnoses and report name the
   * agent (its `agent_name`), as a local run of the same agent does. null: "the agent".
   */
  agent: z.string().nullable(),
  /**
   * A start sent with an idempotency key: the key, and the SHA-256 of the arguments it was sent
   * with (keyedRunId.ts), which a retry's must match. Absent for a start without one, and for
   * every run recorded before keys (no version bump: an older reader drops the field it does not
   * know, and reads the run as it always did).
   */
  idempotency: z.object({ key: z.string(), request_digest: z.string() }).optional(),
});

/**
 * v1 had no `release`: runs recorded before release pinning scored an unrecorded release.
 * v2 had no `agent`: those runs were diagnosed and reported as "the agent", and are read so still.
 */
export const RunStarted = defineEvent(
  "RunStarted",
  3,
  runStartedV3,
  { 1: (data) => ({ ...data, release: null }), 2: (data) => ({ ...data, agent: null }) },
  runStartedV3.extend({
    scenarios: z.array(scenarioWrite).min(1, "a run evaluates at least one scenario"),
    agent: nonBlank.nullable(),
  }),
);

export const RunCompletionRequested = defineEvent(
  "RunCompletionRequested",
  1,
  z.object({ scored: z.number().int().nonnegative() }),
);

/**
 * The dispatcher published a run's outstanding jobs again: after a restart (it leads from its
 * checkpoint) or because the watchdog saw no progress. On the run stream, not in a process's
 * memory, so re-drives without progress count across restarts: a worker that dies on one of a
 * run's jobs restarts into the same job, and only a durable count lets that end with the run
 * failed. `pending` is how many pairs had no result (0 when the job is the completion's).
 */
export const RunRedriven = defineEvent(
  "RunRedriven",
  1,
  z.object({
    cause: z.enum(["restart", "watchdog"]),
    jobs: z.enum(["replay", "completion"]),
    pending: z.number().int().nonnegative(),
  }),
);

export const verdictData = z.object({ winner: z.string().nullable(), rationale: z.string().nullable(), judge: z.string() });

/** The judge's own exchange: prompt digest, raw answer, what was parsed, usage, trace ids. */
export const judgeExchangeData = z.object({
  kind: z.enum(["score", "recommend", "verdict", "define"]),
  prompt_digest: z.string(),
  raw_answer: z.string().nullable(),
  parsed: jsonObject.nullable(),
  usage: usageData.nullable(),
  trace_ids: z.array(z.string()).default([]),
  error: z.string().nullable().default(null),
});
export type JudgeExchangeData = z.output<typeof judgeExchangeData>;
/** A judge exchange as a command takes it and a new event holds it: its usage within the limits. */
export const judgeExchangeInput = judgeExchangeData.extend({ usage: usageInput.nullable() });

const verdictRecorded = z.object({
  /** null for a single-model run (no verdict). */
  verdict: verdictData.nullable(),
  judge_label: z.string().nullable(),
  /** Ranking inputs: summary_by_model keyed by label, as the verdict saw it. */
  ranking: jsonObject,
  judge_exchange: judgeExchangeData.nullable(),
});
export const VerdictRecorded = defineEvent("VerdictRecorded", 1, verdictRecorded, {}, verdictRecorded.extend({ judge_exchange: judgeExchangeInput.nullable() }));

export const ComparisonRecorded = defineEvent(
  "ComparisonRecorded",
  1,
  z.object({
    /** Comparison#to_h: models, pairs, conclusion. */
    comparison: jsonObject,
    seed: z.number().int(),
    resamples: z.number().int().positive(),
    confidence: z.number().gt(0).lt(1),
  }),
);

export const RunCompleted = defineEvent(
  "RunCompleted",
  1,
  z.object({
    scored: z.number().int().nonnegative(),
    passed: z.number().int().nonnegative(),
    /** Run aggregates (summary_by_model, criteria statistics, recommendations, judge usage). */
    summary: jsonObject,
  }),
);

export const pairProblems = z.object({
  missing: z.array(z.string()),
  unknown: z.array(z.string()),
  duplicate: z.array(z.string()),
});

export const RunFailed = defineEvent(
  "RunFailed",
  1,
  z.object({ message: nonBlank, pairs: pairProblems.nullable().default(null) }),
);

/**
 * A finished report from elsewhere (version-1 envelope) became a completed run. `run_id` is the
 * platform's id, derived from (tenant, the envelope's run_id); `host_run_id` is the envelope's.
 * Runs imported before tenant keying have no host_run_id: their run_id is the envelope's own.
 */
export const ReportImported = defineEvent(
  "ReportImported",
  1,
  z.object({
    run_id: nonBlank,
    host_run_id: hostRunIdText.nullable().default(null),
    evaluation_id: nonBlank,
    tenant: nonBlank,
    number: z.number().int().positive(),
    source: nonBlank,
    agent_name: nonBlank,
    suite: nonBlank,
    /** Lowercase hex SHA-256 of the report's canonical JSON: the identity of its content. */
    digest: z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex SHA-256"),
    report: jsonObject,
  }),
);

/**
 * A worker took the settling of a judge_defined run's KPIs, before asking the judge (appended at
 * the exact version it read, so one worker process at a time holds it): the others wait for its
 * KpiAuthoringRecorded. A claim not settled by `expires_at` (the claimer's judge timeout plus a
 * margin: it crashed) may be taken over by another worker's claim.
 */
export const KpiAuthoringStarted = defineEvent(
  "KpiAuthoringStarted",
  1,
  z.object({
    claim_id: nonBlank,
    expires_at: isoDate,
  }),
);

const kpiAuthoringRecorded = z.object({
  /** defined: this run's judge defined them; reused: another run of the evaluation had meanwhile; failed: none. */
  outcome: z.enum(["defined", "reused", "failed"]),
  /** The KPIs the run scores with beside the criteria RunStarted froze ([] when failed). */
  criteria: z.array(criterionData),
  kpi_provenance: kpiProvenance.nullable(),
  /** Why no KPIs were authored (failed), in the reference's words; null otherwise. */
  message: z.string().nullable(),
  /** What the judge's answer lacked, when it was asked and answered unusably. */
  reason: z.string().nullable(),
  /** The define call, when the judge was asked (audit trail and metering: a call no result owns). */
  judge_exchange: judgeExchangeData.nullable(),
});

/**
 * A judge_defined run that started without KPIs settled them before any pair was scored: its
 * KPIs (authored now, or another run's), or why there are none. A failure does not fail the run:
 * it scores on the criteria RunStarted froze, and the next run tries again (README, Status).
 */
export const KpiAuthoringRecorded = defineEvent(
  "KpiAuthoringRecorded",
  1,
  kpiAuthoringRecorded,
  {},
  kpiAuthoringRecorded.extend({ judge_exchange: judgeExchangeInput.nullable() }),
);
