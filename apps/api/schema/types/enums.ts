// Enums in UPPER_CASE (GraphQL convention); the read models' lowercase values are mapped on read.
import { registerEnumType } from "type-graphql";

export enum RunStatus {
  PENDING = "PENDING",
  RUNNING = "RUNNING",
  COMPLETED = "COMPLETED",
  FAILED = "FAILED",
}

export enum ResultStatus {
  PENDING = "PENDING",
  PASSED = "PASSED",
  FAILED = "FAILED",
  ERRORED = "ERRORED",
}

export enum ReportTheme {
  LIGHT = "light",
  DARK = "dark",
}

export enum OnRemoved {
  DESTROY = "destroy",
  DISABLE = "disable",
}

/** How a run came about; the read models keep the lowercase values. */
export enum RunOrigin {
  ENGINE = "engine",
  EXTERNAL = "external",
  IMPORTED = "imported",
}

/** A fix item's kind, as the report's `kind` (lowercase there). */
export enum FixItemKind {
  FAULT = "fault",
  INSTRUCTION = "instruction",
}

/** How a run's priced agent costs were arrived at, as domain/cost's `cost_basis` (lowercase there). */
export enum CostBasis {
  REPORTED = "reported",
  ESTIMATED = "estimated",
  MIXED = "mixed",
}

/** Where a run's judge usage comes from (reference-platform #23's judge `source`; lowercase there). */
export enum JudgeUsageSource {
  METER = "meter",
  REPORTED = "reported",
  MIXED = "mixed",
}

/** The judge an evaluation asks for, as the events' `judge.kind` (lowercase there). */
export enum JudgeKind {
  RULES = "rules",
  LLM = "llm",
  JUDGE_DEFINED = "judge_defined",
}

/** An evaluation's standing (reference-platform §1 #40), the read models' lowercase values. */
export enum Standing {
  CURRENT = "current",
  STALE = "stale",
  UNRECORDED = "unrecorded",
  ARCHIVED = "archived",
  NONE = "none",
}

/** What recording a release came to (domain recordAgentRelease), the domain's lowercase values. */
export enum ReleaseOutcome {
  NEW = "new",
  RETURNED = "returned",
  UNCHANGED = "unchanged",
}

registerEnumType(RunStatus, {
  name: "RunStatus",
  description: "A run is RUNNING from its start, then COMPLETED or FAILED; an imported run is COMPLETED. PENDING is no longer given (a run appears when it starts).",
  valuesConfig: {
    PENDING: { description: "Not given to a run today: only a row kept from before runs started on their own stream may hold it." },
    RUNNING: { description: "Started (RunStarted): its pairs are being replayed and scored." },
    COMPLETED: { description: "Ended with its summaries, fix items and verdict recorded (RunCompleted); an imported run is COMPLETED from its import." },
    FAILED: { description: "Ended without completing (RunFailed; errorMessage says why); the pairs it had scored are kept." },
  },
});
registerEnumType(ResultStatus, {
  name: "ResultStatus",
  description: "A pair is PENDING until scored PASSED, FAILED or ERRORED.",
  valuesConfig: {
    PENDING: { description: "Not scored yet (its replay may be recorded)." },
    PASSED: { description: "Scored with no fault diagnosed: it met the threshold and its checks." },
    FAILED: { description: "Scored with a fault diagnosed (Result.fault), its replay having answered." },
    ERRORED: { description: "The replay failed or answered only blank text (fault run_error); an imported result whose status is anything but passed or failed is kept as ERRORED." },
  },
});
registerEnumType(ReportTheme, {
  name: "ReportTheme",
  description: "The colours of a report's HTML page (RunReport.html(theme)); without one, the page follows the reader's system setting.",
  valuesConfig: {
    LIGHT: { description: "Light colours, whatever the reader's system prefers." },
    DARK: { description: "Dark colours, whatever the reader's system prefers." },
  },
});
registerEnumType(RunOrigin, {
  name: "RunOrigin",
  description: "ENGINE: replayed by the workers; EXTERNAL: replayed by its host (recordReplay); IMPORTED: a report imported whole.",
  valuesConfig: {
    ENGINE: { description: "Started here (startRun): the platform's workers replay and score its pairs." },
    EXTERNAL: { description: "Started here with external: true: its host replays the pairs and records them (recordReplay), then calls completeExternalRun." },
    IMPORTED: { description: "A finished report imported whole (importReport): COMPLETED at once, its results as the host scored them." },
  },
});
registerEnumType(FixItemKind, {
  name: "FixItemKind",
  description: "FAULT: failures of one fault; INSTRUCTION: the judge's instruction change.",
  valuesConfig: {
    FAULT: { description: "The failures of one fault, across scenarios and models, with the fix they call for." },
    INSTRUCTION: { description: "A change to the agent's instructions the judge proposed (its fault reads \"instruction change\")." },
  },
});
registerEnumType(CostBasis, {
  name: "CostBasis",
  description: "How the priced agent costs were arrived at (reference-platform #23's cost_basis): REPORTED when none is an estimate, ESTIMATED when all are, MIXED otherwise.",
  valuesConfig: {
    REPORTED: { description: "As the agent reported them, or $0 for a replay that used no tokens (cost source no_usage, which the reports do not mark as an estimate)." },
    ESTIMATED: {
      description:
        "Worked out by the platform (cost source estimated: tokens x the price table's rate, or, for a replay that gave no token count, its prompt and answer characters / 4, a lower bound: the result's cost_rate.basis chars); the reports mark them with ~.",
    },
    MIXED: { description: "Some of each." },
  },
});
registerEnumType(JudgeUsageSource, {
  name: "JudgeUsageSource",
  description:
    "Where a run's judge usage comes from (reference-platform #23's judge source). The reference's third source, traces (judge usage worked out from the judge's traces), is not given: the platform never derives judge usage from traces.",
  valuesConfig: {
    METER: { description: "All of it metered: the calls this platform's judge made, each recorded with its usage in the score's (or the verdict's) judge exchanges (a run started here, engine or external, whose replays carry no judge_usage of their own)." },
    REPORTED: {
      description:
        "All of it reported: the judge usage a replay's metadata carries (an agent's or a host's record, which the run's report counts instead of the platform's exchanges for that result), or an imported run's (each result's metadata judge_usage, and run_judge_usage or judge_usage.run), as reported.",
    },
    MIXED: { description: "Some results' judge usage metered, some reported (a run started here some of whose replays carry their own judge_usage)." },
  },
});
registerEnumType(JudgeKind, {
  name: "JudgeKind",
  description:
    "RULES: rule criteria only; LLM: a model judge; JUDGE_DEFINED: a model judge that also defines 3-6 KPIs (llm_judge criteria) on the evaluation's first run, reused by later runs (Evaluation.kpis, Run.kpiAuthoring).",
  valuesConfig: {
    RULES: { description: "Scored on its criteria by rules alone: no model judge is asked." },
    LLM: { description: "A model judge (the evaluation's judge model, else the worker's own) also grades the answers, refines recommendations and picks the verdict." },
    JUDGE_DEFINED: { description: "As LLM, and the judge defines 3-6 KPIs on the evaluation's first run, scored beside its criteria by later runs (clearKpis makes the next run define them again)." },
  },
});
registerEnumType(Standing, {
  name: "Standing",
  description: "Whether an evaluation's headline run (its newest COMPLETED run) scored the agent's latest recorded release; only CURRENT and UNRECORDED evaluations count in the agent's pooled pass rate.",
  valuesConfig: {
    CURRENT: { description: "The headline run pinned the agent's latest recorded release, or the agent has no recorded release (nothing newer is known)." },
    STALE: { description: "The agent's latest recorded release is another than the one the headline run pinned." },
    UNRECORDED: { description: "The headline run pinned no release (started before any was recorded, or imported without one)." },
    ARCHIVED: { description: "The evaluation is archived, whatever its runs." },
    NONE: { description: "No run of the evaluation has completed (running and failed runs never head it)." },
  },
});
registerEnumType(ReleaseOutcome, {
  name: "ReleaseOutcome",
  description: "What recordAgentRelease came to.",
  valuesConfig: {
    NEW: { description: "A digest never recorded for the agent: the next version, now the latest." },
    RETURNED: { description: "An earlier version's digest: that version (same number) is the latest again." },
    UNCHANGED: { description: "Already the latest release's digest: nothing recorded." },
  },
});
registerEnumType(OnRemoved, {
  name: "OnRemoved",
  description: "What replacing a suite does to scenarios it no longer names.",
  valuesConfig: {
    DESTROY: { description: "Deletes them from the suite (answered in `removed`); the default. Past runs keep their results." },
    DISABLE: { description: "Keeps them, disabled (answered in `disabled`): still listed, not run." },
  },
});

/**
 * A run's status as the read models keep it (upper case) or its history folds it (lower case).
 * PENDING is still named: a row written before runs started with their own stream may hold it.
 * Any other value is an internal error for the field, never a status the run does not have.
 */
export function runStatusOf(value: string): RunStatus {
  return enumValueOf(RunStatus, "run status", value);
}

/** A pair's status as the read models keep it (lower case); any other value is an internal error. */
export function resultStatusOf(value: string): ResultStatus {
  return enumValueOf(ResultStatus, "result status", value);
}

/**
 * A result's status as an imported report's event records it, read as the projector stores it
 * (importedRunProjection): reports imported before importReport checked statuses may hold any
 * value, and all but passed, failed and errored are kept as errored.
 */
export function importedResultStatusOf(value: unknown): ResultStatus {
  return value === "passed" || value === "failed" ? resultStatusOf(value) : ResultStatus.ERRORED;
}

function enumValueOf<T extends string>(values: Record<string, T>, what: string, value: string): T {
  const name = value.toUpperCase();
  if (!Object.hasOwn(values, name)) throw new Error(`unknown ${what} ${JSON.stringify(value)}: not one of ${Object.keys(values).join(", ")}`);
  return values[name];
}
