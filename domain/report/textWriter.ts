// Writes a long text (a report's Markdown, its HTML page) piece by piece into one native buffer
// kept for the process, and makes the string from it once at the end. The usual ways of joining
// (a rope flattened by join() or `+`) copy the text into fresh memory of V8's heap, and on this
// kind of machine the kernel's first touch of each fresh 4 KB page costs ~10 µs: for a 3 MB
// Markdown report that was half its writing time. The buffer's pages are touched once and then
// reused by every later text; the string Node makes from a long buffer is a copy in memory the
// C allocator reuses too. The first text of a process still pays for the first touch.
//
// A pure JavaScript writer would be slower still: a character loop costs ~3 ns a character here.
import { Buffer } from "node:buffer";

type TextEncoding = "latin1" | "utf16le";

// A writer's first buffer: 16 MB of address space, of which only the pages written ever become
// resident (the C allocator maps a buffer this large lazily, and it is not zeroed), so a short
// text costs a few pages and a large report (5,000 results: a 5.9 MB page) never grows its
// buffer. Growing by copying, from 64 KB, touched twice the text's size in fresh pages on a
// process's first report and kept 8 MB resident for a 5.9 MB page (measured: peak RSS 4 MB lower
// this way). A larger buffer, grown for a larger text, is not kept after its text is made.
const RESERVED = 16 * 1024 * 1024;

/** The buffer kept between texts; a writer takes it, and gives it back when its text is made. */
let spare: Buffer | null = null;

export class TextWriter {
  readonly #bytesPerUnit: 1 | 2;
  #buffer: Buffer;
  #bytes = 0;
  #spent = false;

  /**
   * `latin1` writes one byte per UTF-16 unit, so it may only be given text with no unit above
   * U+00FF (the caller checks: anything wider would be cut to its low byte); `utf16le` keeps every
   * unit as it is, lone surrogates included.
   */
  constructor(readonly encoding: TextEncoding) {
    this.#bytesPerUnit = encoding === "latin1" ? 1 : 2;
    this.#buffer = spare ?? Buffer.allocUnsafeSlow(RESERVED);
    spare = null;
  }

  /** Characters (UTF-16 units) written so far: where the next text starts. */
  get length(): number {
    return this.#bytes / this.#bytesPerUnit;
  }

  write(text: string): void {
    if (this.#spent) throw new Error("TextWriter.write: this writer's text was already made; start a new writer");
    const needed = this.#bytes + text.length * this.#bytesPerUnit;
    if (needed > this.#buffer.length) this.#grow(needed);
    this.#bytes += this.#buffer.write(text, this.#bytes, this.encoding);
  }

  /** The whole text; the writer is spent after this (its buffer goes back for the next one). */
  finish(): string {
    if (this.#spent) throw new Error("TextWriter.finish: this writer's text was already made; start a new writer");
    this.#spent = true;
    const text = this.#buffer.toString(this.encoding, 0, this.#bytes);
    if (this.#buffer.length <= RESERVED && (spare === null || spare.length < this.#buffer.length)) spare = this.#buffer;
    this.#buffer = Buffer.alloc(0);
    this.#bytes = 0;
    return text;
  }

  #grow(needed: number): void {
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.#buffer.length * 2));
    this.#buffer.copy(grown, 0, 0, this.#bytes);
    this.#buffer = grown;
  }

  // One spent instance kept for the process, as Chunks keeps one: V8 frees the hidden class of
  // TextWriter objects once the last one is collected, and with it the optimized code of every
  // renderer that wrote to one ("weak objects" deopt), so each text after a full GC would start
  // unoptimized.
  static readonly #keepShape: TextWriter = new TextWriter("latin1");
  static {
    TextWriter.#keepShape.finish();
  }
}
