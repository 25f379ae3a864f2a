// A candidate model (reference-core §5): `provider/model`, or a bare name whose provider is
// inferred (claude-* anthropic, gpt-* / o<digit> / chatgpt openai, name:tag ollama, vendor/model
// openrouter). The text as typed is kept as `label`, which names the model in reports.
import { checkKnownOptions, described, identifierTextProblem, isBlank, isPlainObject, lookAlikePair, lookAlikeRule, visibleText } from "../support/index.js";

export const DEFAULT_PROVIDERS = ["openai", "anthropic", "ollama", "openrouter"] as const;

export interface InferenceRule {
  pattern: RegExp;
  provider: string;
}

/** In order: the first rule that matches and whose provider is offered wins. */
export const DEFAULT_INFERENCE_RULES: readonly InferenceRule[] = [
  { pattern: /^claude/i, provider: "anthropic" },
  { pattern: /^(?:gpt-|o\d|chatgpt|text-embedding)/i, provider: "openai" },
  { pattern: /:/, provider: "ollama" },
];

export interface ModelSpecOptions {
  /** For a name no inference rule places; without it such a name is refused, saying to set it. */
  defaultProvider?: string;
  providers?: readonly string[];
  inferenceRules?: readonly InferenceRule[];
}

const MODEL_SPEC_OPTIONS: Record<keyof ModelSpecOptions, true> = { defaultProvider: true, providers: true, inferenceRules: true };
const MODEL_SPEC_OPTION_NAMES = Object.keys(MODEL_SPEC_OPTIONS);

export interface ModelSpecJSON {
  label: string;
  provider: string;
  model: string;
}

/** A model name that cannot be used (`model name is blank`). */
export class ModelSpecError extends Error {
  readonly code = "validation" as const;

  constructor(message: string) {
    super(message);
    this.name = "ModelSpecError";
  }
}

export class ModelSpec {
  static readonly Error = ModelSpecError;

  readonly label: string;
  readonly provider: string;
  readonly model: string;

  constructor({ label, provider, model }: ModelSpecJSON) {
    this.label = label;
    this.provider = provider;
    this.model = model;
  }

  static parse(value: unknown, options: ModelSpecOptions = {}): ModelSpec {
    // A JavaScript caller may pass null, which the default parameter does not cover.
    options ??= {};
    checkKnownOptions("ModelSpec.parse", options, MODEL_SPEC_OPTION_NAMES);
    // An object read as "[object Object]" and was refused as a model of no provider.
    if (typeof value === "object" && value !== null) {
      throw new ModelSpecError(`ModelSpec.parse takes a model name (text), got ${described(value)}; a { provider, model } is read by ModelSpec.parseAll or new ModelSpec({ label, provider, model })`);
    }
    const raw = value === null || value === undefined ? "" : String(value).trim();
    if (!raw) throw new ModelSpecError("model name is blank");
    assertLabelText(raw);
    const providers = options.providers ?? DEFAULT_PROVIDERS;
    const slash = raw.indexOf("/");
    const head = slash === -1 ? raw : raw.slice(0, slash);
    const rest = slash === -1 ? "" : raw.slice(slash + 1);
    if (rest && providers.includes(head)) return new ModelSpec({ label: raw, provider: head, model: rest });
    if (rest && providers.includes("openrouter")) return new ModelSpec({ label: raw, provider: "openrouter", model: raw });
    return new ModelSpec({ label: raw, provider: inferProvider(raw, providers, options), model: raw });
  }

  /**
   * A list (or a comma-separated string) of names, `{ provider, model, label? }` objects or
   * specs; blanks dropped, a repeated label kept once (the first).
   */
  static parseAll(values: unknown, options: ModelSpecOptions = {}): ModelSpec[] {
    const items = Array.isArray(values) ? values : values === null || values === undefined ? [] : String(values).split(",");
    const specs: ModelSpec[] = [];
    const labels = new Set<string>();
    for (const item of items) {
      const spec = specOf(item, options);
      if (!spec || labels.has(spec.label)) continue;
      labels.add(spec.label);
      specs.push(spec);
    }
    // Two labels a reader cannot tell apart made two identical cards in a report.
    const pair = lookAlikePair(specs.map((spec) => spec.label));
    if (pair) throw new ModelSpecError(lookAlikeRule(pair, "models"));
    return specs;
  }

  /** Rebuilds a spec from its JSON form without inference. */
  static fromJSON(json: ModelSpecJSON): ModelSpec {
    return new ModelSpec(json);
  }

  equals(other: unknown): boolean {
    return other instanceof ModelSpec && other.label === this.label && other.provider === this.provider && other.model === this.model;
  }

  toJSON(): ModelSpecJSON {
    return { label: this.label, provider: this.provider, model: this.model };
  }

  toString(): string {
    return this.label;
  }
}

/**
 * A label a reader can tell from another (support/identifierText): new input only, so the
 * constructor and fromJSON, which rebuild recorded specs, do not check it.
 */
function assertLabelText(text: string): void {
  const problem = identifierTextProblem(text);
  if (problem) throw new ModelSpecError(`model name ${visibleText(text)} ${problem}`);
}

function inferProvider(raw: string, providers: readonly string[], options: ModelSpecOptions): string {
  const rules = options.inferenceRules ?? DEFAULT_INFERENCE_RULES;
  const rule = rules.find((candidate) => candidate.pattern.test(raw) && providers.includes(candidate.provider));
  if (rule) return rule.provider;
  const fallback = options.defaultProvider;
  if (fallback === undefined || isBlank(fallback)) throw new ModelSpecError(`no provider for model "${raw}": set defaultProvider`);
  return fallback;
}

function specOf(item: unknown, options: ModelSpecOptions): ModelSpec | null {
  if (item instanceof ModelSpec) return item;
  if (isPlainObject(item)) {
    const text = (name: string) => (isBlank(item[name]) ? null : String(item[name]).trim());
    const provider = text("provider");
    const model = text("model");
    if (provider && model) {
      const label = text("label") ?? model;
      assertLabelText(label);
      return new ModelSpec({ label, provider, model });
    }
    const named = text("label") ?? model;
    return named ? ModelSpec.parse(named, options) : null;
  }
  if (item === null || item === undefined || isBlank(String(item))) return null;
  return ModelSpec.parse(item, options);
}
