// The operator's price table (reference-platform §1 #22, "tokens × rate"): each model's rates in
// USD per million tokens, from a YAML or JSON document the worker (VERDICT_PRICES) and
// `verdict run --prices` read once, before anything runs:
//
//   models:
//     gpt-4o: { input: 2.5, output: 10 }
//     anthropic/claude-sonnet-4: { input: 3, output: 15 }
//
// A result's model is looked up by its label (the model as the run names it, e.g.
// `anthropic/claude-sonnet-4`), then by its model id (`claude-sonnet-4`): exact, case-sensitive
// text, no patterns and no guessing from a name, so a model the table does not name stays
// unpriced rather than priced at a neighbour's rate. A lookup is at most two Map reads.
//
// The document is read by the domain's YAML reader in its YAML 1.2 dialect, as Verdict's own
// files are (JSON reads as YAML); anything else in it is refused, naming the file, the path and
// the rule: a top-level key other than `models`, a model without `input` or `output`, a key
// other than those two, a rate that is not a number, not finite, not written as a decimal
// number, negative, or over MAX_RATE.
//
// A rate is written as a decimal number (`2.5`, `10`, `0.15`, `1e-3`), as JSON writes numbers:
// YAML 1.2 also reads `0x10` as 16 and `0o17` as 15, and YAML 1.1 readers `0012` as 10 where
// YAML 1.2 reads 12, so a rate written so priced every replay at a figure its writer did not
// mean, unsaid. DECIMAL is the one rule, for every door that reads a table (both parse it).
//
// MAX_RATE is 1,000,000 USD per million tokens ($1 a token): the dearest models priced today ask
// some hundreds of dollars per million, so a rate past it is a slip (a price per token written
// where one per million belongs the other way round, an exponent too many), and a table holding
// one would price every replay of that model at a figure no report can show.
import { InvalidDocument } from "../scenarios/errors.js";
import { readYamlScalars } from "../scenarios/yamlText.js";

/** A model's rates, USD per million tokens. */
export interface ModelRate {
  readonly input: number;
  readonly output: number;
}

/** A rate as the table found it: the table's key that matched, and whether by the label or the model id. */
export interface MatchedRate extends ModelRate {
  readonly key: string;
  readonly matched: "label" | "model";
}

/** The highest rate a table may hold, USD per million tokens (see above). */
export const MAX_RATE = 1_000_000;

/** A price table refused: `<file>: <where>: <rule>`, where is a document path or a line. */
export class PriceTableError extends Error {
  readonly code = "validation";

  constructor(
    readonly file: string,
    readonly where: string | null,
    readonly rule: string,
  ) {
    super(where ? `${file}: ${where}: ${rule}` : `${file}: ${rule}`);
    this.name = "PriceTableError";
  }
}

const EXPECTED = "expected models: { MODEL: { input: USD per million input tokens, output: USD per million output tokens } }";
const RATE_KEYS = ["input", "output"] as const;

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** A rate as a decimal number: digits with no leading zero (`0012`), a fraction, an exponent; no `0x`, `0o`, `0b`. */
const DECIMAL = /^[-+]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/** How the document wrote each number (as JSON paths to their text); a table built from a value has none. */
type Written = ReadonlyMap<string, string>;

const isMapping = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** A model's name in a path: as written, quoted when it is blank or holds a dot or a space. */
const pathKey = (key: string): string => (key === "" || /[.\s"]/.test(key) ? JSON.stringify(key) : key);

function rateOf(value: unknown, where: string, file: string, written: string | undefined): number {
  if (typeof value !== "number") throw new PriceTableError(file, where, `must be a number (USD per million tokens), got ${kindOf(value)}`);
  if (!Number.isFinite(value)) throw new PriceTableError(file, where, `must be a finite number (USD per million tokens), got ${String(value)}`);
  if (written !== undefined && !DECIMAL.test(written)) {
    throw new PriceTableError(file, where, `must be written as a decimal number such as 2.5 (USD per million tokens), got ${written} (read as ${value})`);
  }
  if (value < 0) throw new PriceTableError(file, where, `must not be negative (USD per million tokens), got ${value}`);
  if (value > MAX_RATE) {
    throw new PriceTableError(file, where, `must be at most ${MAX_RATE.toLocaleString("en-US")} (USD per million tokens), got ${value}: is it a price per token, or an exponent too many?`);
  }
  return value;
}

export class PriceTable {
  readonly #rates: ReadonlyMap<string, ModelRate>;

  private constructor(rates: Map<string, ModelRate>) {
    this.#rates = rates;
  }

  /** The table in `text` (YAML or JSON); `file` names it in every refusal. */
  static parse(text: string, file: string): PriceTable {
    let read: ReturnType<typeof readYamlScalars>;
    try {
      read = readYamlScalars(text, InvalidDocument, "not valid YAML: ", "core");
    } catch (error) {
      if (!(error instanceof InvalidDocument)) throw error;
      throw new PriceTableError(file, error.line ? `line ${error.line}` : error.path, error.rule);
    }
    return PriceTable.#read(read.value, file, new Map(read.scalars.map((scalar) => [JSON.stringify(scalar.path), scalar.written])));
  }

  /** The table a parsed document holds; `file` names it in every refusal. */
  static from(document: unknown, file: string): PriceTable {
    return PriceTable.#read(document, file, new Map());
  }

  static #read(document: unknown, file: string, written: Written): PriceTable {
    if (!isMapping(document)) throw new PriceTableError(file, null, `must be a mapping with models:, got ${kindOf(document)} (${EXPECTED})`);
    for (const key of Object.keys(document)) {
      if (key !== "models") throw new PriceTableError(file, pathKey(key), `unknown key (${EXPECTED})`);
    }
    const models = document.models;
    if (models === undefined) throw new PriceTableError(file, "models", `missing (${EXPECTED})`);
    if (!isMapping(models)) throw new PriceTableError(file, "models", `must be a mapping of model to { input, output }, got ${kindOf(models)}`);
    const rates = new Map<string, ModelRate>();
    for (const [model, entry] of Object.entries(models)) {
      const at = `models.${pathKey(model)}`;
      if (model.trim() === "") throw new PriceTableError(file, at, "a model's name must not be blank");
      if (!isMapping(entry)) throw new PriceTableError(file, at, `must be a mapping { input, output }, got ${kindOf(entry)}`);
      for (const key of Object.keys(entry)) {
        if (!(RATE_KEYS as readonly string[]).includes(key)) throw new PriceTableError(file, `${at}.${pathKey(key)}`, "unknown key (a model takes input and output, USD per million tokens)");
      }
      for (const key of RATE_KEYS) {
        if (entry[key] === undefined) throw new PriceTableError(file, `${at}.${key}`, `missing (USD per million ${key} tokens)`);
      }
      const rate = (key: (typeof RATE_KEYS)[number]) => rateOf(entry[key], `${at}.${key}`, file, written.get(JSON.stringify(["models", model, key])));
      rates.set(model, { input: rate("input"), output: rate("output") });
    }
    if (rates.size === 0) throw new PriceTableError(file, "models", `names no model (${EXPECTED})`);
    return new PriceTable(rates);
  }

  /** How many models the table prices. */
  get size(): number {
    return this.#rates.size;
  }

  /** The rate of a result's model: by its label, else by its model id, with the key that matched; null when the table names neither. */
  rateFor(spec: { readonly label: string; readonly model: string }): MatchedRate | null {
    const byLabel = this.#rates.get(spec.label);
    if (byLabel) return { ...byLabel, key: spec.label, matched: "label" };
    const byModel = this.#rates.get(spec.model);
    return byModel ? { ...byModel, key: spec.model, matched: "model" } : null;
  }
}
