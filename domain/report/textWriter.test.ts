import { describe, expect, it } from "vitest";
import { TextWriter } from "./textWriter.js";

/** Every piece written, in order, through one writer; the pieces joined as strings beside it. */
function writeAll(encoding: "latin1" | "utf16le", pieces: string[]): { written: string; expected: string; lengths: number[] } {
  const writer = new TextWriter(encoding);
  const lengths: number[] = [];
  for (const piece of pieces) {
    writer.write(piece);
    lengths.push(writer.length);
  }
  return { written: writer.finish(), expected: pieces.join(""), lengths };
}

describe("TextWriter", () => {
  it("makes the text of every piece in order and counts characters", () => {
    const pieces = Array.from({ length: 30_000 }, (_, i) => `<td>${i} caf\u00e9 \u00ff</td>`);
    const { written, expected, lengths } = writeAll("latin1", pieces);
    expect(written).toBe(expected);
    expect(lengths.at(-1)).toBe(expected.length);
    expect(lengths[0]).toBe(pieces[0].length);
  });

  it("grows past its first 16 MB, and the next writer starts afresh", () => {
    const piece = "\u00e9x".repeat(8 * 1024);
    const pieces = Array.from({ length: 1_100 }, (_, i) => `${i}:${piece}`);
    const { written, expected } = writeAll("latin1", pieces);
    expect(written.length).toBeGreaterThan(16 * 1024 * 1024);
    expect(written === expected).toBe(true);
    expect(writeAll("utf16le", ["\u2705 after"]).written).toBe("\u2705 after");
  });

  it("keeps every UTF-16 unit in utf16le, emoji, lone surrogates and NUL included", () => {
    const pieces = ["\u2705 passed", "\u{1F600}", "\ud800 alone", "\udfff", "\u0000", "x".repeat(200_000), "\u2014"];
    const { written, expected, lengths } = writeAll("utf16le", pieces);
    expect(written).toBe(expected);
    expect(lengths.at(-1)).toBe(expected.length);
  });

  it("carries nothing of an earlier, longer text into the next one", () => {
    expect(writeAll("utf16le", ["\u00e9".repeat(300_000)]).written.length).toBe(300_000);
    expect(writeAll("latin1", ["short"]).written).toBe("short");
    expect(writeAll("utf16le", ["\u2705"]).written).toBe("\u2705");
  });

  it("gives two writers open at once texts of their own", () => {
    const outer = new TextWriter("utf16le");
    outer.write("outer ");
    const inner = new TextWriter("latin1");
    inner.write("inner");
    outer.write("\u2014 after");
    expect(inner.finish()).toBe("inner");
    expect(outer.finish()).toBe("outer \u2014 after");
  });

  it("makes an empty text when nothing was written", () => {
    expect(new TextWriter("latin1").finish()).toBe("");
  });

  it("refuses to write or finish again once its text is made", () => {
    const writer = new TextWriter("utf16le");
    writer.write("done");
    expect(writer.finish()).toBe("done");
    expect(() => writer.finish()).toThrow(/already made/);
    expect(() => writer.write("more")).toThrow(/already made/);
    // The next writer is unaffected.
    const next = new TextWriter("utf16le");
    next.write("next");
    expect(next.finish()).toBe("next");
  });
});
