// One catalog document, checked and normalized (reference-core §4): products -> sets ->
// scenarios, unknown keys kept as metadata, a suite document read as a one-product catalog.
// Errors name the document path (`products[1].sets[0].scenarios[3].prompt: scenario "k" has no prompt`).
import { isBlank, isPlainObject, likelyMeant } from "../support/index.js";
import { criteriaProblem } from "../scoring/criterionConfig.js";
import { AGENT_NAME_MAX, JUDGE_MODEL_MAX, RESERVED_NAME_RULE, isReservedName, judgeKind } from "../events/shared.js";
import { InvalidDocument } from "./errors.js";
import { assertScenarioCount } from "./limits.js";
import { assertDistinctKeys, assertIdentifier, readScenarioHash, scalarText } from "./scenarioFields.js";
import { readSuiteDocument } from "./suiteDocument.js";

const CATALOG_KEYS = ["catalog", "name", "description", "products", "suite", "groups"];
const PRODUCT_KEYS = ["key", "name", "description", "agent", "sets"];
const SET_KEYS = ["key", "name", "description", "judge", "criteria", "scenarios"];
const SCENARIO_KEYS = ["key", "prompt", "expect", "expectations", "tools", "contains", "not_contains", "notes", "tags", "params", "production_only", "position"];
/** A suite's group, read as a set: what it takes (anything else is dropped). */
const GROUP_KEYS = ["key", "name", "description", "scenarios"];

/**
 * The product's own names for a scenario's checks (its JSON, its events, its scoring criterion
 * `expected_tools`): further than two edits from `expect`, and copied from a report they made a
 * scenario with no checks that passed any answer.
 */
const SCENARIO_ALIASES: Readonly<Record<string, string>> = {
  expected_tools: "expect.tools",
  expected_patterns: "expect.contains",
  forbidden_patterns: "expect.not_contains",
};

/** How one level of the document reads its keys, for the near-miss warning and refusal. */
interface Level {
  /** The plural the messages use: `not a key sets read`. */
  readers: string;
  /** The singular the refusal uses: `a set without scenarios`. */
  one: string;
  known: readonly string[];
  /** The list keys that hold the level's scenarios: missing, the level would import empty. */
  lists: readonly string[];
  /** What becomes of an unknown key: `kept as metadata` or `ignored`. */
  fate: string;
  aliases?: Readonly<Record<string, string>>;
}

const CATALOG_LEVEL: Level = { readers: "catalogs", one: "catalog", known: CATALOG_KEYS, lists: ["products", "groups"], fate: "kept as metadata" };
const PRODUCT_LEVEL: Level = { readers: "products", one: "product", known: PRODUCT_KEYS, lists: ["sets"], fate: "kept as metadata" };
const SET_LEVEL: Level = { readers: "sets", one: "set", known: SET_KEYS, lists: ["scenarios"], fate: "kept as metadata" };
const GROUP_LEVEL: Level = { readers: "groups", one: "group", known: GROUP_KEYS, lists: ["scenarios"], fate: "ignored" };
const SCENARIO_LEVEL: Level = { readers: "scenarios", one: "scenario", known: SCENARIO_KEYS, lists: [], fate: "ignored", aliases: SCENARIO_ALIASES };

export interface SetDoc {
  key: string;
  name: string | null;
  description: string | null;
  judge: Record<string, unknown> | null;
  criteria: Array<Record<string, unknown>> | null;
  scenarios: Array<Record<string, unknown>>;
  metadata: Record<string, unknown>;
}

export interface ProductDoc {
  key: string;
  name: string | null;
  description: string | null;
  agent: string | null;
  sets: SetDoc[];
  metadata: Record<string, unknown>;
}

export interface CatalogDoc {
  catalog: string | null;
  /** A suite document without `suite:` is keyed by the `name` option (a file's name), not by itself. */
  catalogFromName: boolean;
  name: string | null;
  description: string | null;
  products: ProductDoc[];
  metadata: Record<string, unknown>;
  /**
   * A key the format does not read but a typo away from one it does (support/likelyMeant.ts) (`expcet:`, `juge:`), or a
   * scenario's check under the product's own name (`expected_tools:`): ignored or kept as
   * metadata as any unknown key is, but said, since what it held silently vanished.
   */
  warnings: string[];
}

export function readCatalogDocument(doc: unknown, defaultName: string | null): CatalogDoc {
  if (doc === null || doc === undefined) doc = {};
  if (!isPlainObject(doc)) throw new InvalidDocument("a scenario catalog is a YAML mapping");
  const isSuite = ("suite" in doc || "groups" in doc) && !("products" in doc) && !("catalog" in doc);
  const warnings: string[] = [];
  const misses = nearMisses(doc, CATALOG_LEVEL);
  refuseEmptied(doc, null, CATALOG_LEVEL, misses);
  warn(warnings, null, CATALOG_LEVEL, misses);
  if (isSuite && Array.isArray(doc.groups)) {
    doc.groups.forEach((group, index) => {
      if (!isPlainObject(group)) return;
      const path = `groups[${index}]`;
      const groupMisses = nearMisses(group, GROUP_LEVEL);
      refuseEmptied(group, path, GROUP_LEVEL, groupMisses);
      warn(warnings, path, GROUP_LEVEL, groupMisses);
    });
  }
  const source = isSuite ? suiteAsCatalog(doc, defaultName) : doc;
  const products = asSuitePaths(isSuite, () =>
    listAt(source.products, "products").map((product, index) => readProduct(product, `products[${index}]`, warnings)),
  );
  assertScenarioCount(countScenarios(products), InvalidDocument, "catalog document");
  return {
    catalog: text(source.catalog, "catalog"),
    catalogFromName: isSuite && text(doc.suite, "suite") === null && defaultName !== null,
    name: text(source.name, "name"),
    description: text(source.description, "description"),
    products,
    metadata: without(doc, CATALOG_KEYS),
    warnings: isSuite ? warnings.map((line) => line.replace(/^products\[0\]\.sets\[/, "groups[")) : warnings,
  };
}

/**
 * A suite document becomes one product whose sets are its groups (the guide's promise). Its
 * name and description are the catalog's as well as the product's, as the reference normalizes
 * it: the catalog lost them, so its canonical document and listing had neither.
 */
function suiteAsCatalog(doc: Record<string, unknown>, defaultName: string | null): Record<string, unknown> {
  const suite = readSuiteDocument(doc, InvalidDocument);
  const key = text(doc.suite, "suite") ?? defaultName ?? "default";
  const name = text(doc.name, "name");
  const sets = suite.groups.map((group) => ({ key: group.key, name: group.name, description: group.description, scenarios: group.scenarios }));
  return { catalog: key, name, description: suite.description, products: [{ key, name: name ?? key, description: suite.description, sets }] };
}

/** A suite read as a catalog reports its errors in the suite's own terms (`groups[2]...`). */
function asSuitePaths<T>(isSuite: boolean, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!isSuite || !(error instanceof InvalidDocument) || !error.path?.startsWith("products[0].sets[")) throw error;
    throw new InvalidDocument(error.rule, { path: error.path.replace("products[0].sets[", "groups[") });
  }
}

function readProduct(product: unknown, path: string, warnings: string[]): ProductDoc {
  if (!isPlainObject(product)) throw new InvalidDocument("must be a mapping", { path });
  const misses = nearMisses(product, PRODUCT_LEVEL);
  refuseEmptied(product, path, PRODUCT_LEVEL, misses);
  const key = requiredKey(product.key, `${path}.key`, `a product has no key${hintFor("key", misses)}`);
  warn(warnings, path, PRODUCT_LEVEL, misses);
  return {
    key,
    name: text(product.name, `${path}.name`),
    description: text(product.description, `${path}.description`),
    agent: agentName(product.agent, `${path}.agent`),
    sets: listAt(product.sets, `${path}.sets`).map((set, index) => readSet(set, `${path}.sets[${index}]`, key, warnings)),
    metadata: without(product, PRODUCT_KEYS),
  };
}

function readSet(set: unknown, path: string, product: string, warnings: string[]): SetDoc {
  if (!isPlainObject(set)) throw new InvalidDocument("must be a mapping", { path });
  const misses = nearMisses(set, SET_LEVEL);
  refuseEmptied(set, path, SET_LEVEL, misses);
  const key = requiredKey(set.key, `${path}.key`, `a set of product "${product}" has no key${hintFor("key", misses)}`);
  warn(warnings, path, SET_LEVEL, misses);
  const seen = new Map<string, number>();
  const scenarios = listAt(set.scenarios, `${path}.scenarios`).map((entry, index) => {
    const scenario = readScenario(entry, `${path}.scenarios[${index}]`, key, warnings);
    const first = seen.get(scenario.key as string);
    if (first !== undefined) {
      throw new InvalidDocument(`repeats key "${scenario.key}" (first at ${path}.scenarios[${first}])`, { path: `${path}.scenarios[${index}].key` });
    }
    seen.set(scenario.key as string, index);
    return scenario;
  });
  assertDistinctKeys([...seen.keys()], `${path}.scenarios`, InvalidDocument);
  return {
    key,
    name: text(set.name, `${path}.name`),
    description: text(set.description, `${path}.description`),
    judge: judgeAt(set.judge, `${path}.judge`),
    criteria: criteriaAt(set.criteria, `${path}.criteria`),
    scenarios,
    metadata: without(set, SET_KEYS),
  };
}

/** Only the scenario keys the format defines are kept; the rest are ignored, not written back. */
function readScenario(entry: unknown, path: string, set: string, warnings: string[]): Record<string, unknown> {
  if (!isPlainObject(entry)) throw new InvalidDocument("must be a mapping", { path });
  const misses = nearMisses(entry, SCENARIO_LEVEL);
  const key = requiredKey(entry.key, `${path}.key`, `a scenario in set "${set}" has no key${hintFor("key", misses)}`);
  // A scalar prompt reads as its text, as the reference's `to_s` does (`prompt: 42` -> "42").
  const prompt = scalarText(entry.prompt, `${path}.prompt`, InvalidDocument);
  if (prompt === null || isBlank(prompt)) {
    // `promt:` is why, and the near-miss warning below is never reached: the error says it.
    throw new InvalidDocument(`scenario "${key}" has no prompt${hintFor("prompt", misses)}`, { path: `${path}.prompt` });
  }
  const kept: Record<string, unknown> = { key, prompt };
  for (const name of SCENARIO_KEYS) if (name !== "key" && name !== "prompt" && entry[name] !== undefined) kept[name] = entry[name];
  readScenarioHash(kept, path, InvalidDocument);
  warn(warnings, path, SCENARIO_LEVEL, misses);
  return kept;
}

/** A near-miss key of a mapping and the key it likely meant. */
interface NearMiss {
  name: string;
  meant: string;
}

/** The keys of `mapping` the level does not read but a typo away from one it does (likelyMeant), or one of its aliases. */
function nearMisses(mapping: Record<string, unknown>, level: Level): NearMiss[] {
  const misses: NearMiss[] = [];
  for (const name of Object.keys(mapping)) {
    if (level.known.includes(name)) continue;
    const meant = level.aliases?.[name.toLowerCase()] ?? likelyMeant(name, level.known);
    if (meant) misses.push({ name, meant });
  }
  return misses;
}

function at(path: string | null, name: string): string {
  return path === null ? name : `${path}.${name}`;
}

function warn(warnings: string[], path: string | null, level: Level, misses: NearMiss[]): void {
  for (const { name, meant } of misses) warnings.push(`${at(path, name)}: not a key ${level.readers} read; did you mean ${meant}? (${level.fate})`);
}

/**
 * A level without the list that holds its scenarios but with a key likely meant for it
 * (`prodcts:`, `scenarois:`) is refused: kept as metadata, as reference-core §4 keeps unknown
 * keys, it imported as an empty catalog or set, which removed every scenario it held and
 * disabled them in every evaluation made from it, with exit 0.
 */
function refuseEmptied(mapping: Record<string, unknown>, path: string | null, level: Level, misses: NearMiss[]): void {
  if (level.lists.some((list) => mapping[list] !== undefined && mapping[list] !== null)) return;
  // Only a near miss holding a list is the list misspelt: `setup: true` on a product, `group:
  // billing` on a catalog are a host's own metadata (they imported before, and still warn).
  // A catalog (`catalog:`) reads no groups, so a near miss of groups is not its list either.
  const isCatalog = level === CATALOG_LEVEL && "catalog" in mapping;
  const miss = misses.find(({ name, meant }) => level.lists.includes(meant) && Array.isArray(mapping[name]) && !(isCatalog && meant === "groups"));
  if (!miss) return;
  const one = miss.meant === "groups" ? "suite" : level.one;
  throw new InvalidDocument(
    `not a key ${level.readers} read; did you mean ${miss.meant}? (a ${one} without ${miss.meant} would remove every scenario it held)`,
    { path: at(path, miss.name) },
  );
}

/** Why a required field is missing when a near-miss key holds it: ` (it has promt:; did you mean prompt?)`. */
function hintFor(field: string, misses: NearMiss[]): string {
  const miss = misses.find(({ meant }) => meant === field);
  return miss ? ` (it has ${miss.name}:; did you mean ${field}?)` : "";
}

function requiredKey(value: unknown, path: string, reason: string): string {
  const key = text(value, path);
  if (key === null) throw new InvalidDocument(reason, { path });
  if (isReservedName(key)) throw new InvalidDocument(RESERVED_NAME_RULE, { path });
  assertIdentifier(key, path, InvalidDocument);
  return key;
}

/** A present scalar as trimmed text, else null. */
function text(value: unknown, path: string): string | null {
  const out = scalarText(value, path, InvalidDocument);
  return out === null || isBlank(out) ? null : out.trim();
}

/** A product's agent: what its sets' evaluations are created for, so at most AGENT_NAME_MAX characters, as createEvaluation takes it. */
function agentName(value: unknown, path: string): string | null {
  const name = text(value, path);
  if (name !== null && name.length > AGENT_NAME_MAX) throw new InvalidDocument(`must be at most ${AGENT_NAME_MAX} characters (it has ${name.length})`, { path });
  return name;
}

function listAt(value: unknown, path: string): unknown[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidDocument("must be a list", { path });
  return value;
}

function mappingAt(value: unknown, path: string): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) throw new InvalidDocument("must be a mapping", { path });
  return Object.keys(value).length ? value : null;
}

/** A set's judge keeps only what an evaluation made of the set reads: its kind and its model. */
const JUDGE_KEYS = ["kind", "model"];

// A set's judge becomes an evaluation's: refused here, with the document's path, rather than
// when an evaluation is made of the set (which named `judge.kind`, a field its caller never sent).
function judgeAt(value: unknown, path: string): Record<string, unknown> | null {
  const judge = mappingAt(value, path);
  if (judge === null) return null;
  for (const name of Object.keys(judge)) {
    if (!JUDGE_KEYS.includes(name)) throw new InvalidDocument("unknown key; a set's judge takes kind and model", { path: `${path}.${name}` });
  }
  const { kind, model } = judge;
  const kinds = judgeKind.options as readonly unknown[];
  if (kind !== undefined && kind !== null && !kinds.includes(kind)) {
    throw new InvalidDocument(`must be ${kinds.slice(0, -1).join(", ")} or ${kinds.at(-1)}`, { path: `${path}.kind` });
  }
  if (model !== undefined && model !== null && (typeof model !== "string" || isBlank(model) || model.length > JUDGE_MODEL_MAX)) {
    throw new InvalidDocument(`must be a model name: non-blank text of at most ${JUDGE_MODEL_MAX} characters`, { path: `${path}.model` });
  }
  // A model name, as a run's models are (support/identifierText): the report names its judge by it.
  assertIdentifier(typeof model === "string" ? model.trim() : null, `${path}.model`, InvalidDocument);
  return judge;
}

function criteriaAt(value: unknown, path: string): Array<Record<string, unknown>> | null {
  const list = listAt(value, path);
  // A set's criteria become an evaluation's: refused here, not when an evaluation is made of it.
  const criteria = list.map((item, index) => {
    if (!isPlainObject(item)) throw new InvalidDocument("must be a mapping", { path: `${path}[${index}]` });
    const at = `${path}[${index}]`;
    for (const field of ["key", "type"]) {
      if (typeof item[field] !== "string" || isBlank(item[field])) throw new InvalidDocument("required, a non-blank string", { path: `${at}.${field}` });
    }
    return { key: item.key as string, type: item.type as string, config: mappingAt(item.config, `${at}.config`) };
  });
  const problem = criteriaProblem(criteria, path);
  if (problem) throw new InvalidDocument(problem.rule, { path: problem.field });
  return list.length ? (list as Array<Record<string, unknown>>) : null;
}

function without(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(source)) if (!keys.includes(name)) out[name] = value;
  return out;
}

function countScenarios(products: ProductDoc[]): number {
  return products.reduce((sum, product) => sum + product.sets.reduce((inner, set) => inner + set.scenarios.length, 0), 0);
}
