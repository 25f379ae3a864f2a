// About how much memory a value loaded from the database or the log holds: its strings at a byte
// a character (V8 keeps Latin-1 text, most of a run's, a byte a character; two a character, with
// the same answer counted again in each field that holds it, would keep no run of 2,000 x 5 with
// 1 KB answers), 8 bytes a number or slot, 16 an object. Rough on purpose; it only has to tell a
// 62 KB-a-pair run from a small one. A run's answers and tool outputs are its weight, so they are
// walked rather than assumed: a flat ~5 KB a result would count a ~620 MB run as 50 MB.

/** The estimate; shared objects and cycles counted once. Walked with a stack: histories nest deep. */
export function estimatedBytes(value: unknown): number {
  const seen = new WeakSet<object>();
  const pending: unknown[] = [value];
  let bytes = 0;
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") bytes += next.length;
    else if (next === null || typeof next !== "object") bytes += 8;
    else if (ArrayBuffer.isView(next)) bytes += next.byteLength;
    else if (!seen.has(next)) {
      seen.add(next);
      bytes += 16;
      for (const child of children(next)) pending.push(child); // not push(...): a spread of 100,000s overflows
    }
  }
  return bytes;
}

/** What an object holds: a Map's keys and values, a Set's or an array's items, an object's own keys and values. */
function* children(value: object): Iterable<unknown> {
  if (value instanceof Map) {
    for (const [key, item] of value) yield* [key, item];
  } else if (value instanceof Set || Array.isArray(value)) {
    yield* value;
  } else {
    for (const [key, item] of Object.entries(value)) yield* [key, item];
  }
}
