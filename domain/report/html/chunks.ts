// Builds a long page without a long-lived rope. Appending to a string makes V8 cons strings that
// stay alive (and are copied by every young-generation collection) until the page is flattened;
// with 5,000 results that collection work dominated rendering. Here the rope is flattened every
// ~32 KB, so the small pieces die young and only flat chunks survive until the final join.

const CHUNK = 32 * 1024;
// Above the class: its static block flushes a chunk while the module is still loading.
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

export class Chunks {
  private readonly parts: string[] = [];
  private current = "";

  add(html: string): void {
    this.current += html;
    if (this.current.length >= CHUNK) this.flush();
  }

  /** Text already flat and one-byte (escapeSource's): kept as it is, after what came before it. */
  addFlat(text: string): void {
    if (this.current.length > 0) this.flush();
    this.parts.push(text);
  }

  private flush(): void {
    this.parts.push(flat(this.current));
    this.current = "";
  }

  toString(): string {
    this.flush();
    return this.parts.join("");
  }

  // One instance kept for the process (a class field, so it lives as long as the class): V8
  // frees the hidden class of Chunks objects once the last one is collected, and with it the
  // optimized code of every renderer that called add() ("weak objects" deopt), so each page
  // after a full GC started unoptimized. Flushed once, so its parts hold a string as a page's do.
  static readonly #keepShape: Chunks = new Chunks();
  static {
    Chunks.#keepShape.toString();
  }
}

/**
 * The chunk, flat. Its pieces are one-byte already: the page's text all passes through
 * escapeHtml or escapeSource, which write every character beyond Latin-1 as a reference and
 * hand back one-byte strings. So the chunk only needs flattening, which a regex test does in
 * place (the pieces can then die young); the test itself is native and cheap. A latin1 Buffer
 * round trip here, which narrowed any two-byte chunk, copied all 5.4 MB of a 1000x5 page twice
 * though no chunk needed it.
 */
function flat(chunk: string): string {
  BEYOND_LATIN1.test(chunk);
  return chunk;
}
