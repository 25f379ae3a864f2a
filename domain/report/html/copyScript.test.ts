import { describe, expect, it } from "vitest";
import { Chunks } from "./chunks.js";
import { addMarkdownSource, markdownSource } from "./copyScript.js";
import { markdownSourceOf } from "../testing.js";


function written(markdown: string): string {
  const html = new Chunks();
  addMarkdownSource(html, "md-x", markdown);
  return html.toString();
}

describe("Markdown sources", () => {
  // Emoji (surrogate pairs) at every offset around the 16K-unit slices, 2- and 3-byte characters
  // so the bytes carried between slices take each value, and what a parser would change in text.
  const long = Array.from({ length: 9_000 }, (_, i) => `| ${i} \u2705 caf\u00e9 \u{1F600}${i % 7 === 0 ? "\r\n\0" : "\n"}`).join("");

  it("written a slice at a time reads the same as written whole, and back as the Markdown", () => {
    for (const text of [long, `x${long}`, `xy${long}`, "", "# E\n", "<script>alert(1)</script>&amp;"]) {
      const html = written(text);
      expect(html).toBe(markdownSource("md-x", text));
      expect(markdownSourceOf(html, "md-x")).toBe(text);
    }
  });

  it("reads a lone surrogate back as U+FFFD, one unit for one, so the ranges after it still hold", () => {
    const text = `a\ud800b${"c".repeat(20_000)}\udc00d`;
    const back = markdownSourceOf(written(text), "md-x");
    expect(back).toBe(`a\ufffdb${"c".repeat(20_000)}\ufffdd`);
    expect(back.length).toBe(text.length);
  });
});
