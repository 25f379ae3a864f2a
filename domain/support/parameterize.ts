// ActiveSupport `parameterize(separator: "_")` (reference-core §0): the key a heading or a
// prefix becomes. `Sign-in issues` -> `sign-in_issues`, `Find record(s)` -> `find_record_s`.

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const OUTSIDE_KEY_CHARS = /[^a-z0-9\-_]+/gi;
const NON_ASCII = /[^\u0000-\u007f]/gu; // eslint-disable-line no-control-regex -- every ASCII character, NUL included

// I18n's default approximations, which ActiveSupport's transliterate uses: every letter of
// Latin-1 and Latin Extended-A (U+00C0-U+017E, not ÷), × and ẞ. Most are the letter without its
// accent; these are not, as no decomposition gives them.
const SPELLED_OUT: Readonly<Record<string, string>> = {
  "Æ": "AE", "æ": "ae", "Ð": "D", "ð": "d", "Ø": "O", "ø": "o", "Þ": "Th", "þ": "th", "ß": "ss", "ẞ": "SS", "×": "x",
  "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Ĳ": "IJ", "ĳ": "ij", "ĸ": "k", "Ŀ": "L", "ŀ": "l", "Ł": "L", "ł": "l",
  "ŉ": "'n", "Ŋ": "NG", "ŋ": "ng", "Œ": "OE", "œ": "oe", "Ŧ": "T", "ŧ": "t",
};

const APPROXIMATIONS: ReadonlyMap<string, string> = (() => {
  const table = new Map<string, string>(Object.entries(SPELLED_OUT));
  for (let code = 0xc0; code <= 0x17e; code += 1) {
    const char = String.fromCharCode(code);
    if (code !== 0xf7 && !table.has(char)) table.set(char, char.normalize("NFD").replace(COMBINING_MARKS, ""));
  }
  return table;
})();

/** ActiveSupport's transliterate: known Latin letters to ASCII, any other non-ASCII character to `?`. */
function transliterate(text: string): string {
  return text.normalize("NFC").replace(NON_ASCII, (char) => APPROXIMATIONS.get(char) ?? "?");
}

export function parameterize(text: string, separator = "_"): string {
  const escaped = separator.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  let out = transliterate(text).replace(OUTSIDE_KEY_CHARS, separator);
  if (separator) {
    out = out.replace(new RegExp(`${escaped}{2,}`, "g"), separator);
    out = out.replace(new RegExp(`^${escaped}|${escaped}$`, "g"), "");
  }
  return out.toLowerCase();
}
