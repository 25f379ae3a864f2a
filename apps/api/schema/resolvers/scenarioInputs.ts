// Scenarios arrive as pasted text (ScenarioParser) or as JSON records; both become the
// snake_case records the evaluation commands take. Exactly one of the two must be given.
import { ScenarioParser, type ParsedScenario } from "@verdict/domain";
import { ApiError } from "../../server/errors.js";

export interface ScenarioSource {
  scenariosText?: string | null;
  scenarios?: unknown;
  keyPrefix?: string | null;
  includeProductionOnly?: boolean | null;
}

function fromParsed(entry: ParsedScenario): Record<string, unknown> {
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
    if (!target) throw new ApiError("VALIDATION", `${field}: unknown key ${name}; it takes tools, contains, not_contains`, `${field}.${name}`);
    if (value !== null && value !== undefined) out[target] = value;
  }
  return out;
}

function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
}

export function scenarioRecords(source: ScenarioSource, reservedKeys: readonly string[] = [], required = true): unknown[] {
  const hasText = typeof source.scenariosText === "string";
  const hasJson = source.scenarios !== undefined && source.scenarios !== null;
  if (hasText && hasJson) throw new ApiError("VALIDATION", "give scenariosText or scenarios, not both", "scenarios");
  if (hasJson) {
    if (!Array.isArray(source.scenarios)) throw new ApiError("VALIDATION", "scenarios must be a list of scenario records", "scenarios");
    return source.scenarios.map(fromAnsweredShape);
  }
  if (!hasText) {
    if (required) throw new ApiError("VALIDATION", "give scenariosText or scenarios", "scenariosText");
    return [];
  }
  const parsed = ScenarioParser.parse(source.scenariosText as string, {
    reservedKeys,
    keyPrefix: source.keyPrefix ?? null,
    includeProductionOnly: source.includeProductionOnly ?? false,
  });
  if (required && parsed.length === 0) throw new ApiError("VALIDATION", "No scenarios found in the pasted text", "scenariosText");
  return parsed.map(fromParsed);
}
