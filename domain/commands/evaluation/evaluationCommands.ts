// Evaluation commands (stream `evaluation-<id>`). Scenario input is already parsed by the caller
// (ScenarioParser / Catalog) into plain snake_case records.
import { z } from "zod";
import {
  AGENT_NAME_MAX,
  SCENARIO_PROMPT_MAX,
  catalogReference,
  checkIdentifierText,
  checkLookAlikes,
  criterionInput,
  hostRunIdText,
  idSchema,
  jsonObject,
  judgeData,
  MODEL_NAME_MAX,
  RESERVED_NAME_RULE,
  isReservedName,
  modelSpecInput,
  nonBlank,
  position,
  releaseInput,
  toolInput,
} from "../../events/shared.js";
import { judgeExchangeInput } from "../../events/runEvents.js";
import { identifierTextProblem, isBlank } from "../../support/index.js";

/** Scenarios an evaluation may hold (reference-platform §2.1 limits). */
export const SCENARIO_LIMIT = 2000;
/** Models one run compares, as an imported report may hold (reference-platform §2.1 limits). */
export const RUN_MODEL_LIMIT = 50;

const recordedScenarioFields = {
  key: z.string().trim().max(200).refine((key) => !isReservedName(key), RESERVED_NAME_RULE).default(""),
  prompt: z.string().max(SCENARIO_PROMPT_MAX).default(""),
  group: z.string().max(200).optional(),
  group_name: z.string().optional(),
  notes: z.string().optional(),
  expected_tools: z.array(z.string()).default([]),
  expected_patterns: z.array(z.string()).default([]),
  forbidden_patterns: z.array(z.string()).default([]),
  production_only: z.boolean().default(false),
  tags: z.array(z.string()).default([]),
  params: jsonObject.default({}),
  position: position.optional(),
  enabled: z.boolean().optional(),
};

// A scenario new to the platform (create, replace, merge): its key, group and tools follow
// checkIdentifierText. A sync reads a catalog import already recorded, so it takes the
// recorded fields: a key stored before the rule still syncs as it was stored.
const scenarioFields = {
  ...recordedScenarioFields,
  key: recordedScenarioFields.key.superRefine(checkIdentifierText),
  group: z.string().max(200).superRefine(checkIdentifierText).optional(),
  expected_tools: z.array(z.string().superRefine(checkIdentifierText)).default([]),
};

// Strict: an unknown key was dropped without a word, so a record in another shape (the API's
// `expectations`, a camelCase `groupName`) silently erased what it meant to set.
const strictScenario = <T extends z.core.$ZodLooseShape>(fields: T) =>
  z.strictObject(fields, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown ${issue.keys.length === 1 ? "key" : "keys"} ${issue.keys.join(", ")}; a scenario record takes ${Object.keys(fields).join(", ")}`
        : undefined,
  });
export const scenarioInput = strictScenario(scenarioFields);
export type ScenarioInput = z.output<typeof scenarioInput>;
const recordedScenarioInput = strictScenario(recordedScenarioFields);

/** New scenarios, no two of whose keys read alike (`a` and a Cyrillic `а`). */
const newScenarios = z.array(scenarioInput).superRefine((scenarios, ctx) => checkLookAlikes(scenarios.map((scenario) => scenario.key), ctx, "scenario keys", "key"));

export const CreateEvaluation = z.object({
  type: z.literal("CreateEvaluation"),
  evaluation_id: idSchema,
  tenant: idSchema,
  // As RecordAgentRelease takes it: an evaluation named for an agent no release could be recorded for stayed unrecorded for good.
  agent: nonBlank.max(AGENT_NAME_MAX, `must be at most ${AGENT_NAME_MAX} characters`),
  name: nonBlank.max(255),
  // Its model is a model name as compare_models' are (checkIdentifierText); judgeData, as recorded, is not checked.
  judge: judgeData.extend({ model: judgeData.shape.model.refine((model) => model === null || identifierTextProblem(model) === null, { error: (issue) => identifierTextProblem(String(issue.input)) ?? undefined }) }).default({ kind: "rules", model: null }),
  criteria: z.array(criterionInput).default([]),
  threshold: z.number().min(0).max(1).default(0.7),
  require_judge_scores: z.boolean().default(false),
  // A run takes at most RUN_MODEL_LIMIT models: more was accepted here and refused by every startRun.
  // A blank name was kept, then dropped by the run, which said "No models selected — … set
  // compare_models" though it was set. A name given twice is one model, as a run's selection
  // collapses repeated labels (the first kept): stored once, trimmed as its label is.
  compare_models: z
    .array(
      z
        .string()
        .refine((name) => !isBlank(name), "must not be blank")
        .transform((name) => name.trim())
        .pipe(z.string().max(MODEL_NAME_MAX, `must be at most ${MODEL_NAME_MAX} characters`).refine((name) => !isReservedName(name), RESERVED_NAME_RULE).superRefine(checkIdentifierText)),
    )
    .superRefine((names, ctx) => checkLookAlikes(names, ctx, "models"))
    .transform((names) => [...new Set(names)])
    .pipe(z.array(z.string()).max(RUN_MODEL_LIMIT, `at most ${RUN_MODEL_LIMIT} models an evaluation compares`))
    .default([]),
  catalog: catalogReference.nullable().default(null),
  external: z.object({ source: z.string(), suite: z.string(), scope: z.string().nullable().optional() }).nullable().default(null),
  /** Optional initial suite, stored as a replace with on_removed destroy. */
  scenarios: newScenarios.default([]),
});
export type CreateEvaluation = z.output<typeof CreateEvaluation>;

export const ReplaceScenarios = z.object({
  type: z.literal("ReplaceScenarios"),
  evaluation_id: idSchema,
  scenarios: newScenarios,
  on_removed: z.enum(["destroy", "disable"], { error: "on_removed must be destroy or disable" }).default("destroy"),
  limit: z.number().int().positive().default(SCENARIO_LIMIT),
});
export type ReplaceScenarios = z.output<typeof ReplaceScenarios>;

/**
 * Syncs an evaluation to its catalog set's current import: the set's scenarios become the whole
 * suite with on_removed disable (none: every scenario is disabled, the set is gone or selects
 * nothing), and the evaluation takes the given catalog reference, judge and criteria (null:
 * keeps its own, as when the set is gone). Another tenant's evaluation is not found.
 */
export const SyncCatalogSet = z.object({
  type: z.literal("SyncCatalogSet"),
  evaluation_id: idSchema,
  tenant: idSchema,
  catalog: catalogReference,
  /**
   * Which import of the catalog the sync read (1 = its first): a sync of an older import than the
   * one the evaluation was last synced to changes nothing. Null: unordered.
   */
  catalog_import: z.number().int().positive().nullable().default(null),
  judge: judgeData.nullable(),
  criteria: z.array(criterionInput).nullable(),
  scenarios: z.array(recordedScenarioInput),
  limit: z.number().int().positive().default(SCENARIO_LIMIT),
});
export type SyncCatalogSet = z.output<typeof SyncCatalogSet>;

export const MergeScenarios = z.object({
  type: z.literal("MergeScenarios"),
  evaluation_id: idSchema,
  scenarios: newScenarios,
  limit: z.number().int().positive().default(SCENARIO_LIMIT),
});
export type MergeScenarios = z.output<typeof MergeScenarios>;

export const ArchiveEvaluation = z.object({
  type: z.literal("ArchiveEvaluation"),
  evaluation_id: idSchema,
  archived: z.boolean({ error: "evaluation.archived must be true or false" }),
});
export type ArchiveEvaluation = z.output<typeof ArchiveEvaluation>;

/**
 * Starts a run: the evaluation stream numbers it (RunScheduled), then the run stream freezes the
 * selection (RunStarted). Models arrive resolved (ModelSpec.parseAll of the request, else
 * compare_models, else the agent's model).
 */
export const StartRun = z.object({
  type: z.literal("StartRun"),
  run_id: idSchema,
  evaluation_id: idSchema,
  keys: z.array(z.string()).nullable().default(null),
  group: z.string().nullable().default(null),
  models: z
    .array(modelSpecInput)
    .max(RUN_MODEL_LIMIT, `at most ${RUN_MODEL_LIMIT} models a run`)
    .superRefine((models, ctx) => checkLookAlikes(models.map((model) => model.label), ctx, "models", "label")),
  external: z.boolean().default(false),
  judge_label: z.string().nullable().default(null),
  /** Null: the run pins the agent's latest recorded release when it starts (twoStreamCommands.ts). */
  release: releaseInput.nullable().default(null),
  metadata: jsonObject.default({}),
  tools: z.array(toolInput).default([]),
  /**
   * The caller's key for this start (keyedRunId.ts): the run id is derived from it, and the same
   * key again answers the run it started. Any text of 1-255 characters, not blank, kept as sent
   * (the rule an envelope's run_id follows). Null: every start is a new run.
   */
  idempotency_key: hostRunIdText.nullable().default(null),
});
export type StartRun = z.output<typeof StartRun>;

/**
 * Version-1 report envelope (reference-core §17) that becomes a completed run, as the deciders
 * take it: `run_id` is the run's id on the platform, derived from (tenant, the envelope's run_id)
 * by importReport (twoStreamCommands.ts), and `host_run_id` the envelope's own. Null there: run_id
 * is the envelope's own (runs imported before tenant keying, whose run_id was always a valid id).
 */
export const ImportReport = z.object({
  type: z.literal("ImportReport"),
  run_id: idSchema,
  host_run_id: hostRunIdText.nullable().default(null),
  evaluation_id: idSchema,
  tenant: idSchema,
  source: nonBlank,
  agent_name: nonBlank,
  suite: nonBlank,
  /** SHA-256 of the report's canonical JSON, computed by the caller. */
  digest: z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex SHA-256"),
  report: jsonObject,
});
export type ImportReport = z.output<typeof ImportReport>;

/**
 * What importReport is given: the envelope's `run_id` is the host's name for its run, any
 * storable text (hostRunIdText), since the run's id here is a hash of it and the tenant.
 */
export const ImportReportEnvelope = ImportReport.omit({ host_run_id: true }).extend({ run_id: hostRunIdText });
export type ImportReportEnvelope = z.output<typeof ImportReportEnvelope>;

/**
 * The judge of a judge_defined evaluation defined its KPIs while run `run_id` started (the
 * worker asks it): recorded once as KpisDefined, with the judge's label and the time.
 */
export const DefineKpis = z.object({
  type: z.literal("DefineKpis"),
  evaluation_id: idSchema,
  run_id: idSchema,
  judge: nonBlank,
  criteria: z.array(criterionInput).min(1),
  /** The define call (recorded with the KPIs: see KpisDefined). */
  judge_exchange: judgeExchangeInput.nullable().default(null),
  /**
   * How many clears of the KPIs the caller had seen when it asked the judge (EvaluationState
   * kpiClears); fewer than the evaluation holds now: the call was asked before a clear, and
   * records nothing. Omitted: not checked.
   */
  clears_seen: z.number().int().min(0).optional(),
});
export type DefineKpis = z.output<typeof DefineKpis>;

/**
 * Clears the evaluation's judge-defined KPIs (clearKpis), so its next judge_defined run asks
 * the judge again. An evaluation without KPIs records nothing; another tenant's is not found.
 */
export const ClearKpis = z.object({
  type: z.literal("ClearKpis"),
  evaluation_id: idSchema,
  tenant: idSchema,
  /** Who asked (the API key's actor), recorded on KpisCleared. */
  cleared_by: nonBlank,
});
export type ClearKpis = z.output<typeof ClearKpis>;

export const EvaluationCommand = z.discriminatedUnion("type", [
  DefineKpis,
  ClearKpis,
  CreateEvaluation,
  ReplaceScenarios,
  SyncCatalogSet,
  MergeScenarios,
  ArchiveEvaluation,
  StartRun,
  ImportReport,
]);
export type EvaluationCommand = z.output<typeof EvaluationCommand>;
