// One task an agent must handle: a prompt plus what a good answer shows.
// Field meanings follow reference-core.md §1; JSON keeps the guide's snake_case keys.
import { identifierTextProblem } from "../support/index.js";
import { InvalidDocument } from "./errors.js";
import type { ParsedScenario } from "./parsedScenario.js";
import { readScenarioHash, type ScenarioDefaults } from "./scenarioFields.js";

export interface ScenarioExpectations {
  tools?: string[];
  contains?: string[];
  not_contains?: string[];
}

export interface ScenarioInit {
  key: string;
  prompt: string;
  group?: string | null;
  groupName?: string | null;
  expectedTools?: string[];
  expectedPatterns?: string[];
  forbiddenPatterns?: string[];
  notes?: string | null;
  productionOnly?: boolean;
  position?: number | null;
  tags?: string[];
  params?: Record<string, unknown>;
}

/** Serialized form (reference-core §1 `to_h`: nil fields dropped). */
export interface ScenarioJSON {
  key: string;
  group?: string;
  group_name?: string;
  prompt: string;
  expected_tools: string[];
  expected_patterns: string[];
  forbidden_patterns: string[];
  notes?: string;
  production_only: boolean;
  position?: number;
  tags: string[];
  params: Record<string, unknown>;
}

// Only this module holds it: a caller of `new Scenario` cannot skip the checks.
const RECORDED = Symbol("recorded");

/** The library's own door (`new Scenario`): the same rule the parsers apply (support/identifierText). */
function checkIdentifiers(init: ScenarioInit): void {
  const fields: Array<[string, string | null | undefined]> = [
    ["key", init.key],
    ["group", init.group],
    ...(init.expectedTools ?? []).map((tool, i): [string, string] => [`expected_tools[${i}]`, tool]),
  ];
  for (const [path, text] of fields) {
    const problem = typeof text === "string" ? identifierTextProblem(text) : null;
    if (problem) throw new InvalidDocument(problem, { path });
  }
}

export class Scenario {
  readonly key: string;
  readonly prompt: string;
  readonly group: string | null;
  readonly groupName: string | null;
  readonly expectedTools: readonly string[];
  readonly expectedPatterns: readonly string[];
  readonly forbiddenPatterns: readonly string[];
  readonly notes: string | null;
  readonly productionOnly: boolean;
  readonly position: number | null;
  readonly tags: readonly string[];
  readonly params: Readonly<Record<string, unknown>>;

  /**
   * `Scenario.from_hash` (reference-core §1): `expectations` (else `expect`) wins over top-level
   * `tools` / `contains` / `not_contains`; group and group name fall back to `defaults`.
   * A malformed hash is an InvalidDocument naming the field.
   */
  static fromHash(attributes: unknown, defaults: ScenarioDefaults = {}): Scenario {
    return new Scenario(readScenarioHash(attributes, "scenario", InvalidDocument, defaults));
  }

  /**
   * A scenario as it was recorded (an event's or a stored report's), its key, group and tools
   * unchecked: rules added later refuse new input only, so what was stored still reads.
   */
  static recorded(init: ScenarioInit): Scenario {
    return new Scenario(init, RECORDED);
  }

  /** Rebuilds a scenario from its `toJSON()` form (an event's or a report's snapshot). */
  static fromJSON(json: ScenarioJSON): Scenario {
    return Scenario.recorded({
      key: json.key,
      prompt: json.prompt,
      group: json.group,
      groupName: json.group_name,
      expectedTools: json.expected_tools,
      expectedPatterns: json.expected_patterns,
      forbiddenPatterns: json.forbidden_patterns,
      notes: json.notes,
      productionOnly: json.production_only,
      position: json.position,
      tags: json.tags,
      params: json.params,
    });
  }

  /** A Scenario from one of ScenarioParser.parse's attribute objects. */
  static fromParsed(entry: ParsedScenario): Scenario {
    return new Scenario({
      key: entry.key,
      prompt: entry.prompt,
      group: entry.group,
      groupName: entry.group_name,
      expectedTools: entry.expectations.tools,
      expectedPatterns: entry.expectations.contains,
      forbiddenPatterns: entry.expectations.not_contains,
      notes: entry.notes,
      productionOnly: entry.production_only,
      position: entry.position,
    });
  }

  /** A key, group or tool name holding an invisible, control or bidi character, or not in NFC, is an InvalidDocument naming it. */
  constructor(init: ScenarioInit, recorded?: typeof RECORDED) {
    if (recorded !== RECORDED) checkIdentifiers(init);
    this.key = init.key;
    this.prompt = init.prompt;
    this.group = init.group ?? null;
    this.groupName = init.groupName ?? null;
    this.expectedTools = [...(init.expectedTools ?? [])];
    this.expectedPatterns = [...(init.expectedPatterns ?? [])];
    this.forbiddenPatterns = [...(init.forbiddenPatterns ?? [])];
    this.notes = init.notes ?? null;
    this.productionOnly = init.productionOnly === true;
    this.position = init.position ?? null;
    this.tags = [...(init.tags ?? [])];
    this.params = { ...(init.params ?? {}) };
  }

  /** `{ tools, contains, not_contains }` in that order, empty lists removed. */
  get expectations(): ScenarioExpectations {
    const out: ScenarioExpectations = {};
    if (this.expectedTools.length) out.tools = [...this.expectedTools];
    if (this.expectedPatterns.length) out.contains = [...this.expectedPatterns];
    if (this.forbiddenPatterns.length) out.not_contains = [...this.forbiddenPatterns];
    return out;
  }

  toJSON(): ScenarioJSON {
    const json: ScenarioJSON = {
      key: this.key,
      prompt: this.prompt,
      expected_tools: [...this.expectedTools],
      expected_patterns: [...this.expectedPatterns],
      forbidden_patterns: [...this.forbiddenPatterns],
      production_only: this.productionOnly,
      tags: [...this.tags],
      params: { ...this.params },
    };
    if (this.group !== null) json.group = this.group;
    if (this.groupName !== null) json.group_name = this.groupName;
    if (this.notes !== null) json.notes = this.notes;
    if (this.position !== null) json.position = this.position;
    return json;
  }
}
