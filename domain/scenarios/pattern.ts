// Content patterns (`contains` / `not_contains`): a literal, or `/source/flags` for a regular
// expression. A regex that does not compile is refused when the scenario is read, so a typo
// fails the import instead of silently never matching.

const REGEX_FORM = /^\/(.+)\/([a-z]*)$/s;
const FLAGS = /^[dimsuv]*$/;

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
    new RegExp(regex.source, regex.flags);
    return null;
  } catch (error) {
    return `${pattern} is not a valid regular expression (${(error as Error).message})`;
  }
}
