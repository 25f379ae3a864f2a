// ActiveSupport-style pluralization for the nouns reports use: scenario(s), model(s), item(s),
// fault(s), fix item(s), call(s), group(s), scenario run(s). The last word is inflected.

const IRREGULAR: Record<string, string> = { person: "people", child: "children", criterion: "criteria" };

function pluralWord(word: string): string {
  const lower = word.toLowerCase();
  if (IRREGULAR[lower]) return word[0] + IRREGULAR[lower].slice(1);
  if (/[^aeiou]y$/i.test(word)) return word.slice(0, -1) + "ies";
  if (/(s|x|z|ch|sh)$/i.test(word)) return word + "es";
  return word + "s";
}

/** Ruby `word.pluralize(count)`: singular only for a count of exactly 1. */
export function pluralize(phrase: string, count?: number): string {
  if (count === 1) return phrase;
  const match = /^(.*?)(\w+)$/.exec(phrase);
  if (!match) return phrase;
  return match[1] + pluralWord(match[2]);
}

/** Rails' `pluralize(count, word)` helper: `1 scenario`, `3 scenarios`, `0 fix items`. */
export function countOf(count: number, phrase: string): string {
  return `${count} ${pluralize(phrase, count)}`;
}
