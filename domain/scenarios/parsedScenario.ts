// The attribute objects ScenarioParser.parse returns (reference-core §2.1): the guide's
// snake_case keys, in this order.
import type { ScenarioExpectations } from "./scenario.js";

export interface ParsedScenario {
  prompt: string;
  group: string | null;
  group_name: string | null;
  key: string;
  notes: string | null;
  expectations: ScenarioExpectations;
  production_only: boolean;
  position: number;
}

/** An entry as a reader produced it, before keys and positions are assigned; the line reader adds its line. */
export type ReadEntry = Omit<ParsedScenario, "key" | "position"> & { key: string | null; line?: number };

/** `{ tools, contains, not_contains }` in that order, empty lists dropped. */
export function expectationsOf(tools: string[], contains: string[], notContains: string[]): ScenarioExpectations {
  const out: ScenarioExpectations = {};
  if (tools.length) out.tools = tools;
  if (contains.length) out.contains = contains;
  if (notContains.length) out.not_contains = notContains;
  return out;
}
