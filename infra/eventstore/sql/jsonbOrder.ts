// A parsed JSON value with its objects' keys in the order PostgreSQL's jsonb keeps them, so it
// equals, key order included, what reading the value back from a jsonb column gives. jsonb
// stores an object's keys sorted by their length in UTF-8 bytes, then byte by byte (memcmp), and
// prints them in that order; JSON.parse of that text adds them in that order, except that a
// JavaScript object always lists integer-like keys ("0", "12") first in numeric order. Rebuilding
// an object by adding its keys in jsonb order gives the same listing, integer-like keys included.
// The embedded store runs this on every event it appends (~6,000 a 1,000 x 3 run), on the
// thread that also runs the worker and the database: objects already in order are left as
// they are, and keys that are all ASCII (nearly always) are compared without encoding them.

/** Orders `value`'s objects in place where they already are in jsonb order; others are rebuilt. */
export function inJsonbOrder(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = inJsonbOrder(value[i]);
    return value;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  const compare = keys.every(isAscii) ? compareAsciiKeys : compareJsonbKeys;
  if (isSorted(keys, compare)) {
    for (const key of keys) object[key] = inJsonbOrder(object[key]);
    return object;
  }
  keys.sort(compare);
  // fromEntries defines own properties, so a "__proto__" key stays a key as JSON.parse keeps it
  // (an assignment would set the prototype); otherwise assigning is the cheaper way to build it.
  if (Object.hasOwn(object, "__proto__")) return Object.fromEntries(keys.map((key) => [key, inJsonbOrder(object[key])]));
  const ordered: Record<string, unknown> = {};
  for (const key of keys) ordered[key] = inJsonbOrder(object[key]);
  return ordered;
}

function isSorted(keys: readonly string[], compare: (a: string, b: string) => number): boolean {
  for (let i = 1; i < keys.length; i++) if (compare(keys[i - 1], keys[i]) > 0) return false;
  return true;
}

const NON_ASCII = /[^\p{ASCII}]/u;

const isAscii = (key: string): boolean => !NON_ASCII.test(key);

/** compareJsonbKeys for two ASCII keys: a character is a byte, so UTF-16 order is byte order. */
function compareAsciiKeys(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** jsonb's key order: shorter (in UTF-8 bytes) first, then bytewise. */
export function compareJsonbKeys(a: string, b: string): number {
  if (isAscii(a) && isAscii(b)) return compareAsciiKeys(a, b);
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  if (left.length !== right.length) return left.length - right.length;
  return Buffer.compare(left, right);
}
