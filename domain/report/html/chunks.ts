// Builds a long page without a long-lived rope. Appending to a string makes V8 cons strings that
// stay alive (and are copied by every young-generation collection) until the page is flattened;
// with 5,000 results that collection work dominated rendering. Here the rope is flattened every
// ~32 KB and written into a TextWriter, so the small pieces die young and the page is made once,
// from a buffer whose memory is reused from one page to the next (textWriter.ts says why).
// Escaping leaves nothing beyond Latin-1 on the page, so the page is written one byte a
// character. A chunk holding a wider character (none does today: a safety net for a renderer
// that one day writes such a literal unescaped) is still kept exactly: from it on, the page is
// joined as strings instead.
import { TextWriter } from "../textWriter.js";

const CHUNK = 32 * 1024;
// Testing a rope makes V8 store it flat first (the write below needs it flat anyway); on a flat
// one-byte string the test answers at once (no character can match), on a two-byte one it scans.
// eslint-disable-next-line no-control-regex -- the whole of Latin-1, control characters included
const WIDE = /[^\u0000-\u00ff]/;

export class Chunks {
  #writer: TextWriter | null = new TextWriter("latin1");
  /** Set once a chunk beyond Latin-1 came: the page so far, then every chunk after it. */
  #parts: string[] | null = null;
  #current = "";
  /** The page, once made: the chunks take nothing more. */
  #page: string | null = null;

  add(html: string): void {
    if (this.#page !== null) throw new Error("Chunks.add: the page was already made");
    this.#current += html;
    if (this.#current.length >= CHUNK) this.#flush();
  }

  /** Long text already flat (a Markdown source): kept as it is, after what came before it. */
  addFlat(text: string): void {
    if (this.#page !== null) throw new Error("Chunks.addFlat: the page was already made");
    if (this.#current.length > 0) this.#flush();
    this.#keep(text);
  }

  #flush(): void {
    const chunk = this.#current;
    this.#current = "";
    this.#keep(chunk);
  }

  #keep(chunk: string): void {
    if (this.#writer !== null) {
      if (!WIDE.test(chunk)) {
        this.#writer.write(chunk);
        return;
      }
      // The first wide chunk: the page so far becomes the first part.
      this.#parts = [this.#writer.finish()];
      this.#writer = null;
    }
    this.#parts!.push(chunk);
  }

  /** The page (the same string on every call); nothing can be added after it is made. */
  toString(): string {
    if (this.#page === null) {
      this.#flush();
      this.#page = this.#writer !== null ? this.#writer.finish() : this.#parts!.join("");
      this.#parts = null;
    }
    return this.#page;
  }

  // One instance kept for the process (a class field, so it lives as long as the class): V8
  // frees the hidden class of Chunks objects once the last one is collected, and with it the
  // optimized code of every renderer that called add() ("weak objects" deopt), so each page
  // after a full GC started unoptimized. Made once, so its fields hold what a made page's do.
  static readonly #keepShape: Chunks = new Chunks();
  static {
    Chunks.#keepShape.toString();
  }
}
