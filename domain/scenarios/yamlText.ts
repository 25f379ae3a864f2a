// Safe YAML reading for suites and catalogs, as Ruby's Psych reads them (YAML 1.1: `yes`/`on`
// are true, `0777` is octal, `<<` merges) but with no classes: no binary, sets or ordered maps,
// and a date stays the text it is. Aliases are bounded, repeated mapping keys refused, and every
// failure is reported with its line.
import { LineCounter, parseDocument, type ScalarTag, type Tags } from "yaml";
import type { InputErrorClass } from "./errors.js";
import { assertDocumentSize } from "./limits.js";

/** Psych's booleans: only yes/true/on and no/false/off, any case (`y` and `n` stay text). */
const PSYCH_BOOL: ScalarTag = {
  tag: "tag:yaml.org,2002:bool",
  default: true,
  identify: (value) => typeof value === "boolean",
  test: /^(?:yes|true|on|no|false|off)$/i,
  resolve: (text) => /^(?:yes|true|on)$/i.test(text),
};

const CLASS_TAGS = ["bool", "binary", "omap", "pairs", "set", "timestamp"].map((name) => `tag:yaml.org,2002:${name}`);

function psychTags(tags: Tags): Tags {
  return [...tags.filter((tag) => !CLASS_TAGS.includes((tag as ScalarTag).tag)), PSYCH_BOOL];
}

const OPTIONS = {
  version: "1.1",
  customTags: psychTags,
  uniqueKeys: true,
  prettyErrors: false,
  strict: true,
  stringKeys: true,
} as const;

/**
 * Parses one YAML document. `prefix` starts every message (the reference's
 * `invalid evaluation suite YAML: ` / `the catalog is not valid YAML: `).
 */
export function readYaml(text: string, Err: InputErrorClass, prefix: string): unknown {
  assertDocumentSize(text, Err);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...OPTIONS, lineCounter });
  const problem = doc.errors[0] ?? doc.warnings.find((warning) => warning.code === "TAG_RESOLVE_FAILED");
  if (problem) {
    const line = lineCounter.linePos(problem.pos[0]).line;
    const reason = problem.code === "DUPLICATE_KEY" ? "repeated key in one mapping" : problem.message.split("\n")[0];
    throw new Err(`${prefix}${reason}`, { line });
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new Err(`${prefix}${(error as Error).message.split("\n")[0]}`);
  }
}
