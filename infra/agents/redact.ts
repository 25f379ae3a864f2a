// Secrets a runtime sent (an agent's basic-auth credential, its header values, a token in its
// URL; a provider's key) replaced by `[redacted]` in what came back, before any of it is
// recorded: a host or provider that echoes its request in an error or an answer would otherwise
// write the secret into the run's events and reports.

export const REDACTED = "[redacted]";

/**
 * Secrets shorter than this are not looked for: a password like `order` would turn a tool named
 * `refund_order` into `refund_[redacted]`, and a credential that short guards nothing anyway.
 */
const SHORTEST = 8;

/** The secrets worth looking for, longest first (so one that holds another is replaced whole). */
export function secretList(values: Iterable<string | null | undefined>): string[] {
  const kept = new Set<string>();
  for (const value of values) if (value && value.length >= SHORTEST) kept.add(value);
  return [...kept].sort((a, b) => b.length - a.length);
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * Every string value in a parsed JSON value with the secrets replaced. Keys are left as they are:
 * they are the shape a replay is read by (`answer`, `tool_calls`), not what an echo lands in.
 */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item, secrets);
    return out;
  }
  return value;
}
