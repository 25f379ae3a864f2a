// Plain data pieces several events share. Keys are snake_case, mirroring the report JSON
// (reference-core §1, §5, §7), and nothing here imports a domain class: events are stable data.
import { z } from "zod";
import { identifierTextProblem, lookAlikePair, lookAlikeRule } from "../support/index.js";
import { isStorableText, TEXT_RULE } from "./storableText.js";
import { ID_PATTERN, ID_RULE } from "./streams.js";

export const idSchema = z.string().regex(ID_PATTERN, `must be ${ID_RULE}`);
export const nonBlank = z.string().trim().min(1, "must not be blank");
export const isoDate = z.iso.datetime({ offset: true });
export const jsonObject = z.record(z.string(), z.unknown());

/** The longest run_id an imported report's envelope may carry (the host's name for its run). */
export const HOST_RUN_ID_LIMIT = 255;
// C0 controls, DEL and C1 controls: nothing a host names a run with, and a newline or an escape
// in an id would break every line that echoes it.
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The envelope's run_id: the host names its runs as it likes (`nightly-2025.06.01`, `gh/1234/1`,
 * `dashboard-run-7-2025-06-01T10:00:00Z`) and the platform keys the run by a hash of it
 * (importedRunId), so it is not a stream id: any text PostgreSQL can store, kept exactly as sent
 * (not trimmed), not blank, at most HOST_RUN_ID_LIMIT characters, without control characters.
 */
export const hostRunIdText = z.string().superRefine((value, ctx) => {
  const control = value.search(CONTROL);
  const problem =
    value.trim() === "" || value.length > HOST_RUN_ID_LIMIT
      ? `must be 1-${HOST_RUN_ID_LIMIT} characters, not blank (got ${value.trim() === "" ? `${value.length} blank` : value.length})`
      : control >= 0
        ? `must not contain control characters (U+${value.charCodeAt(control).toString(16).toUpperCase().padStart(4, "0")} at index ${control})`
        : isStorableText(value) ? null : TEXT_RULE;
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

// Bounds on the figures a replay, a judge call or an imported report may carry. Each is far past
// any real one, and each keeps what the read models derive from it storable: a position fits the
// integer column, a run's token sums stay exact in bigint, its float8 cost sums cannot overflow.
// Past them the command is refused; without them the write succeeded and the read database then
// refused the event, so the run's figures (or the whole run) silently went missing.
// They bound what comes IN (commands, and every new event through its writeSchema), never what
// is stored: versions before them recorded larger figures (a host's epoch timestamp as a
// duration), and a stored schema that refuses those stops every reader of the log at them.
export const POSITION_LIMIT = 2_147_483_647;
export const TOKEN_COUNT_LIMIT = 1_000_000_000_000;
export const COST_LIMIT = 1_000_000_000;
export const DURATION_LIMIT_MS = 1_000_000_000_000;

export const position = z.number().int().min(-POSITION_LIMIT - 1).max(POSITION_LIMIT, `must be at most ${POSITION_LIMIT}`);
export const tokenCount = z.number().int().nonnegative().max(TOKEN_COUNT_LIMIT, `must be at most ${TOKEN_COUNT_LIMIT} tokens`);
export const costAmount = z.number().nonnegative().max(COST_LIMIT, `must be at most ${COST_LIMIT} (USD)`);
export const durationMs = z.number().nonnegative().max(DURATION_LIMIT_MS, `must be at most ${DURATION_LIMIT_MS} ms`);

// The same figures as stored: what every earlier version accepted (any integer position, any
// non-negative count, cost or duration), so each recorded event still reads.
export const recordedPosition = z.number().int();
export const recordedTokenCount = z.number().int().nonnegative();
export const recordedCost = z.number().nonnegative();
export const recordedDurationMs = z.number().nonnegative();

/**
 * The one name a scenario key or model label may not be: JavaScript reads `__proto__` on an
 * object as its prototype, so the records keyed by keys and labels (the events' summaries and
 * comparisons, read through zod) cannot hold it. A run whose scenario was so named was stored,
 * replayed and metered, and then its report could never be rendered.
 */
export const RESERVED_NAME = "__proto__";
export const RESERVED_NAME_RULE = `must not be "${RESERVED_NAME}" (JavaScript objects cannot hold that name as a key)`;
export const isReservedName = (name: string): boolean => name.trim() === RESERVED_NAME;

/**
 * A scenario key, model label, group or tool name as a command takes it: no control, bidi or
 * invisible character, and in NFC (support/identifierText). Commands only: recorded events are
 * read as they were stored.
 */
export function checkIdentifierText(value: string, ctx: z.RefinementCtx): void {
  const problem = identifierTextProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}

/** Refuses two names of one list that read alike across scripts, at the second's place (`field` of it, when given). */
export function checkLookAlikes(names: readonly string[], ctx: z.RefinementCtx, what: string, field?: string): void {
  const pair = lookAlikePair(names);
  if (!pair) return;
  const index = names.indexOf(pair.second);
  ctx.addIssue({ code: "custom", message: lookAlikeRule(pair, what), path: field === undefined ? [index] : [index, field] });
}

/** Longest scenario key anywhere a scenario comes in (catalogs, suites, pasted lists, imported reports). */
export const SCENARIO_KEY_MAX = 200;

/**
 * Longest scenario prompt the platform stores (catalogs, suites, imported reports): `verdict run`
 * refuses a longer one up front, so a CI report can always be imported.
 */
export const SCENARIO_PROMPT_MAX = 65_535;

/** Scenario#to_h (reference-core §1): nil fields dropped. */
export const scenarioData = z.object({
  key: nonBlank.max(SCENARIO_KEY_MAX),
  prompt: nonBlank.max(SCENARIO_PROMPT_MAX),
  group: z.string().max(200).optional(),
  group_name: z.string().optional(),
  expected_tools: z.array(z.string()).default([]),
  expected_patterns: z.array(z.string()).default([]),
  forbidden_patterns: z.array(z.string()).default([]),
  notes: z.string().optional(),
  production_only: z.boolean().default(false),
  position: recordedPosition.optional(),
  tags: z.array(z.string()).default([]),
  params: jsonObject.default({}),
});
export type ScenarioData = z.output<typeof scenarioData>;
/** A scenario as a new event may hold it: its position fits the read models' integer column. */
export const scenarioWrite = scenarioData.extend({ position: position.optional() });

/** A scenario as an evaluation holds it: always positioned, enabled or not. */
export const evaluationScenario = scenarioData.extend({
  position: recordedPosition,
  enabled: z.boolean(),
});
export type EvaluationScenario = z.output<typeof evaluationScenario>;
/** An evaluation's scenario as a new event may hold it (see scenarioWrite). */
export const evaluationScenarioWrite = evaluationScenario.extend({ position });

/** ModelSpec#to_h: the label keeps the exact typed text. */
export const modelSpecData = z.object({ label: nonBlank, provider: nonBlank, model: nonBlank });
export type ModelSpecData = z.output<typeof modelSpecData>;

/**
 * Longest model label, provider or model id a command takes. A label keys the read models'
 * indexes, whose rows PostgreSQL caps at ~2.7 KB: a run of a 3,000-character label started, was
 * replayed and paid for, and then could not be projected (its run unknown to every query).
 */
export const MODEL_NAME_MAX = 200;
/**
 * The longest agent name a new evaluation or release takes (CreateEvaluation, RecordAgentRelease).
 * Only commands hold to it: an evaluation recorded with a longer name before is read as it is.
 */
export const AGENT_NAME_MAX = 255;
const modelName = nonBlank.max(MODEL_NAME_MAX, `must be at most ${MODEL_NAME_MAX} characters`);
/** A model spec as a command takes it (modelSpecData, as recorded, has no limit to keep old events readable). */
export const modelSpecInput = z.object({ label: modelName.refine((label) => !isReservedName(label), RESERVED_NAME_RULE).superRefine(checkIdentifierText), provider: modelName, model: modelName });

/** A criterion as an author gives it (commands): who defined it is the platform's to record. */
export const criterionInput = z.object({ key: nonBlank, type: nonBlank, config: jsonObject.default({}) });
/**
 * A criterion as recorded: a judge-defined KPI (judge_defined evaluations, KpisDefined) also
 * names the judge that defined it and when; an author's criterion has neither.
 */
export const criterionData = criterionInput.extend({ defined_by: nonBlank.optional(), defined_at: isoDate.optional() });
export type CriterionData = z.output<typeof criterionData>;

/** `config.kpi_provenance` of a judge_defined evaluation (reference-platform §2): who defined its KPIs, and when. */
export const kpiProvenance = z.object({ judge: nonBlank, defined_at: isoDate });
export type KpiProvenance = z.output<typeof kpiProvenance>;

export const judgeKind = z.enum(["rules", "llm", "judge_defined"]);
/** The longest judge model name an evaluation keeps. */
export const JUDGE_MODEL_MAX = 200;
export const judgeData = z.object({ kind: judgeKind.default("rules"), model: z.string().max(JUDGE_MODEL_MAX).nullable().default(null) });
export type JudgeData = z.output<typeof judgeData>;

/** Release#summary: which release of the agent a run scored. */
export const releaseData = z.object({ digest: z.string(), revision: z.string().nullable().optional(), label: z.string().nullable().optional() });
export type ReleaseData = z.output<typeof releaseData>;
/** The longest digest, revision or label a run's explicit release may carry. */
export const RELEASE_TEXT_MAX = 200;
const releaseText = z.string().max(RELEASE_TEXT_MAX, `must be at most ${RELEASE_TEXT_MAX} characters`);
/**
 * A release as a command gives it (StartRun's explicit release): a digest that is not blank (a
 * blank one would pin nothing, and the evaluation's standing would read it as unrecorded), each
 * part bounded. Kept as given otherwise: a host may name its releases its own way.
 */
export const releaseInput = z.object({
  digest: nonBlank.max(RELEASE_TEXT_MAX, `must be at most ${RELEASE_TEXT_MAX} characters`),
  revision: releaseText.nullable().optional(),
  label: releaseText.nullable().optional(),
});

export const catalogReference = z.object({
  catalog_key: nonBlank,
  product_key: nonBlank,
  set_key: nonBlank,
  digest: z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex SHA-256"),
});
export type CatalogReference = z.output<typeof catalogReference>;

/** One tool the agent had when the run started (the roster every scoring job reads). */
export const toolData = z.object({ name: nonBlank, description: z.string().optional(), server: z.string().optional() });
export type ToolData = z.output<typeof toolData>;
/** A tool as a command gives it: its name is shown in reports, so it follows checkIdentifierText. */
export const toolInput = toolData.extend({ name: nonBlank.superRefine(checkIdentifierText) });

/** Token usage of one call. */
export const usageData = z.object({
  input_tokens: recordedTokenCount.nullable().optional(),
  output_tokens: recordedTokenCount.nullable().optional(),
  cost: recordedCost.nullable().optional(),
  model: z.string().nullable().optional(),
  /** How the host arrived at it ("reported", "estimated", "traces"...); absent means reported. */
  source: z.string().max(200).nullable().optional(),
});
/** Token usage as a command or a new event gives it: counts and cost within their limits. */
export const usageInput = usageData.extend({
  input_tokens: tokenCount.nullable().optional(),
  output_tokens: tokenCount.nullable().optional(),
  cost: costAmount.nullable().optional(),
});
