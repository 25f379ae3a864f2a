// Ruby's `\b` as JavaScript writes it (rubyWordChars.ts) is four lookarounds over Unicode's word
// class, and V8 spends ~0.3 ms compiling each one: a pattern with two boundaries cost ~5 ms. Most
// boundaries sit beside a character the pattern spells out (`\border`, `refund\b`), and then one
// side is known: `\b` before the `o` of `\border` is "no word character before", one lookaround.
// A side is known when it is a plain literal character right beside the boundary that the pattern
// must match there: not a metacharacter, not escaped, and (after the boundary) not one a
// quantifier lets be absent (`\bo?rder`).
import type { Boundaries } from "./rubyWordChars.js";

const METACHARACTERS = new Set([..."\\^$.|?*+()[]{}/"]);
const MAY_BE_ABSENT = new Set(["?", "*", "{"]);

/** A plain literal character: one the pattern matches as itself (no surrogate half: an astral one is left unknown). */
function literal(char: string | undefined): char is string {
  if (char === undefined || METACHARACTERS.has(char)) return false;
  const unit = char.charCodeAt(0);
  return unit < 0xd800 || unit > 0xdfff;
}

/** The character before the `\b` at `at` (the backslash's index), when the pattern spells it out. */
function before(source: string, at: number): string | null {
  const char = source[at - 1];
  // `\\b`'s backslash is an escaped one, and `\.b` an escape: either way not a plain literal.
  return literal(char) && source[at - 2] !== "\\" ? char : null;
}

/** The character after the `\b` at `at`, when the pattern must match it there. */
function after(source: string, at: number): string | null {
  const char = source[at + 2];
  return literal(char) && !MAY_BE_ABSENT.has(source[at + 3] ?? "") ? char : null;
}

/**
 * The `\b` (or, `negated`, `\B`) whose backslash is at `at` in `source`, as the fewest
 * lookarounds its known sides allow: none when both are known, one when one is, else `at`/`notAt`.
 */
export function boundarySpelling(source: string, at: number, negated: boolean, boundaries: Boundaries): string {
  const w = boundaries.word;
  const previous = before(source, at);
  const next = after(source, at);
  const previousWord = previous === null ? null : boundaries.isWord(previous);
  const nextWord = next === null ? null : boundaries.isWord(next);
  // A boundary is where exactly one side is a word character; `\B` where both or neither are.
  if (previousWord !== null && nextWord !== null) return (previousWord !== nextWord) !== negated ? "" : "(?!)";
  if (previousWord !== null) return previousWord !== negated ? `(?!${w})` : `(?=${w})`;
  if (nextWord !== null) return nextWord !== negated ? `(?<!${w})` : `(?<=${w})`;
  return negated ? boundaries.notAt : boundaries.at;
}
