// The rules of replacing and merging an evaluation's scenarios (reference-platform features 4
// and 5, guide "Refreshing a suite" / "Adding to a suite"), as pure plans the decider turns
// into one event. A refused change throws before anything is decided, so nothing is written.
import { DomainError } from "../../events/domainError.js";
import type { EvaluationScenario } from "../../events/shared.js";
import type { ScenarioInput } from "./evaluationCommands.js";

export interface ScenarioChanges {
  scenarios: EvaluationScenario[];
  added: string[];
  updated: string[];
  unchanged: string[];
}

export interface ReplacePlan extends ScenarioChanges {
  removed: string[];
  disabled: string[];
}

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** Builds a stored record in one fixed key order, dropping absent optional fields. */
function toRecord(input: ScenarioInput, position: number, enabled: boolean): EvaluationScenario {
  const record: Record<string, unknown> = { key: input.key, prompt: input.prompt };
  if (present(input.group)) record.group = input.group;
  if (present(input.group_name)) record.group_name = input.group_name;
  record.expected_tools = [...input.expected_tools];
  record.expected_patterns = [...input.expected_patterns];
  record.forbidden_patterns = [...input.forbidden_patterns];
  if (present(input.notes)) record.notes = input.notes;
  record.production_only = input.production_only;
  record.position = position;
  record.tags = [...input.tags];
  record.params = { ...input.params };
  record.enabled = enabled;
  return record as EvaluationScenario;
}

/** JSON with object keys sorted, so equal records compare equal whatever their key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function sameScenario(a: EvaluationScenario, b: EvaluationScenario): boolean {
  return stableJson(a) === stableJson(b);
}

/** Blank keys, blank prompts and repeated keys refuse the whole input. */
function checkInput(inputs: readonly ScenarioInput[], blankKeyMessage: string): void {
  inputs.forEach((input, i) => {
    if (input.key.trim() === "") throw DomainError.validation(blankKeyMessage, `scenarios[${i}].key`);
  });
  inputs.forEach((input, i) => {
    if (input.prompt.trim() === "") throw DomainError.validation(`scenario "${input.key}" has no prompt`, `scenarios[${i}].prompt`);
  });
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const { key } of inputs) {
    if (seen.has(key) && !repeated.includes(key)) repeated.push(key);
    seen.add(key);
  }
  if (repeated.length) throw DomainError.validation(`scenario keys repeat: ${repeated.join(", ")}`, "scenarios");
}

function classify(record: EvaluationScenario, existing: EvaluationScenario | undefined, changes: ScenarioChanges): void {
  changes.scenarios.push(record);
  if (!existing) changes.added.push(record.key);
  else if (sameScenario(existing, record)) changes.unchanged.push(record.key);
  else changes.updated.push(record.key);
}

/**
 * The input is the whole suite. Surviving keys keep their enabled flag unless the input sets
 * it; new keys are enabled unless set; keys not named are dropped (destroy) or disabled.
 */
export function planReplace(
  current: readonly EvaluationScenario[],
  inputs: readonly ScenarioInput[],
  onRemoved: "destroy" | "disable",
  limit: number,
): ReplacePlan {
  if (inputs.length === 0) throw DomainError.validation("No scenarios found in the pasted text", "scenarios");
  checkInput(inputs, "every scenario needs a key");
  if (inputs.length > limit) {
    throw DomainError.validation(`Scenario limit reached (${limit} per evaluation): the replacement holds ${inputs.length}`, "scenarios");
  }
  const byKey = new Map(current.map((s) => [s.key, s]));
  const plan: ReplacePlan = { scenarios: [], added: [], updated: [], unchanged: [], removed: [], disabled: [] };
  inputs.forEach((input, i) => {
    const existing = byKey.get(input.key);
    classify(toRecord(input, input.position ?? i, input.enabled ?? existing?.enabled ?? true), existing, plan);
  });
  const named = new Set(inputs.map((s) => s.key));
  for (const scenario of current) {
    if (named.has(scenario.key)) continue;
    if (onRemoved === "destroy") plan.removed.push(scenario.key);
    else if (scenario.enabled) plan.disabled.push(scenario.key);
  }
  return plan;
}

export function replaceChangesAnything(plan: ReplacePlan): boolean {
  return plan.added.length + plan.updated.length + plan.removed.length + plan.disabled.length > 0;
}

/**
 * The input adds to the suite. Named existing keys take the given content (omitted group,
 * notes and expectations are cleared) and keep position and enabled unless given; new keys
 * go after the last position in input order. Over the limit the whole merge is refused.
 */
export function planMerge(current: readonly EvaluationScenario[], inputs: readonly ScenarioInput[], limit: number): ScenarioChanges {
  checkInput(inputs, "every merged scenario needs a key");
  const byKey = new Map(current.map((s) => [s.key, s]));
  const adds = inputs.filter((s) => !byKey.has(s.key)).length;
  if (current.length + adds > limit) {
    throw DomainError.validation(
      `Scenario limit reached (${limit} per evaluation): the evaluation holds ${current.length} and this merge adds ${adds}`,
      "scenarios",
    );
  }
  let next = current.reduce((max, s) => Math.max(max, s.position), -1) + 1;
  const changes: ScenarioChanges = { scenarios: [], added: [], updated: [], unchanged: [] };
  for (const input of inputs) {
    const existing = byKey.get(input.key);
    const position = existing ? (input.position ?? existing.position) : next++;
    classify(toRecord(input, position, input.enabled ?? existing?.enabled ?? true), existing, changes);
  }
  return changes;
}

/** Scenarios in run order: by position, ties in the order they were stored. */
export function byPosition(scenarios: readonly EvaluationScenario[]): EvaluationScenario[] {
  return scenarios.map((s, i) => ({ s, i })).sort((a, b) => a.s.position - b.s.position || a.i - b.i).map(({ s }) => s);
}
