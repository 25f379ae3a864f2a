// YAML integers past what a JavaScript number holds exactly. Read as numbers they were rounded
// without a word (`user_id: 1234567890123456789` came back as 1234567890123456800, in the
// import and in every export), so the document is read with integers as BigInt, each one a
// number can hold is turned back into a number, and the first one it cannot is reported.
import { isCollection, isPair, isScalar, type Document } from "yaml";

/** An integer a number cannot hold exactly: where it is and how it was written. */
export interface UnsafeInteger {
  /** Offset of the integer in the text (a LineCounter turns it into a line). */
  offset: number;
  /** Its document path (`products[0].sets[0].scenarios[0].params.user_id`). */
  path: string;
  /** The integer as the document writes it. */
  source: string;
}

interface Visit {
  node: unknown;
  parent: Visit | null;
  /** The mapping key or list index that leads from the parent to this node. */
  step: string | number | null;
}

/**
 * Turns every integer scalar of a document parsed with `intAsBigInt` into a number, in place,
 * and returns the first one beyond Number.MAX_SAFE_INTEGER (either sign), or null. One walk, no
 * recursion (deep documents are allowed); paths are only spelled out for the one reported.
 */
export function settleIntegers(doc: Document): UnsafeInteger | null {
  const stack: Visit[] = [{ node: doc.contents, parent: null, step: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { node } = visit;
    if (isScalar(node)) {
      if (typeof node.value !== "bigint") continue;
      const value = Number(node.value);
      if (!Number.isSafeInteger(value)) return { offset: node.range?.[0] ?? 0, path: pathOf(visit), source: node.source ?? String(node.value) };
      node.value = value;
    } else if (isPair(node)) {
      const key = isScalar(node.key) ? String(node.key.value) : "?";
      stack.push({ node: node.value, parent: visit.parent, step: key });
    } else if (isCollection(node)) {
      for (let i = node.items.length - 1; i >= 0; i -= 1) {
        const item = node.items[i];
        stack.push(isPair(item) ? { node: item, parent: visit, step: null } : { node: item, parent: visit, step: i });
      }
    }
  }
  return null;
}

/** `a.b[0].c` from the steps that lead to a node. */
function pathOf(visit: Visit): string {
  const steps: Array<string | number> = [];
  for (let at: Visit | null = visit; at; at = at.parent) if (at.step !== null) steps.unshift(at.step);
  return steps.reduce<string>((path, step) => (typeof step === "number" ? `${path}[${step}]` : path ? `${path}.${step}` : step), "");
}
