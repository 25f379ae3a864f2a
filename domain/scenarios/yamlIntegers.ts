// YAML integers past what a JavaScript number holds exactly. Read as numbers they were rounded
// without a word (`user_id: 1234567890123456789` came back as 1234567890123456800, in the
// import and in every export), so the document is read with integers as BigInt, each one a
// number can hold is turned back into a number, and the first one it cannot is reported.
import { isCollection, isPair, isScalar, type Document } from "yaml";

/** An integer a number cannot hold exactly: where it is and how it was written. */
interface UnsafeInteger {
  /** Offset of the integer in the text (a LineCounter turns it into a line). */
  offset: number;
  /** Its document path (`products[0].sets[0].scenarios[0].params.user_id`). */
  path: string;
  /** The integer as the document writes it. */
  source: string;
}

/** The rule an integer a number cannot hold breaks, in YAML and JSON text alike. */
export function unsafeIntegerRule(source: string): string {
  return `the integer ${source} is beyond ±${Number.MAX_SAFE_INTEGER}, past which numbers are not exact, so it would not be kept as written; quote it ("${source}") to keep it as text`;
}

/**
 * Turns every integer scalar of a document parsed with `intAsBigInt` into a number, in place,
 * and returns the first one beyond Number.MAX_SAFE_INTEGER (either sign), or null. One walk, no
 * recursion (deep documents are allowed); a path is only worked out for the one reported.
 */
export function settleIntegers(doc: Document): UnsafeInteger | null {
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isScalar(node)) {
      if (typeof node.value !== "bigint") continue;
      const value = Number(node.value);
      if (!Number.isSafeInteger(value)) return { offset: node.range?.[0] ?? 0, path: pathTo(doc, node), source: node.source ?? String(node.value) };
      node.value = value;
    } else if (isPair(node)) {
      stack.push(node.value);
    } else if (isCollection(node)) {
      for (let i = node.items.length - 1; i >= 0; i -= 1) stack.push(node.items[i]);
    }
  }
  return null;
}

/** `a.b[0].c`: the document path of `target`, found by a second walk that keeps the steps. */
function pathTo(doc: Document, target: unknown): string {
  const stack: Array<{ node: unknown; path: string }> = [{ node: doc.contents, path: "" }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node === target) return path;
    if (!isCollection(node)) continue;
    node.items.forEach((item, i) => {
      if (!isPair(item)) {
        stack.push({ node: item, path: `${path}[${i}]` });
        return;
      }
      const key = String(isScalar(item.key) ? item.key.value : item.key);
      stack.push({ node: item.value, path: path ? `${path}.${key}` : key });
    });
  }
  return "";
}
