// Builds a long page without a long-lived rope. Appending to a string makes V8 cons strings that
// stay alive (and are copied by every young-generation collection) until the page is flattened;
// with 5,000 results that collection work dominated rendering. Here the rope is flattened every
// ~32 KB, so the small pieces die young and only flat chunks survive until the final join.
// Escaping leaves nothing beyond Latin-1 on the page and hands back what it changed one-byte, so
// the chunks, and the page, are one-byte strings: half the memory and copying of two-byte ones.
// (A piece stored two-byte with no wide character left in it, a slice of wide text that had
// nothing to escape, makes its page two-byte: still right, only larger. Narrowing every chunk
// through a latin1 Buffer to rule that out cost a tenth of the page's rendering time.)

const CHUNK = 32 * 1024;

/** Makes V8 store a rope as one flat string in place (a regexp reads only flat text), so its pieces die young. */
function flatten(text: string): void {
  FLATTENS.test(text);
}
const FLATTENS = /^$/;

export class Chunks {
  private readonly parts: string[] = [];
  private current = "";

  add(html: string): void {
    this.current += html;
    if (this.current.length >= CHUNK) this.flush();
  }

  /** Long text already flat (a Markdown source): kept as it is, after what came before it. */
  addFlat(text: string): void {
    if (this.current.length > 0) this.flush();
    this.parts.push(text);
  }

  private flush(): void {
    flatten(this.current);
    this.parts.push(this.current);
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
