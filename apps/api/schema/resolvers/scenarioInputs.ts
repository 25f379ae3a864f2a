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

export function scenarioRecords(source: ScenarioSource, reservedKeys: readonly string[] = [], required = true): unknown[] {
  const hasText = typeof source.scenariosText === "string";
  const hasJson = source.scenarios !== undefined && source.scenarios !== null;
  if (hasText && hasJson) throw new ApiError("VALIDATION", "give scenariosText or scenarios, not both", "scenarios");
  if (hasJson) {
    if (!Array.isArray(source.scenarios)) throw new ApiError("VALIDATION", "scenarios must be a list of scenario records", "scenarios");
    return source.scenarios;
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
