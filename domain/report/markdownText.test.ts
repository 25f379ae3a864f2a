import { describe, expect, it } from "vitest";
import { checkGfm, splitCells } from "./gfmCheck.js";
import { cell, code, foldLines, htmlInline, inline, quote } from "./markdownText.js";

describe("markdownText", () => {
  it("cell escapes | and folds every kind of line break into one space", () => {
    expect(cell("a | b\r\nc\n\nd\u2028e")).toBe("a \\| b c d e");
    expect(splitCells(`| ${cell("x|y\nz")} | two |`)).toHaveLength(2);
  });

  it("inline turns tags into text and escapes [ so no link or image opens", () => {
    expect(inline("<script>alert(1)</script> & [a](javascript:x)")).toBe("&lt;script&gt;alert(1)&lt;/script&gt; &amp; \\[a](javascript:x)");
    expect(inline(null)).toBe("");
  });

  it("code fences a span with more backticks than it holds, escaping | only in cells", () => {
    expect(code("gpt-5")).toBe("`gpt-5`");
    expect(code("a`b")).toBe("`` a`b ``");
    expect(code("a|b", true)).toBe("`a\\|b`");
    expect(code("a\nb")).toBe("`a b`");
  });

  it("quote prefixes every line, keeps blank lines inside the quote, and escapes markup", () => {
    expect(quote("one\n\n</details>\n```")).toBe("> one\n>\n> &lt;/details&gt;\n> ```");
    expect(quote("   ")).toBe(">");
  });

  it("shows controls and bidi overrides as code points in every construct, so none reaches the file", () => {
    const hostile = "ok\u001bc\u001b]52;c;cHduZWQ=\u0007\u0000\u007f\u009b \u202e!deliaf\u2066";
    const shown = "ok⟨U+001B⟩c⟨U+001B⟩]52;c;cHduZWQ=⟨U+0007⟩⟨U+0000⟩⟨U+007F⟩⟨U+009B⟩ ⟨U+202E⟩!deliaf⟨U+2066⟩";
    expect(inline(hostile)).toBe(shown);
    expect(cell(hostile)).toBe(shown);
    expect(code(hostile)).toBe(`\`${shown}\``);
    expect(htmlInline(hostile)).toBe(shown);
    expect(quote(`${hostile}\n\`\`\`\n${hostile}\n\`\`\``)).toBe(`> ${shown}\n> \`\`\`\n> ${shown}\n> \`\`\``);
  });

  it("leaves tabs, CRLF line breaks and the direction marks of RTL text (LRM, RLM, ALM) as they were", () => {
    expect(quote("שלום\u200f\tעולם\r\nשני\u061c")).toBe("> שלום\u200f\tעולם\n> שני\u061c");
    expect(inline("a\r\nb\u200e")).toBe("a b\u200e");
  });

  it("htmlInline escapes quotes too, for text inside an HTML element", () => {
    expect(htmlInline('say "hi"\n<b>')).toBe("say &quot;hi&quot; &lt;b&gt;");
    expect(foldLines("a\r\n\r\nb")).toBe("a b");
  });
});

describe("checkGfm (the test's own checker)", () => {
  it("finds a row that lost a column, an unclosed details block and raw tags", () => {
    expect(checkGfm("| a | b |\n|---|---|\n| 1 | 2 | 3 |\n")).toEqual([{ line: 3, problem: "table row has 3 cells, header has 2" }]);
    expect(checkGfm("<details>\n<summary>x</summary>\n\ntext\n").map((p) => p.problem)).toEqual(["1 <details> block(s) left open"]);
    expect(checkGfm("hello <script>x</script>\n")[0].problem).toMatch(/raw HTML tag/);
    expect(checkGfm("| a |\n|---|\n| 1 |\n\n<details>\n<summary>k</summary>\n\n> q\n\n</details>\n")).toEqual([]);
  });
});
