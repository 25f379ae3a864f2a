// The keys a scenario's `expect` / `expectations` mapping takes (reference-core §1 reads only
// these three). Any other key was dropped without a word, so `expect: { contain: [hello] }`
// made a scenario that checked nothing and passed every answer: it is refused instead, naming
// the key a typo most likely meant.
import { likelyMeant } from "../support/index.js";

const EXPECTATION_KEYS = ["tools", "contains", "not_contains"] as const;

/** Why `name` cannot be an expectation key, or null when it is one. */
export function expectationKeyProblem(name: string): string | null {
  if ((EXPECTATION_KEYS as readonly string[]).includes(name)) return null;
  const meant = likelyMeant(name, EXPECTATION_KEYS);
  const rule = "unknown key; a scenario's expectations take tools, contains and not_contains";
  return meant ? `${rule} (did you mean ${meant}?)` : rule;
}
