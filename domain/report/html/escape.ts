// The one escape function of the page. Everything that is not a literal of this module passes
// through it, in text and in attributes alike (quotes are escaped too, so one function serves
// both). A string with nothing to escape is returned as is, which keeps the common case cheap.

const SPECIAL = /[&<>"']/;
const SPECIAL_ALL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const entity = (c: string): string => ENTITIES[c];

export function escapeHtml(value: unknown): string {
  const text = value == null ? "" : typeof value === "string" ? value : String(value);
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, entity) : text;
}

/**
 * An href the page may link to: a same-site path, a fragment, or an http(s) URL. Anything
 * else (`javascript:`, `data:`, protocol-relative `//host`) is refused and the caller renders
 * plain text instead.
 */
export function safeHref(path: unknown): string | null {
  if (typeof path !== "string") return null;
  const trimmed = path.trim();
  if (trimmed === "") return null;
  if (/^https?:\/\/[^\s]/i.test(trimmed)) return trimmed;
  if ((trimmed.startsWith("/") && !trimmed.startsWith("//") && !trimmed.startsWith("/\\")) || trimmed.startsWith("#")) {
    return trimmed;
  }
  return null;
}

/**
 * Ruby's String#truncate counting code points as Ruby does: longer than n keeps n - 3 characters
 * plus `...`. Walks at most n characters, so a 1 MB answer costs no more than a short one.
 */
export function truncate(text: string, n: number): string {
  if (text.length <= n) return text;
  const keep = Math.max(0, n - 3);
  let units = 0;
  let chars = 0;
  let cutAt = -1;
  while (units < text.length) {
    if (chars === keep) cutAt = units;
    if (chars === n) return text.slice(0, cutAt) + "...";
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < text.length ? 2 : 1;
    chars += 1;
  }
  return text;
}
