// Safe YAML reading for suites and catalogs: core schema only (no custom classes), aliases
// bounded, repeated mapping keys refused, and every failure reported with its line.
import { LineCounter, parseDocument } from "yaml";
import type { InputErrorClass } from "./errors.js";
import { assertDocumentSize } from "./limits.js";

const OPTIONS = { uniqueKeys: true, prettyErrors: false, strict: true, stringKeys: true } as const;

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
