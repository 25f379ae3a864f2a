// Secrets a runtime sent (an agent's basic-auth credential, its header values, a token in its
// URL; a provider's key) replaced by `[redacted]` in what came back, before any of it is
// recorded: a host or provider that echoes its request in an error or an answer would otherwise
// write the secret into the run's events and reports.

const REDACTED = "[redacted]";

/**
 * Values that may be secrets (a query value, a header, a provider's key) are not looked for when
 * shorter than this: a value like `order` would turn a tool named `refund_order` into
 * `refund_[redacted]`, and a credential that short guards little anyway.
 */
const SHORTEST = 8;

/**
 * A value known to be a secret (an agent URL's password) is looked for from this length on, below
 * SHORTEST: echoed alone it is the credential itself. Shorter than 4 it would be found inside
 * ordinary words and tool names far more often than echoed; from 4 on some still are (a password
 * `order` redacts `refund_order`), the price of never recording it.
 */
const SHORTEST_KNOWN = 4;

/**
 * The secrets worth looking for, longest first (so one that holds another is replaced whole):
 * `values` from SHORTEST characters on, `known` ones from SHORTEST_KNOWN on.
 */
export function secretList(values: Iterable<string | null | undefined>, known: Iterable<string | null | undefined> = []): string[] {
  const kept = new Set<string>();
  for (const value of values) if (value && value.length >= SHORTEST) kept.add(value);
  for (const value of known) if (value && value.length >= SHORTEST_KNOWN) kept.add(value);
  return [...kept].sort((a, b) => b.length - a.length);
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * A parsed JSON value with the secrets replaced in every string in it, its objects' keys too: an
 * echo lands in a free-form map's keys as readily as in its values (`metadata: { "<the request
 * URL>": "seen" }`), and an unknown key is quoted by the replay's own validation error. A key in
 * `keep` (the keys the value is read by: `answer`, `tool_calls`, `name`) is kept as it is, so a
 * short secret that happens to be one does not unmake the replay; being public, it gives nothing
 * away. Two keys that redact alike are both kept, the later one suffixed ` (2)`, ` (3)`...
 */
export function redactDeep(value: unknown, secrets: readonly string[], keep: ReadonlySet<string> = new Set()): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets, keep));
  if (value !== null && typeof value === "object") {
    const taken = new Set<string>();
    const entries: Array<[string, unknown]> = [];
    for (const [key, item] of Object.entries(value)) {
      const name = unique(keep.has(key) ? key : redactText(key, secrets), taken);
      entries.push([name, redactDeep(item, secrets, keep)]);
    }
    // fromEntries, not assignment: a key `__proto__` stays an own key, as JSON.parse made it.
    return Object.fromEntries(entries);
  }
  return value;
}

/** `name`, or `name (2)`, `name (3)`... when an earlier key of the same object already took it. */
function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${name} (${n})`;
  taken.add(candidate);
  return candidate;
}
