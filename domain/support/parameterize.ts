// ActiveSupport `parameterize(separator: "_")` (reference-core §0): the key a heading or a
// prefix becomes. `Sign-in issues` -> `sign-in_issues`, `Find record(s)` -> `find_record_s`.

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const OUTSIDE_KEY_CHARS = /[^a-z0-9\-_]+/gi;

/** Latin letters lose their accents; anything else non-ASCII becomes a separator. */
export function transliterate(text: string): string {
  return text.normalize("NFKD").replace(COMBINING_MARKS, "");
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
