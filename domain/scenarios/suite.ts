// A grouped YAML suite, layered: later documents override earlier ones by key, so a deployment
// can add or reword tasks (reference-core §3).
import { isBlank } from "../support/index.js";
import { InvalidDocument, located, NotFound } from "./errors.js";
import { documentName, readExisting, splitArgs } from "./documentFiles.js";
import { refuseOnlyEmpty } from "./emptyDocument.js";
import { Scenario } from "./scenario.js";
import { readScenarioHash } from "./scenarioFields.js";
import { readSuiteDocument, type SuiteDocument, type SuiteGroup } from "./suiteDocument.js";
import { readYaml } from "./yamlText.js";

export interface SuiteOptions {
  name?: string;
}

export interface SuiteSelection {
  groups?: readonly string[];
  keys?: readonly string[];
  includeProductionOnly?: boolean;
}

export class Suite {
  static readonly NotFound = NotFound;
  static readonly InvalidDocument = InvalidDocument;

  readonly name: string | null;
  readonly description: string | null;
  readonly groups: readonly SuiteGroup[];
  #scenarios: Scenario[] | null = null;

  /** Layers the YAML files that exist; none existing is NotFound. */
  static load(...args: Array<string | SuiteOptions>): Suite {
    const { paths, options } = splitArgs<SuiteOptions>(args);
    const files = readExisting(paths);
    if (files.length === 0) throw new NotFound(`no evaluation suite at ${paths.join(", ")}`);
    const documents = files.map((file) => located(file.path, () => parseSuiteYaml(file.text)));
    refuseOnlyEmpty(documents, "suite", files.map((file) => file.path));
    return new Suite(documents, { name: options.name ?? documentName(files[0].path), sources: files.map((file) => file.path) });
  }

  /** Documents as YAML text or already-parsed objects, layered in order. */
  static fromDocuments(...documents: unknown[]): Suite {
    const parsed = documents.map((doc, index) =>
      located(documents.length > 1 ? `documents[${index}]` : undefined, () => (typeof doc === "string" ? parseSuiteYaml(doc) : doc)),
    );
    return new Suite(parsed);
  }

  constructor(documents: readonly unknown[], options: SuiteOptions & { sources?: string[] } = {}) {
    const sourceOf = (index: number) => options.sources?.[index] ?? (documents.length > 1 ? `documents[${index}]` : undefined);
    const read = documents.map((doc, index) => located(sourceOf(index), () => readSuiteDocument(doc, InvalidDocument)));
    this.name = lastPresent(read.map((doc) => doc.suite)) ?? options.name ?? null;
    this.description = lastPresent(read.map((doc) => doc.description));
    this.groups = mergeGroups(read);
  }

  get groupKeys(): Array<string | null> {
    return this.groups.map((group) => group.key);
  }

  /** Every scenario, `position` its index within its group, grouped by the group's key and name. */
  allScenarios(): Scenario[] {
    this.#scenarios ??= this.groups.flatMap((group, groupIndex) =>
      group.scenarios.map((entry, index) => {
        const init = readScenarioHash(entry, `groups[${groupIndex}].scenarios[${index}]`, InvalidDocument, {
          group: group.key,
          groupName: group.name,
        });
        return new Scenario({ ...init, position: index });
      }),
    );
    return [...this.#scenarios];
  }

  scenarios({ groups, keys, includeProductionOnly = true }: SuiteSelection = {}): Scenario[] {
    return this.allScenarios().filter(
      (scenario) =>
        (!groups || groups.includes(scenario.group ?? "")) &&
        (!keys || keys.includes(scenario.key)) &&
        (includeProductionOnly || !scenario.productionOnly),
    );
  }

  find(key: string): Scenario {
    const found = this.allScenarios().find((scenario) => scenario.key === key);
    if (!found) throw new NotFound(`no scenario "${key}" in suite ${this.name ?? ""}`.trimEnd());
    return found;
  }
}

/** Null for an empty document: readSuiteDocument reads it as {}, and a load of only empty ones is refused. */
function parseSuiteYaml(text: string): unknown {
  return readYaml(text, InvalidDocument, "invalid evaluation suite YAML: ");
}

function lastPresent(values: Array<string | null>): string | null {
  for (let i = values.length - 1; i >= 0; i -= 1) if (values[i] !== null) return values[i];
  return null;
}

/** Same group key (two keyless groups too) merges; scenarios merge by key, whole entries. */
function mergeGroups(documents: SuiteDocument[]): SuiteGroup[] {
  const groups: SuiteGroup[] = [];
  for (const doc of documents) {
    for (const group of doc.groups) {
      const existing = groups.find((candidate) => candidate.key === group.key);
      if (!existing) {
        groups.push({ ...group, scenarios: [...group.scenarios] });
        continue;
      }
      if (group.name !== null) existing.name = group.name;
      if (group.description !== null) existing.description = group.description;
      for (const entry of group.scenarios) mergeScenario(existing.scenarios, entry);
    }
  }
  return groups;
}

function mergeScenario(scenarios: Array<Record<string, unknown>>, entry: Record<string, unknown>): void {
  const key = entry.key;
  const index = isBlank(key) ? -1 : scenarios.findIndex((candidate) => String(candidate.key ?? "") === String(key));
  if (index === -1) scenarios.push(entry);
  else scenarios[index] = entry;
}
