// Secrets a runtime sent (an agent's basic-auth credential, its header values, a token in its
// URL; a provider's key) replaced by `[redacted]` in what came back, before any of it is
// recorded: a host or provider that echoes its request in an error or an answer would otherwise
// write the secret into the run's events and reports.

export const REDACTED = "[redacted]";

/**
 * Secrets shorter than this are not looked for: replacing every `ab` would garble answers, and no
 * credential worth the name is that short.
 */
const SHORTEST = 4;

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

/** Every string in a parsed JSON value (keys included) with the secrets replaced. */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[redactText(key, secrets)] = redactDeep(item, secrets);
    return out;
  }
  return value;
}
