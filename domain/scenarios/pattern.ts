// Content patterns (`contains` / `not_contains`): a literal, or `/source/flags` for a regular
// expression. A regex that does not compile is refused when the scenario is read, so a typo
// fails the import instead of silently never matching. The form and the flags (`imsu`) are the
// ones the Scorer reads as a regex (domain/scoring/pattern.ts), Ruby escapes included.

const REGEX_FORM = /^\/([\s\S]+)\/([a-z]*)$/;
const FLAGS = /^[imsu]*$/;
// Ruby-only escapes the Scorer translates (`\A`, `\z`, `\Z`, `\h`, `\H`); an even run of
// backslashes before the letter is escaped backslashes, not an escape.
const RUBY_ESCAPE = /(?<!\\)((?:\\\\)*)\\[AzZhH]/g;

export interface RegexPattern {
  source: string;
  flags: string;
}

/** `/source/flags` with known flags -> its parts; anything else is a literal (`/etc/hosts`). */
export function regexPattern(pattern: string): RegexPattern | null {
  const match = REGEX_FORM.exec(pattern);
  if (!match || !FLAGS.test(match[2])) return null;
  return { source: match[1], flags: match[2] };
}

/** Why the pattern cannot be used, or null when it is a literal or a compiling regex. */
export function patternProblem(pattern: string): string | null {
  const regex = regexPattern(pattern);
  if (!regex) return null;
  try {
    new RegExp(regex.source.replace(RUBY_ESCAPE, "$1(?:)"), regex.flags);
    return null;
  } catch (error) {
    return `${pattern} is not a valid regular expression (${(error as Error).message})`;
  }
}
