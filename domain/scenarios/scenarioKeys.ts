// Keys and positions of a paste (reference-core §2.6, guide "Adding to a suite"): named keys
// are kept once, missing ones become `<prefix>_<group>_<n>`, never colliding with a named
// key, an earlier key or a reserved key (ignoring case).
import { isBlank, parameterize } from "../support/index.js";
import { ParseError } from "./errors.js";
import type { ParsedScenario, ReadEntry } from "./parsedScenario.js";

export interface KeyOptions {
  reservedKeys?: readonly string[];
  keyPrefix?: string | null;
}

/** The prefix as a key part; a non-blank prefix with nothing usable is a ParseError. */
export function keyPrefixOf(keyPrefix: string | null | undefined): string | null {
  if (keyPrefix === null || keyPrefix === undefined || isBlank(keyPrefix)) return null;
  const prefix = parameterize(String(keyPrefix)).slice(0, 40);
  if (!/[a-z0-9]/.test(prefix)) {
    // Named once, as the option is spelled here (it read `key_prefix: key_prefix "!!" ...`).
    throw new ParseError(`${JSON.stringify(String(keyPrefix))} has no letters or digits a key can use`, { path: "keyPrefix" });
  }
  return prefix;
}

export function assignKeys(entries: ReadEntry[], { reservedKeys = [], keyPrefix }: KeyOptions): ParsedScenario[] {
  const prefix = keyPrefixOf(keyPrefix);
  const named = new Set(entries.filter((entry) => !isBlank(entry.key)).map((entry) => entry.key as string));
  const reserved = new Set(reservedKeys.map((key) => String(key).toLowerCase()));
  const taken = new Set<string>();
  const counters = new Map<string, number>();
  const isFree = (key: string) => !named.has(key) && !taken.has(key) && !reserved.has(key.toLowerCase());

  return entries.map((entry, position) => {
    let key = entry.key;
    if (key === null || isBlank(key) || taken.has(key)) {
      const base = baseOf(entry.group, prefix);
      let counter = counters.get(base) ?? 0;
      do {
        counter += 1;
        key = `${base}_${counter}`;
      } while (!isFree(key));
      counters.set(base, counter);
    }
    taken.add(key);
    return {
      prompt: entry.prompt,
      group: entry.group,
      group_name: entry.group_name,
      key,
      notes: entry.notes,
      expectations: entry.expectations,
      production_only: entry.production_only,
      position,
    };
  });
}

function baseOf(group: string | null, prefix: string | null): string {
  const part = parameterize(group ?? "").slice(0, 30) || "scenario";
  return prefix ? `${prefix}_${part}` : part;
}
