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
