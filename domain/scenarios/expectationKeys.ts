// The keys a scenario's `expect` / `expectations` mapping takes (reference-core §1 reads only
// these three). Any other key was dropped without a word, so `expect: { contain: [hello] }`
// made a scenario that checked nothing and passed every answer: it is refused instead, naming
// the key a typo most likely meant.

const EXPECTATION_KEYS = ["tools", "contains", "not_contains"] as const;

/** Edits (case ignored) within which an unknown key is taken for a typo of a known one. */
const TYPO_DISTANCE = 2;

/** Why `name` cannot be an expectation key, or null when it is one. */
export function expectationKeyProblem(name: string): string | null {
  if ((EXPECTATION_KEYS as readonly string[]).includes(name)) return null;
  const meant = likelyMeant(name);
  const rule = "unknown key; a scenario's expectations take tools, contains and not_contains";
  return meant ? `${rule} (did you mean ${meant}?)` : rule;
}

function likelyMeant(name: string): string | null {
  let best: { key: string; distance: number } | null = null;
  for (const key of EXPECTATION_KEYS) {
    const distance = editDistance(name.toLowerCase(), key);
    if (distance <= TYPO_DISTANCE && (best === null || distance < best.distance)) best = { key, distance };
  }
  return best?.key ?? null;
}

/** Levenshtein distance: insertions, deletions and substitutions, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}
