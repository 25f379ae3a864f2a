// The known name a typo most likely meant, for errors that refuse an unknown name ("did you
// mean contains?") and the catalog's near-miss warnings: a scenario's expectation keys and a
// criterion's type both name one.
//
// How far a typo may be from the name it meant depends on how long the words are: two edits
// turn one short word into another (`date:` is not a typo of `name`, nor `task:` of `tags`,
// nor `node:` of `name`), so two are taken only when both words have SHORT_WORD + 1 characters
// or more (`paterns` -> pattern, `timeout` -> timeoutMs), one otherwise. Two letters swapped
// count as one edit (`kye` -> key, `nmae` -> name, `expcet` -> expect).

/** Edits (case ignored) within which an unknown name is taken for a typo of a known one. */
const TYPO_DISTANCE = 2;

/** Up to this many characters a word is short: one edit from a known name is a typo, two are another word. */
const SHORT_WORD = 5;

/** The known name closest to `name` within the edits its length allows, or null when none is that close. */
export function likelyMeant(name: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    const allowed = Math.min(name.length, candidate.length) > SHORT_WORD ? TYPO_DISTANCE : 1;
    if (distance <= allowed && (best === null || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name ?? null;
}

/**
 * Edits from `a` to `b`: insertions, deletions, substitutions and swaps of two neighbouring
 * characters (optimal string alignment), three rows at a time.
 */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2] + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}
