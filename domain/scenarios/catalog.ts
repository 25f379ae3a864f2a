// A catalog: every agent a team ships, as products -> sets -> scenarios, layered from one or
// more YAML documents by key (reference-core §4, guide "Catalogs"). `toYaml()` is the
// canonical text and `digest` its SHA-256, so two copies compare without a diff.
import { createHash } from "node:crypto";
import { isBlank } from "../support/index.js";
import { canonicalYaml } from "./canonicalYaml.js";
import { readCatalogDocument, type CatalogDoc } from "./catalogDocument.js";
import { layerProducts } from "./catalogLayering.js";
import { compact, Product, ScenarioSet } from "./catalogParts.js";
import { documentName, readExisting, splitArgs } from "./documentFiles.js";
import { refuseOnlyEmpty } from "./emptyDocument.js";
import { InvalidDocument, located, NotFound } from "./errors.js";
import type { Scenario } from "./scenario.js";
import { Suite } from "./suite.js";
import { dottedPath, yaml11Readings, type Yaml11Reading } from "./yamlScalars.js";
import { readYamlScalars } from "./yamlText.js";

export interface CatalogOptions {
  /** The catalog key when no document sets `catalog:` (Catalog.load: the first file's name). */
  name?: string;
}

export interface CatalogSelection {
  product?: string;
  set?: string;
  keys?: readonly string[];
  includeProductionOnly?: boolean;
}

// Options for the variadic constructor travel here for the duration of one construction.
let pendingOptions: BuildOptions = {};

interface BuildOptions {
  name?: string;
  sources?: string[];
  /** Per document read from text, the warnings of its YAML 1.1 readings (readingLine). */
  readings?: string[][];
}

export class Catalog {
  static readonly NotFound = NotFound;
  static readonly InvalidDocument = InvalidDocument;

  readonly key: string;
  /**
   * True when the key is the `name` option's (Catalog.load: the first file's name) because no
   * document sets `catalog:` (or a suite's `suite:`), so a message about the key can say so.
   */
  readonly keyFromName: boolean;
  readonly name: string;
  readonly description: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly products: readonly Product[];
  /**
   * Values YAML 1.1 read otherwise than they look (`prompt: no` is false, `key: 0012` is 10),
   * then keys that look like typos of ones the format reads (or a scenario check under the
   * product's own name), each with its document and path: not errors (the values are read as
   * the reference reads them, such keys are ignored or kept as metadata), but said.
   */
  readonly warnings: readonly string[];
  #yaml: string | null = null;
  #digest: string | null = null;

  /** Layers the YAML files that exist, in order; none existing is NotFound. */
  static load(...args: Array<string | CatalogOptions>): Catalog {
    const { paths, options } = splitArgs<CatalogOptions>(args);
    const files = readExisting(paths);
    if (files.length === 0) throw new NotFound(`no scenario catalog at ${paths.join(", ")}`);
    const read = files.map((file) => located(file.path, () => parseYaml(file.text)));
    refuseOnlyEmpty(read.map((doc) => doc.value), "catalog", files.map((file) => file.path));
    return build(read.map((doc) => doc.value), { name: options.name ?? documentName(files[0].path), sources: files.map((file) => file.path), readings: read.map((doc) => doc.readings) });
  }

  /** One YAML text. */
  static parse(text: string, options: CatalogOptions = {}): Catalog {
    const { value, readings } = parseYaml(text);
    refuseOnlyEmpty([value], "catalog");
    return build([value], { ...options, readings: [readings] });
  }

  /** Documents (YAML text or parsed objects) layered in order; later ones win by key. */
  constructor(...documents: unknown[]) {
    const { name, sources, readings } = pendingOptions;
    pendingOptions = {};
    const sourceOf = (index: number) => sources?.[index] ?? (documents.length > 1 ? `documents[${index}]` : undefined);
    const docs = documents.map((doc, index) =>
      located(sourceOf(index), () => {
        const read = typeof doc === "string" ? parseYaml(doc) : { value: doc, readings: readings?.[index] ?? [] };
        const document = readCatalogDocument(read.value, name ?? null);
        return { ...document, warnings: [...read.readings, ...document.warnings] };
      }),
    );
    const keyed = docs.findLast((doc) => !isBlank(doc.catalog));
    this.key = keyed?.catalog ?? presentOrNull(name) ?? missingKey();
    this.keyFromName = keyed ? keyed.catalogFromName : true;
    this.name = lastPresent(docs, (doc) => doc.name) ?? this.key;
    this.description = lastPresent(docs, (doc) => doc.description);
    this.metadata = Object.assign({}, ...docs.map((doc) => doc.metadata));
    this.products = layerProducts(docs).map((product, index) => new Product(product, index));
    this.warnings = docs.flatMap((doc, index) => doc.warnings.map((line) => (sourceOf(index) ? `${sourceOf(index)}, ${line}` : line)));
  }

  product(key: string): Product {
    const found = this.products.find((product) => product.key === String(key));
    if (!found) throw new NotFound(`no product "${key}" in catalog ${this.key}`);
    return found;
  }

  set(product: string, set: string): ScenarioSet {
    const found = this.product(product).sets.find((candidate) => candidate.key === String(set));
    if (!found) throw new NotFound(`no set "${set}" in product "${product}" of catalog ${this.key}`);
    return found;
  }

  /** Narrows by product, then set, then scenario keys, then the production flag. */
  scenarios({ product, set, keys, includeProductionOnly = true }: CatalogSelection = {}): Scenario[] {
    let sets: readonly ScenarioSet[] = product === undefined ? this.products.flatMap((p) => p.sets) : this.product(product).sets;
    if (set !== undefined) sets = product === undefined ? sets.filter((s) => s.key === set) : [this.set(product, set)];
    return sets
      .flatMap((s) => s.scenarios)
      .filter((scenario) => (!keys || keys.includes(scenario.key)) && (includeProductionOnly || !scenario.productionOnly));
  }

  allScenarios(): Scenario[] {
    return this.scenarios();
  }

  get scenarioCount(): number {
    return this.products.reduce((sum, product) => sum + product.sets.reduce((inner, set) => inner + set.scenarios.length, 0), 0);
  }

  /** A Suite named `<catalog>/<product>[/<set>]` whose groups are the sets' canonical documents. */
  suiteFor(product: string, set?: string): Suite {
    const found = this.product(product);
    const sets = set === undefined ? found.sets : [this.set(product, set)];
    const name = set === undefined ? `${this.key}/${found.key}` : `${this.key}/${found.key}/${sets[0].key}`;
    const document = { description: found.description ?? this.description, groups: sets.map((s) => s.toH()) };
    return new Suite([document], { name });
  }

  toH(): Record<string, unknown> {
    return compact([
      ["catalog", this.key],
      ["name", this.name],
      ["description", this.description],
      ["products", this.products.map((product) => product.toH())],
      ...Object.entries(this.metadata),
    ]);
  }

  /** `JSON.stringify(catalog)` writes the canonical document (the CLI's JSON export). */
  toJSON(): Record<string, unknown> {
    return this.toH();
  }

  toYaml(): string {
    this.#yaml ??= canonicalYaml(this.toH());
    return this.#yaml;
  }

  /** Lowercase hex SHA-256 of `toYaml()`. */
  get digest(): string {
    this.#digest ??= createHash("sha256").update(this.toYaml(), "utf8").digest("hex");
    return this.#digest;
  }
}

function build(documents: unknown[], options: BuildOptions): Catalog {
  pendingOptions = options;
  try {
    return new Catalog(...documents);
  } finally {
    pendingOptions = {};
  }
}

/**
 * The document (null when empty: readCatalogDocument reads it as {}, and a load of only empty
 * ones is refused) and the warnings of its YAML 1.1 readings.
 */
function parseYaml(text: string): { value: unknown; readings: string[] } {
  const { value, scalars } = readYamlScalars(text, InvalidDocument, "the catalog is not valid YAML: ");
  return { value, readings: yaml11Readings(scalars).filter((reading) => !meantAsBoolean(reading)).map(readingLine) };
}

/** `production_only: yes` is the boolean its field takes, as meant: nothing to say. */
function meantAsBoolean(reading: Yaml11Reading): boolean {
  return typeof reading.read === "boolean" && reading.path.at(-1) === "production_only";
}

/**
 * A value read as the reference's Psych reads it (YAML 1.1), which is kept (reference-core §3),
 * but said, since it is not what the text says to YAML 1.2, JSON or a reader's eye:
 * `products[0].sets[0].scenarios[2].prompt: no is read as false (YAML 1.1, as catalogs are read;
 * YAML 1.2 reads text); quote it ("no") to keep the text, or write false` (a number: `or write
 * 1000 for the number`).
 */
function readingLine({ path, written, read, core }: Yaml11Reading): string {
  const other = core === undefined ? "text" : String(core);
  // A number field (a criterion's `chars: 1_000`) refuses the quoted text: its plain decimal is offered too.
  const keep = typeof read === "boolean" ? `, or write ${String(read)}` : typeof read === "number" ? `, or write ${String(read)} for the number` : "";
  return `${dottedPath(path)}: ${written} is read as ${String(read)} (YAML 1.1, as catalogs are read; YAML 1.2 reads ${other}); quote it (${JSON.stringify(written)}) to keep the text${keep}`;
}

function lastPresent(docs: CatalogDoc[], pick: (doc: CatalogDoc) => string | null): string | null {
  for (let i = docs.length - 1; i >= 0; i -= 1) {
    const value = pick(docs[i]);
    if (!isBlank(value)) return value;
  }
  return null;
}

function presentOrNull(value: string | undefined): string | null {
  return value === undefined || isBlank(value) ? null : value.trim();
}

function missingKey(): never {
  throw new InvalidDocument("the catalog has no key: set `catalog:` in the document", { path: "catalog" });
}
