// Builds a long page without a long-lived rope. Appending to a string makes V8 cons strings that
// stay alive (and are copied by every young-generation collection) until the page is flattened;
// with 5,000 results that collection work dominated rendering. Here the rope is flattened every
// ~32 KB, so the small pieces die young and only flat chunks survive until the final join.

import { Buffer } from "node:buffer";

const CHUNK = 32 * 1024;

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
    this.parts.push(oneByte(this.current));
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

const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/**
 * The chunk, flat, in V8's one-byte form. A string is stored two bytes a character as soon as
 * one piece of it was (a slice of the report's Markdown, which holds emoji, stays two-byte even
 * where it has none), so the whole page came out two-byte: twice the memory and the copying,
 * though escaping leaves nothing beyond Latin-1 in it. Latin-1 text round-trips through a
 * latin1 Buffer unchanged and comes back one-byte; anything wider is kept as it is.
 */
function oneByte(chunk: string): string {
  if (chunk.length === 0 || BEYOND_LATIN1.test(chunk)) return chunk;
  return Buffer.from(chunk, "latin1").toString("latin1");
}
