// A parsed JSON value with its objects' keys in the order PostgreSQL's jsonb keeps them, so it
// equals, key order included, what reading the value back from a jsonb column gives. jsonb
// stores an object's keys sorted by their length in UTF-8 bytes, then byte by byte (memcmp), and
// prints them in that order; JSON.parse of that text adds them in that order, except that a
// JavaScript object always lists integer-like keys ("0", "12") first in numeric order. Rebuilding
// an object by adding its keys in jsonb order gives the same listing, integer-like keys included.

/** Orders `value`'s objects in place where they already are in jsonb order; others are rebuilt. */
export function inJsonbOrder(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = inJsonbOrder(value[i]);
    return value;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  const sorted = [...keys].sort(compareJsonbKeys);
  if (sorted.every((key, i) => key === keys[i])) {
    for (const key of keys) object[key] = inJsonbOrder(object[key]);
    return object;
  }
  // fromEntries defines own properties, so a "__proto__" key stays a key as JSON.parse keeps it.
  return Object.fromEntries(sorted.map((key) => [key, inJsonbOrder(object[key])]));
}

const NON_ASCII = /[^\p{ASCII}]/u;

/** jsonb's key order: shorter (in UTF-8 bytes) first, then bytewise. */
export function compareJsonbKeys(a: string, b: string): number {
  if (!NON_ASCII.test(a) && !NON_ASCII.test(b)) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  if (left.length !== right.length) return left.length - right.length;
  return Buffer.compare(left, right);
}
