// Stream `evaluation-<id>`: the evaluation's definition and its scenario suite. Scenario changes
// record the resulting records (not just the input) so a fold never re-runs merge rules.
import { z } from "zod";
import { defineEvent } from "./defineEvent.js";
import { judgeExchangeData, judgeExchangeInput } from "./runEvents.js";
import { catalogReference, criterionData, evaluationScenario, evaluationScenarioWrite, isoDate, judgeData, kpiProvenance, nonBlank } from "./shared.js";

export const EvaluationCreated = defineEvent(
  "EvaluationCreated",
  1,
  z.object({
    evaluation_id: nonBlank,
    tenant: nonBlank,
    agent: nonBlank,
    name: nonBlank.max(255),
    judge: judgeData,
    criteria: z.array(criterionData),
    threshold: z.number().min(0).max(1),
    compare_models: z.array(z.string()),
    catalog: catalogReference.nullable(),
    external: z.object({ source: z.string(), suite: z.string(), scope: z.string().nullable().optional() }).nullable(),
    /**
     * A missing expected judge grade fails its pair `judge_unavailable` (reference-core §11 step 6).
     * Added in session 44 at the same version: an evaluation created before holds none and reads
     * false, as it scored; an older build drops the field and scores leniently.
     */
    require_judge_scores: z.boolean().default(false),
  }),
);

const scenariosReplaced = z.object({
  on_removed: z.enum(["destroy", "disable"]),
  /** Every scenario the input named, as now stored. */
  scenarios: z.array(evaluationScenario),
  added: z.array(z.string()),
  updated: z.array(z.string()),
  unchanged: z.array(z.string()),
  /** Keys dropped (on_removed destroy). */
  removed: z.array(z.string()),
  /** Keys kept with enabled false (on_removed disable). */
  disabled: z.array(z.string()),
});
// New events hold positions within the read models' integer column (see scenarioWrite).
const scenariosWrite = { scenarios: z.array(evaluationScenarioWrite) };
export const ScenariosReplaced = defineEvent("ScenariosReplaced", 1, scenariosReplaced, {}, scenariosReplaced.extend(scenariosWrite));

/**
 * The evaluation was synced to a newer import of its catalog set: the digest it now reflects,
 * and the judge and criteria the set (or the creation's own choice) gives it. The suite's
 * change is the ScenariosReplaced (on_removed disable) appended with it, when there is one.
 */
export const CatalogSetSynced = defineEvent(
  "CatalogSetSynced",
  1,
  z.object({
    catalog: catalogReference,
    judge: judgeData,
    criteria: z.array(criterionData),
    /** Which import of the catalog the evaluation was synced to (1 = its first; null: not said). */
    catalog_import: z.number().int().positive().nullable().default(null),
    /**
     * Keys a sync disabled because the set no longer names them: enabled again when it names them
     * again (a scenario disabled by hand stays disabled). Null: not said (none).
     */
    dropped: z.array(z.string()).nullable().default(null),
  }),
);

const scenariosMerged = z.object({
  limit: z.number().int().positive(),
  /** The added and updated scenarios, as now stored; unchanged and unnamed ones are untouched. */
  scenarios: z.array(evaluationScenario),
  added: z.array(z.string()),
  updated: z.array(z.string()),
  unchanged: z.array(z.string()),
});
export const ScenariosMerged = defineEvent("ScenariosMerged", 1, scenariosMerged, {}, scenariosMerged.extend(scenariosWrite));

export const EvaluationArchived = defineEvent("EvaluationArchived", 1, z.object({ archived_at: isoDate }));

export const EvaluationUnarchived = defineEvent(
  "EvaluationUnarchived",
  1,
  z.object({ reason: z.enum(["requested", "run_started", "report_imported"]) }),
);

/** A run (engine, external or imported) took the next number in this evaluation's history. */
export const RunScheduled = defineEvent(
  "RunScheduled",
  1,
  z.object({
    run_id: nonBlank,
    number: z.number().int().positive(),
    origin: z.enum(["engine", "external", "imported"]),
  }),
);

/**
 * Stream `evaluation_name-<digest>`: the one event that reserves an evaluation name for an agent
 * of a tenant (reference-platform §1, name unique per agent), appended with "no stream" before
 * the evaluation's EvaluationCreated. The name is recorded as stored (trimmed by the command's
 * schema, case kept), so the digest and the comparison use exactly what EvaluationCreated holds.
 */
export const EvaluationNameReserved = defineEvent(
  "EvaluationNameReserved",
  1,
  z.object({
    evaluation_id: nonBlank,
    tenant: nonBlank,
    agent: nonBlank,
    name: nonBlank.max(255),
    /** When the name was reserved; absent on reservations written before it was recorded. */
    reserved_at: isoDate.nullable().default(null),
  }),
);

/**
 * The judge of a judge_defined evaluation defined its KPIs, while the run `run_id` was starting
 * (reference-platform §1 #19): `llm_judge` criteria, each naming the judge and the time, which
 * every later run of the evaluation scores with beside its own criteria. Recorded once: a later
 * run reuses them and the judge is not asked again.
 */
const kpisDefined = z.object({
  run_id: nonBlank,
  criteria: z.array(criterionData).min(1),
  kpi_provenance: kpiProvenance,
  /**
   * The define call that authored them (null before it was carried): a worker that recorded this
   * and died before its run's KpiAuthoringRecorded lets its successor record the run's outcome as
   * defined, with the call metered and audited.
   */
  judge_exchange: judgeExchangeData.nullable().default(null),
});
const kpiCriterionWrite = criterionData.extend({ type: z.literal("llm_judge"), defined_by: nonBlank, defined_at: isoDate });
export const KpisDefined = defineEvent("KpisDefined", 1, kpisDefined, {}, kpisDefined.extend({ criteria: z.array(kpiCriterionWrite).min(1), judge_exchange: judgeExchangeInput.nullable().default(null) }));

/**
 * The evaluation's judge-defined KPIs were cleared (clearKpis): it holds none from here, so the
 * next judge_defined run asks its judge again and records a new KpisDefined. Runs started before
 * keep the KPIs they froze. Names who cleared them, when, which keys and whose definition they were.
 */
export const KpisCleared = defineEvent(
  "KpisCleared",
  1,
  z.object({
    kpi_keys: z.array(z.string()).min(1),
    /** The definition cleared: the judge and time KpisDefined recorded (null: not recorded). */
    kpi_provenance: kpiProvenance.nullable(),
    cleared_by: nonBlank,
    cleared_at: isoDate,
  }),
);
