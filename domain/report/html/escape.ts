// The one escape function of the page. Everything that is not a literal of this module passes
// through it, in text and in attributes alike (quotes are escaped too, so one function serves
// both). Characters beyond Latin-1 become numeric references, so the whole page stays a one-byte
// string in V8 (half the memory and copying of a page that has a single dash or emoji in it).
// A string with nothing to escape is returned as is, which keeps the common case cheap.

const SPECIAL = /[&<>"'\u0100-\uffff]/;

export function escapeHtml(value: unknown): string {
  const text = value == null ? "" : typeof value === "string" ? value : String(value);
  const first = text.search(SPECIAL);
  if (first < 0) return text;
  // One pass from the first special character, copying the runs between them as slices.
  let out = text.slice(0, first);
  let last = first;
  for (let i = first; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let entity: string;
    if (code > 0xff) {
      const next = text.charCodeAt(i + 1);
      if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        entity = `&#${(code - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000};`;
        if (last < i) out += text.slice(last, i);
        out += entity;
        i += 1;
        last = i + 1;
        continue;
      }
      entity = code >= 0xd800 && code <= 0xdfff ? "&#65533;" : `&#${code};`;
    } else {
      switch (code) {
        case 38: entity = "&amp;"; break;
        case 60: entity = "&lt;"; break;
        case 62: entity = "&gt;"; break;
        case 34: entity = "&quot;"; break;
        case 39: entity = "&#39;"; break;
        default: continue;
      }
    }
    if (last < i) out += text.slice(last, i);
    out += entity;
    last = i + 1;
  }
  return last < text.length ? out + text.slice(last) : out;
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
