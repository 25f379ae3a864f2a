// The built parts of a catalog: a Product holds Sets, a Set holds Scenarios (reference-core §4).
// `toH` gives each part's canonical mapping: fixed key order, empty values dropped.
import { isBlank } from "../support/index.js";
import type { ProductDoc, SetDoc } from "./catalogDocument.js";
import { InvalidDocument } from "./errors.js";
import { Scenario } from "./scenario.js";
import { readScenarioHash } from "./scenarioFields.js";

/** Drops nil, empty strings, empty lists and empty mappings from one level. */
export function compact(entries: Array<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    if (value === null || value === undefined || value === "") continue;
    if (typeof value === "object" && isBlank(value)) continue;
    out[key] = value;
  }
  return out;
}

export class ScenarioSet {
  readonly key: string;
  readonly name: string;
  readonly description: string | null;
  readonly judge: Readonly<Record<string, unknown>>;
  readonly criteria: ReadonlyArray<Record<string, unknown>>;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly position: number;
  readonly scenarios: readonly Scenario[];

  constructor(doc: SetDoc, position: number, path: string) {
    this.key = doc.key;
    this.name = doc.name ?? doc.key;
    this.description = doc.description;
    this.judge = doc.judge ?? {};
    this.criteria = doc.criteria ?? [];
    this.metadata = doc.metadata;
    this.position = position;
    this.scenarios = doc.scenarios.map((entry, index) => {
      const init = readScenarioHash(entry, `${path}.scenarios[${index}]`, InvalidDocument, { group: this.key, groupName: this.name });
      return new Scenario({ ...init, position: index });
    });
  }

  toH(): Record<string, unknown> {
    return compact([
      ["key", this.key],
      ["name", this.name],
      ["description", this.description],
      ["judge", this.judge],
      ["criteria", this.criteria],
      ["scenarios", this.scenarios.map(scenarioToH)],
      ...Object.entries(this.metadata),
    ]);
  }
}

/** A scenario's canonical mapping; `production_only` only when true. */
function scenarioToH(scenario: Scenario): Record<string, unknown> {
  return compact([
    ["key", scenario.key],
    ["prompt", scenario.prompt],
    ["expect", scenario.expectations],
    ["notes", scenario.notes],
    ["tags", [...scenario.tags]],
    ["params", { ...scenario.params }],
    ["production_only", scenario.productionOnly ? true : null],
  ]);
}

export class Product {
  readonly key: string;
  readonly name: string;
  readonly description: string | null;
  readonly agent: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly position: number;
  readonly sets: readonly ScenarioSet[];

  constructor(doc: ProductDoc, position: number) {
    this.key = doc.key;
    this.name = doc.name ?? doc.key;
    this.description = doc.description;
    this.agent = doc.agent;
    this.metadata = doc.metadata;
    this.position = position;
    this.sets = doc.sets.map((set, index) => new ScenarioSet(set, index, `products[${position}].sets[${index}]`));
  }

  get scenarios(): Scenario[] {
    return this.sets.flatMap((set) => set.scenarios);
  }

  toH(): Record<string, unknown> {
    return compact([
      ["key", this.key],
      ["name", this.name],
      ["description", this.description],
      ["agent", this.agent],
      ["sets", this.sets.map((set) => set.toH())],
      ...Object.entries(this.metadata),
    ]);
  }
}
