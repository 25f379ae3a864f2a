// Identifiers that read alike across scripts: `gpt-5-mini` and `gрt-5-mini` (a Cyrillic р) are
// two models to the platform and one to a reader, so a report showed two identical cards. Two
// names of one selection (a run's models, a set's scenario keys) that fold to one skeleton are
// refused, naming where they differ by code point.
//
// The fold is deliberately small: NFKC (fullwidth and compatibility forms) and the Cyrillic and
// Greek letters drawn like a Latin one. It does not fold within Latin (`l` / `1` / `I`, `rn` /
// `m`): those are distinct keys people write on purpose (`model1`, `modell`). Unicode's full
// confusables table (UTS #39) is not bundled; see README Status.
import { codePointLabel } from "./identifierText.js";

const HOMOGLYPHS: Record<string, string> = {
  // Cyrillic
  а: "a", в: "b", е: "e", к: "k", м: "m", н: "h", о: "o", р: "p", с: "c", т: "t", у: "y", х: "x",
  і: "i", ј: "j", ѕ: "s", ԁ: "d", ԛ: "q", ԝ: "w", һ: "h", ӏ: "l", ь: "b", ї: "i", ё: "e", ү: "y",
  А: "A", В: "B", Е: "E", К: "K", М: "M", Н: "H", О: "O", Р: "P", С: "C", Т: "T", Х: "X", У: "Y",
  І: "I", Ј: "J", Ѕ: "S", Ԁ: "D", Ԛ: "Q", Ԝ: "W", Һ: "H", Ӏ: "I", Ї: "I", Ё: "E", Ү: "Y",
  // Greek
  α: "a", ο: "o", ρ: "p", ν: "v", ι: "i", κ: "k", τ: "t", υ: "u", χ: "x", γ: "y",
  Α: "A", Β: "B", Ε: "E", Ζ: "Z", Η: "H", Ι: "I", Κ: "K", Μ: "M", Ν: "N", Ο: "O", Ρ: "P", Τ: "T", Υ: "Y", Χ: "X",
};

/** The text as a reader might see it: NFKC without emoji variation selectors, then each Cyrillic / Greek look-alike as its Latin letter. */
export function skeletonOf(text: string): string {
  let out = "";
  // An emoji's variation selector changes how it is drawn, not which it is: `❤` and `❤️` read alike.
  for (const char of text.normalize("NFKC")) if (char !== "\uFE0E" && char !== "\uFE0F") out += HOMOGLYPHS[char] ?? char;
  return out;
}

/**
 * The first two different names of the list that read alike, with where they differ
 * (`character 2: U+0070 in one, U+0440 in the other`); null when there are none.
 */
export function lookAlikePair(names: readonly string[]): { first: string; second: string; difference: string } | null {
  const seen = new Map<string, string>();
  for (const name of names) {
    const skeleton = skeletonOf(name);
    const earlier = seen.get(skeleton);
    if (earlier !== undefined && earlier !== name) return { first: earlier, second: name, difference: differenceOf(earlier, name) };
    if (earlier === undefined) seen.set(skeleton, name);
  }
  return null;
}

function differenceOf(first: string, second: string): string {
  const a = [...first];
  const b = [...second];
  const index = a.findIndex((char, i) => char !== b[i]);
  const at = index === -1 ? a.length : index;
  const code = (char: string | undefined) => (char === undefined ? "nothing" : codePointLabel(char.codePointAt(0) as number));
  return `character ${at + 1} is ${code(a[at])} in one and ${code(b[at])} in the other`;
}

/** The rule broken by a look-alike pair, as every door words it: `"a" and "а" read alike (...)`. */
export function lookAlikeRule(pair: { first: string; second: string; difference: string }, what: string): string {
  return `${what} ${JSON.stringify(pair.first)} and ${JSON.stringify(pair.second)} read alike (${pair.difference}): rename one`;
}
