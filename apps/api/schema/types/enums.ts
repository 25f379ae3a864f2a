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

/** The judge an evaluation asks for, as the events' `judge.kind` (lowercase there). */
export enum JudgeKind {
  RULES = "rules",
  LLM = "llm",
  JUDGE_DEFINED = "judge_defined",
}

registerEnumType(RunStatus, { name: "RunStatus", description: "A run is RUNNING from its start, then COMPLETED or FAILED; an imported run is COMPLETED. PENDING is no longer given (a run appears when it starts)." });
registerEnumType(ResultStatus, { name: "ResultStatus", description: "A pair is PENDING until scored PASSED, FAILED or ERRORED." });
registerEnumType(ReportTheme, { name: "ReportTheme", valuesConfig: { LIGHT: {}, DARK: {} } });
registerEnumType(RunOrigin, { name: "RunOrigin", description: "ENGINE: replayed by the workers; EXTERNAL: replayed by its host (recordReplay); IMPORTED: a report imported whole." });
registerEnumType(FixItemKind, { name: "FixItemKind", description: "FAULT: failures of one fault; INSTRUCTION: the judge's instruction change." });
registerEnumType(JudgeKind, { name: "JudgeKind", description: "RULES: rule criteria only; LLM: a model judge; JUDGE_DEFINED: judge-defined KPIs (not built yet: judged as LLM)." });
registerEnumType(OnRemoved, { name: "OnRemoved", description: "What replacing a suite does to scenarios it no longer names." });

export function runStatusOf(value: string): RunStatus {
  const upper = value.toUpperCase();
  if (upper === "COMPLETE") return RunStatus.COMPLETED;
  return (RunStatus as Record<string, RunStatus>)[upper] ?? RunStatus.PENDING;
}

export function resultStatusOf(value: string): ResultStatus {
  return (ResultStatus as Record<string, ResultStatus>)[value.toUpperCase()] ?? ResultStatus.PENDING;
}
