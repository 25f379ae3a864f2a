// Repeated mapping keys, found in one walk. The yaml library's own check (`uniqueKeys`) compares
// each key with every earlier key of its mapping: 80,000 keys in one mapping (1.3 MB, under the
// document limit) took 58 s and blocked the process. Keys are strings here (`stringKeys`), so
// `1` and `'1'` are the same key, as are two `<<` merges.
import { isCollection, isMap, isPair, isScalar, type Document } from "yaml";

/** The offset of the first key (in document order) that repeats an earlier key of its mapping, or null. */
export function repeatedKey(doc: Document): number | null {
  let first: number | null = null;
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isPair(node)) {
      stack.push(node.key, node.value);
    } else if (isCollection(node)) {
      if (isMap(node)) {
        const seen = new Set<unknown>();
        for (const { key } of node.items) {
          // A key that is not a scalar is refused by the parser itself (NON_STRING_KEY).
          if (!isScalar(key)) continue;
          if (seen.has(key.value)) {
            const offset = key.range?.[0] ?? 0;
            if (first === null || offset < first) first = offset;
            break;
          }
          seen.add(key.value);
        }
      }
      for (const item of node.items) stack.push(item);
    }
  }
  return first;
}
