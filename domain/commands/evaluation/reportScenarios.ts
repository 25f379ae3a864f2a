// The scenarios an imported report upserts into its evaluation (reference-platform §1 #30:
// "evaluation … → scenarios upserted → one complete run"). Without them an evaluation made for
// a published report held no scenario, so it could never be run again from here.
//
// A report's results carry, per scenario, its key, prompt, group and expectations (`expect`:
// tools, contains, not_contains); each key is read from its first result. An upsert, not a
// merge's replacement: a key the evaluation already holds takes what the report carries (the
// scenario as the host evaluated it) and keeps what a report cannot say (notes, tags, params,
// production_only, position, enabled), so importing a run never erases the evaluation's own
// definition. A key whose results carry no prompt is not upserted: a report may leave its
// prompts out (the reference library writes none by default), and a scenario without a prompt
// could not be replayed, so it is left as the evaluation has it (absent, or its own).
import { isObject } from "../../report/documentRules.js";
import { parseOrThrow } from "../../events/zodIssues.js";
import type { EvaluationScenario } from "../../events/shared.js";
import { scenarioInput, type ScenarioInput } from "./evaluationCommands.js";

/** `expect` keys of a report's result, as the scenario fields they set. */
const EXPECT_FIELDS = { tools: "expected_tools", contains: "expected_patterns", not_contains: "forbidden_patterns" } as const;

/** What one result says of its scenario, beside its key and prompt (only what it carries). */
function carried(result: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of ["group", "group_name"]) if (result[key] !== undefined && result[key] !== null) fields[key] = result[key];
  if (isObject(result.expect)) {
    for (const [from, to] of Object.entries(EXPECT_FIELDS)) {
      const value = result.expect[from];
      if (value !== undefined && value !== null) fields[to] = value;
    }
  }
  return fields;
}

/** `keys` of `record`, as parsed. */
function pick(record: ScenarioInput, keys: readonly string[]): Partial<ScenarioInput> {
  return Object.fromEntries(keys.map((key) => [key, (record as Record<string, unknown>)[key]])) as Partial<ScenarioInput>;
}

/** The evaluation's own record as merge input: what the report does not carry stays as it is. */
function ownFields(existing: EvaluationScenario | undefined): Record<string, unknown> {
  if (!existing) return {};
  const { position: _position, enabled: _enabled, ...fields } = existing;
  return fields;
}

/**
 * A result the run's own checks refuse, naming its field as they always have (run/importedReport.ts:
 * its key's length and name, its texts' types): the evaluation is decided first, so it leaves
 * such a result to them rather than refusing it here in other words.
 */
function leftToTheRunsChecks(result: Record<string, unknown>): boolean {
  if (!scenarioInput.shape.key.safeParse(result.scenario_key).success) return true;
  return ["group", "group_name"].some((key) => result[key] !== undefined && result[key] !== null && typeof result[key] !== "string");
}

/**
 * Merge input for every scenario the report's results give a prompt, in the order the report
 * first names them. A value the evaluation could not store is refused naming the result's field
 * (`report.results[3].prompt`), so the import writes nothing.
 */
export function reportScenarios(report: Record<string, unknown>, current: readonly EvaluationScenario[]): ScenarioInput[] {
  const results = Array.isArray(report.results) ? report.results : [];
  const byKey = new Map(current.map((s) => [s.key, s]));
  const seen = new Set<string>();
  const inputs: ScenarioInput[] = [];
  results.forEach((result: unknown, i) => {
    if (!isObject(result) || typeof result.scenario_key !== "string" || seen.has(result.scenario_key) || leftToTheRunsChecks(result)) return;
    seen.add(result.scenario_key);
    if (typeof result.prompt !== "string" || result.prompt.trim() === "") return;
    const given = { ...carried(result), key: result.scenario_key, prompt: result.prompt };
    const checked = parseOrThrow(scenarioInput, given, "report scenario is invalid", `report.results[${i}]`);
    const existing = byKey.get(result.scenario_key);
    // Only what the report sends is checked: the evaluation's own fields are as they were
    // recorded (an older scenario's group may predate today's rules), and refusing them would
    // name a field of the report that the report never sent.
    inputs.push(existing ? ({ ...ownFields(existing), ...pick(checked, Object.keys(given)) } as ScenarioInput) : checked);
  });
  return inputs;
}
