// How a document's scalars were written, beside how they were read: every scalar read as a
// number or a boolean, with its path and its text. A price table refuses a rate written other
// than as a decimal number (`0x10` is 16 to YAML 1.2), and a catalog names a value YAML 1.1 reads
// otherwise than YAML 1.2 would (`no` is false, `0012` is 10, `1:30` is 90), which it keeps as
// the reference's Psych reads it.
import { isCollection, isPair, isScalar, type Document } from "yaml";

/** A scalar read as a number or a boolean: where it is, how it was written and what it was read as. */
export interface WrittenScalar {
  /** Its document path, keys and list indexes (`["products", 0, "sets", 0, "scenarios", 3, "key"]`). */
  readonly path: ReadonlyArray<string | number>;
  /** The text as the document writes it (`0012`, `no`). */
  readonly written: string;
  readonly read: number | boolean;
  /** True when the scalar has no tag of its own (`!!int 12` has one): only the schema read it. */
  readonly plain: boolean;
}

/**
 * Every scalar value of a parsed document read as a number or a boolean, in document order
 * (mapping keys are text: documents are read with `stringKeys`). An alias is not followed: the
 * node it repeats is found where its anchor writes it. One walk, no recursion.
 */
export function nonTextScalars(doc: Document): WrittenScalar[] {
  const found: WrittenScalar[] = [];
  const stack: Array<{ node: unknown; path: ReadonlyArray<string | number> }> = [{ node: doc.contents, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (isScalar(node)) {
      const value = node.value;
      if (typeof value === "number" || typeof value === "boolean") {
        found.push({ path, written: node.source ?? String(value), read: value, plain: node.type === "PLAIN" && !node.tag });
      }
    } else if (isCollection(node)) {
      for (let i = node.items.length - 1; i >= 0; i -= 1) {
        const item = node.items[i];
        if (isPair(item)) stack.push({ node: item.value, path: [...path, String(isScalar(item.key) ? item.key.value : item.key)] });
        else stack.push({ node: item, path: [...path, i] });
      }
    }
  }
  return found;
}

/** `a.b[0].c`: a path as catalog messages write it. */
export function dottedPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((text, step) => (typeof step === "number" ? `${text}[${step}]` : text ? `${text}.${step}` : step), "");
}

/**
 * What YAML 1.2's core schema reads a plain scalar's text as (a boolean, a number or null), or
 * undefined for text: the spec's own patterns, so the comparison does not depend on a reader.
 */
function coreReading(text: string): number | boolean | null | undefined {
  if (/^(?:~|null|Null|NULL)?$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return Number.NaN;
  return undefined;
}

/** A plain scalar YAML 1.1 read otherwise than YAML 1.2 would, and what YAML 1.2 reads (undefined: text). */
export interface Yaml11Reading extends WrittenScalar {
  readonly core: number | boolean | null | undefined;
}

/**
 * The plain scalars YAML 1.1 (Psych, which suites and catalogs are read as) read otherwise than
 * YAML 1.2 and JSON would: `no`, `on`, `Yes` (booleans; text to 1.2), `0012` (10; 12 to 1.2),
 * `1:30` (90, base 60; text), `1_000` (1000; text), `0b11` (3; text). Ordinary numbers
 * (`12`, `0.5`, `1e3`, `0x1F`) and `true`/`false` read the same, and are not among them.
 */
export function yaml11Readings(scalars: readonly WrittenScalar[]): Yaml11Reading[] {
  const found: Yaml11Reading[] = [];
  for (const scalar of scalars) {
    if (!scalar.plain) continue;
    const core = coreReading(scalar.written);
    const same = core === scalar.read || (typeof core === "number" && Number.isNaN(core) && Number.isNaN(scalar.read));
    if (!same) found.push({ ...scalar, core });
  }
  return found;
}
