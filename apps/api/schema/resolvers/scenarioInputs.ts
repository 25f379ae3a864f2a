// Scenarios arrive as pasted text (ScenarioParser) or as JSON records; both become the
// snake_case records the evaluation commands take. At most one of the two is given, and one
// that is given must select at least one scenario (guide: "a selection containing no scenarios
// returns an import error"). Production-only scenarios are selected here, at import, from both.
import { expectationKeyProblem, scenarioInput, ScenarioParser, type ParsedScenario } from "@verdict/domain";
import { ApiError } from "../../server/errors.js";
import { fromArgument } from "./inputArgument.js";

interface ScenarioSource {
  scenariosText?: string | null;
  scenarios?: unknown;
  keyPrefix?: string | null;
  includeProductionOnly?: boolean | null;
}

/**
 * How each mutation reads its scenarios. Create and replace take the input as the suite: the
 * parser's positions are kept (a re-sent document then reports its scenarios unchanged), and
 * production-only scenarios are left out unless asked for, as the guide's dashboard does. A
 * merge adds to a suite: as the guide's example, it drops the parser's positions (new keys go
 * after the suite's last) and keeps production-only scenarios, the parser's own default.
 */
type ScenarioUse = "create" | "replace" | "merge";

const USES: Record<ScenarioUse, { required: boolean; productionOnly: boolean; positions: boolean }> = {
  // Neither source given makes an evaluation with no scenarios yet, to merge into or import
  // reports into; replace and merge have nothing to do without one.
  create: { required: false, productionOnly: false, positions: true },
  replace: { required: true, productionOnly: false, positions: true },
  merge: { required: true, productionOnly: true, positions: false },
};

/** The reference's answer when a given source selects nothing (reference-platform feature 3). */
export const NOTHING_MATCHED = "No scenarios matched the import. Check the catalog or include_production_only selection.";

function fromParsed(entry: ParsedScenario, keepPosition: boolean): Record<string, unknown> {
  return {
    key: entry.key,
    prompt: entry.prompt,
    ...(entry.group !== null ? { group: entry.group } : {}),
    ...(entry.group_name !== null ? { group_name: entry.group_name } : {}),
    ...(entry.notes !== null ? { notes: entry.notes } : {}),
    expected_tools: entry.expectations.tools ?? [],
    expected_patterns: entry.expectations.contains ?? [],
    forbidden_patterns: entry.expectations.not_contains ?? [],
    production_only: entry.production_only,
    ...(keepPosition ? { position: entry.position } : {}),
  };
}

/** The record fields an `expectations` object (the shape the API returns) stands for. */
const EXPECTATION_FIELDS: Readonly<Record<string, string>> = {
  tools: "expected_tools",
  contains: "expected_patterns",
  not_contains: "forbidden_patterns",
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A JSON record as the API answers one may be sent back as it is: its expectations as
 * `{ tools, contains, not_contains }`, `groupName` as `group_name`, a field it answers null (no
 * group, no notes) as absent, and the `__typename` GraphQL clients add left out.
 */
function fromAnsweredShape(record: unknown, index: number): unknown {
  if (!isObject(record)) return record;
  const { expectations, groupName, __typename: _typename, ...rest } = withoutNulls(record);
  if (groupName !== undefined) {
    const field = `scenarios[${index}].groupName`;
    if ("group_name" in rest) throw new ApiError("VALIDATION", `${field}: give groupName or group_name, not both`, field);
    rest.group_name = groupName;
  }
  if (expectations === undefined) return rest;
  const field = `scenarios[${index}].expectations`;
  if (!isObject(expectations)) throw new ApiError("VALIDATION", `${field} must be an object { tools, contains, not_contains }`, field);
  const doubled = Object.values(EXPECTATION_FIELDS).filter((name) => name in rest);
  if (doubled.length > 0) throw new ApiError("VALIDATION", `${field}: give expectations or ${doubled.join(", ")}, not both`, field);
  const out: Record<string, unknown> = { ...rest };
  for (const [name, value] of Object.entries(expectations)) {
    const target = EXPECTATION_FIELDS[name];
    if (!target) throw new ApiError("VALIDATION", `${field}.${name}: ${expectationKeyProblem(name)}`, `${field}.${name}`);
    if (value !== null && value !== undefined) out[target] = value;
  }
  return out;
}

function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
}

/** Which of the two sources the input gives; both is VALIDATION. */
export function givenSource(source: ScenarioSource): "scenariosText" | "scenarios" | null {
  const hasText = typeof source.scenariosText === "string";
  const hasList = source.scenarios !== undefined && source.scenarios !== null;
  if (hasText && hasList) throw new ApiError("VALIDATION", "give scenariosText or scenarios, not both", "scenarios");
  return hasText ? "scenariosText" : hasList ? "scenarios" : null;
}

export function scenarioRecords(source: ScenarioSource, use: ScenarioUse, reservedKeys: readonly string[] = []): unknown[] {
  const rules = USES[use];
  const field = givenSource(source);
  if (field === null) {
    if (rules.required) throw new ApiError("VALIDATION", "give scenariosText or scenarios", "scenariosText");
    return [];
  }
  const records = field === "scenarios" ? listRecords(source.scenarios).map((record) => ({ record, where: null })) : textRecords(source, reservedKeys, rules.positions);
  if (records.length === 0) {
    const where = field === "scenarios" ? "in the list" : "in the pasted text";
    throw new ApiError("VALIDATION", `No scenarios found ${where}`, field);
  }
  const selected = (source.includeProductionOnly ?? rules.productionOnly) ? records : records.filter(({ record }) => !isProductionOnly(record));
  // Every scenario was production-only: say so, rather than that the text held none.
  if (selected.length === 0) throw new ApiError("VALIDATION", NOTHING_MATCHED, field);
  for (const { record, where } of selected) if (where) storableFromText(record, where);
  return selected.map(({ record }) => withoutProductionFlag(record));
}

/**
 * A scenario read from the text that the suite cannot hold (a prompt or key over its limit) is
 * refused here, naming the argument and where in the text: the command named it
 * `scenarios[0].prompt`, a field the request never sent. Records given as JSON are the
 * command's to check, as the request's own `scenarios[i]`.
 */
function storableFromText(record: unknown, where: string): void {
  const checked = scenarioInput.safeParse(record);
  if (checked.success) return;
  const issue = checked.error.issues[0];
  throw new ApiError("VALIDATION", `${where}: ${issue.path.join(".")}: ${issue.message}`, "scenariosText");
}

/**
 * The suite keeps what was selected, not the flag it was selected by (guide: "the dashboard
 * stores only the selected scenarios ..., not ... environment flags"). Stored, the flag was
 * not answered, so a suite sent back as answered reported its production-only scenarios updated.
 */
export function withoutProductionFlag<T>(record: T): T {
  if (!isObject(record) || !("production_only" in record)) return record;
  const { production_only: _flag, ...rest } = record;
  return rest as T;
}

function listRecords(list: unknown): unknown[] {
  if (!Array.isArray(list)) throw new ApiError("VALIDATION", "scenarios must be a list of scenario records", "scenarios");
  return list.map(fromAnsweredShape);
}

/**
 * Parsed with every scenario kept, so a text whose scenarios were all filtered out is told apart
 * from an empty one; each with where it is in the text, its line or, read from JSON or YAML, its place.
 */
function textRecords(source: ScenarioSource, reservedKeys: readonly string[], keepPositions: boolean): { record: Record<string, unknown>; where: string }[] {
  const parsed = fromArgument(
    "scenariosText",
    () => ScenarioParser.located(source.scenariosText as string, { reservedKeys, keyPrefix: source.keyPrefix ?? null, includeProductionOnly: true }),
    (error) => (error.path === "keyPrefix" ? "keyPrefix" : undefined),
  );
  return parsed.map(({ scenario, line }, i) => ({ record: fromParsed(scenario, keepPositions), where: line ? `line ${line}` : `scenario ${i + 1}` }));
}

function isProductionOnly(record: unknown): boolean {
  return isObject(record) && record.production_only === true;
}
