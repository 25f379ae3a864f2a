// The known name a typo most likely meant, for errors that refuse an unknown name ("did you
// mean contains?"): a scenario's expectation keys and a criterion's type both name one.

/** Edits (case ignored) within which an unknown name is taken for a typo of a known one. */
const TYPO_DISTANCE = 2;

/** The known name closest to `name` within TYPO_DISTANCE edits, or null when none is that close. */
export function likelyMeant(name: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= TYPO_DISTANCE && (best === null || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name ?? null;
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
