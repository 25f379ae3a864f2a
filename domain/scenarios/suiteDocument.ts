// Validation of one grouped suite document (`suite:` / `groups:`), reference-core §2.5, plus
// the bad-input rules: a repeated scenario key in one group, more than 2,000 scenarios.
import { isBlank, isPlainObject } from "../support/index.js";
import type { InputErrorClass } from "./errors.js";
import { assertScenarioCount } from "./limits.js";
import { assertDistinctKeys, assertIdentifier, readScenarioHash, scalarText } from "./scenarioFields.js";

export interface SuiteGroup {
  key: string | null;
  name: string | null;
  description: string | null;
  /** The scenario mappings as written (layering replaces whole entries). */
  scenarios: Array<Record<string, unknown>>;
}

export interface SuiteDocument {
  suite: string | null;
  description: string | null;
  groups: SuiteGroup[];
}

const GROUPS_RULE = "evaluation suite must contain a groups array";
const SCENARIOS_RULE = "each evaluation group must contain a scenarios array";

/**
 * Checks a parsed document and returns its groups. `requireGroups` is the parser's rule (a
 * pasted suite must have groups); a layered suite file may only rename or describe.
 */
export function readSuiteDocument(doc: unknown, Err: InputErrorClass, { requireGroups = false } = {}): SuiteDocument {
  if (doc === null || doc === undefined) doc = {};
  if (!isPlainObject(doc)) throw new Err(GROUPS_RULE);
  if (doc.groups === undefined && !requireGroups) return header(doc, Err, []);
  if (!Array.isArray(doc.groups)) throw new Err(GROUPS_RULE, { path: "groups" });
  const groups = doc.groups.map((group, index) => readGroup(group, `groups[${index}]`, Err));
  assertScenarioCount(groups.reduce((sum, group) => sum + group.scenarios.length, 0), Err, "evaluation suite");
  return header(doc, Err, groups);
}

function header(doc: Record<string, unknown>, Err: InputErrorClass, groups: SuiteGroup[]): SuiteDocument {
  return {
    suite: scalarText(doc.suite, "suite", Err),
    description: scalarText(doc.description, "description", Err),
    groups,
  };
}

function readGroup(group: unknown, path: string, Err: InputErrorClass): SuiteGroup {
  if (!isPlainObject(group)) throw new Err(SCENARIOS_RULE, { path });
  const scenarios = group.scenarios ?? [];
  if (!Array.isArray(scenarios)) throw new Err(SCENARIOS_RULE, { path: `${path}.scenarios` });
  const seen = new Map<string, number>();
  scenarios.forEach((entry, index) => {
    const entryPath = `${path}.scenarios[${index}]`;
    const scenario = readScenarioHash(entry, entryPath, Err);
    if (isBlank(scenario.key)) return;
    const first = seen.get(scenario.key);
    if (first !== undefined) throw new Err(`repeats key "${scenario.key}" (first at ${path}.scenarios[${first}])`, { path: `${entryPath}.key` });
    seen.set(scenario.key, index);
  });
  assertDistinctKeys([...seen.keys()], `${path}.scenarios`, Err, [...seen.values()]);
  const key = presentText(group.key, `${path}.key`, Err);
  assertIdentifier(key, `${path}.key`, Err);
  return {
    key,
    name: presentText(group.name, `${path}.name`, Err),
    description: presentText(group.description, `${path}.description`, Err),
    scenarios: scenarios as Array<Record<string, unknown>>,
  };
}

function presentText(value: unknown, path: string, Err: InputErrorClass): string | null {
  const text = scalarText(value, path, Err);
  return isBlank(text) ? null : text!.trim();
}
