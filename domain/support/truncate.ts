// ActiveSupport String#truncate and #truncate_bytes (reference-core §0). Lengths count
// characters as Ruby does (code points), not UTF-16 units, so an emoji is never split.

/**
 * Length in characters as Ruby counts them (code points), so an emoji is one: a surrogate pair
 * counts once, a lone surrogate (not text, but a JavaScript string may hold one) once too.
 */
export function characterLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        i += 1;
      }
    }
  }
  return count;
}

/** Longer than `length` characters -> the first `length - 3` characters plus `...`. */
export function truncate(text: string, length: number): string {
  const chars = Array.from(text);
  if (chars.length <= length) return text;
  return chars.slice(0, Math.max(0, length - 3)).join("") + "...";
}

const encoder = new TextEncoder();

/** More than `bytes` UTF-8 bytes -> whole characters up to `bytes - 3` bytes plus `…` (3 bytes). */
export function truncateBytes(text: string, bytes: number): string {
  if (encoder.encode(text).length <= bytes) return text;
  const budget = Math.max(0, bytes - 3);
  let used = 0;
  let kept = "";
  for (const char of text) {
    const size = encoder.encode(char).length;
    if (used + size > budget) break;
    used += size;
    kept += char;
  }
  return kept + "…";
}
