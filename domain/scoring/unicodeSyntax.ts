// A pattern written for a regex without the `u` flag, respelled so that it reads the same with
// it, where the difference is only spelling. Ruby's `\b` needs `u` (rubyWordChars.ts), and `u`
// refuses what a plain regex reads as a literal: an identity escape of punctuation (`\-`, `\_`,
// `\"`, `\#`) and a bare `{`, `}` or `]`. Anything else `u` refuses (`\e`, `\8`, `[\w-.]`) is
// left as written, so the `u` compile fails and the caller keeps the plain regex.

/** Characters whose escape means something, or stays an escape, under `u`. */
const SYNTAX = new Set("^$\\.*+?()[]{}|/");
const ESCAPE_LETTER = /[A-Za-z0-9]/;
const QUANTIFIER = /^\{\d+(,\d*)?\}/;

export function toUnicodeSyntax(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (char === "\\" && i + 1 < source.length) {
      out += escapeUnderUnicode(source[i + 1], inClass);
      i += 1;
    } else if (inClass) {
      if (char === "]") inClass = false;
      out += char;
    } else if (char === "{") {
      const quantifier = QUANTIFIER.exec(source.slice(i, i + 24))?.[0];
      out += quantifier ?? "\\{";
      if (quantifier) i += quantifier.length - 1;
    } else {
      if (char === "[") inClass = true;
      out += char === "}" || char === "]" ? `\\${char}` : char;
    }
  }
  return out;
}

/** `\-` stays an escape inside a class, where a bare `-` could make a range. */
function escapeUnderUnicode(next: string, inClass: boolean): string {
  if (ESCAPE_LETTER.test(next) || SYNTAX.has(next) || (inClass && next === "-")) return `\\${next}`;
  return next;
}
