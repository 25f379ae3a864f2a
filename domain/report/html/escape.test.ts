import { describe, expect, it } from "vitest";
import { escapeHtml, safeHref, truncate } from "./escape.js";

describe("escapeHtml", () => {
  it("escapes the five markup characters, in text and attribute positions alike", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    expect(escapeHtml("</details></pre></script>")).toBe("&lt;/details&gt;&lt;/pre&gt;&lt;/script&gt;");
  });

  it("returns plain text unchanged and prints nil as nothing", () => {
    const plain = "Order 4821 ships Thursday.";
    expect(escapeHtml(plain)).toBe(plain);
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(undefined)).toBe("");
    expect(escapeHtml(42)).toBe("42");
  });

  it("writes characters beyond Latin-1 as references, a surrogate pair as one, a lone surrogate as U+FFFD", () => {
    expect(escapeHtml("a — b × c")).toBe("a &#8212; b × c");
    expect(escapeHtml("😀")).toBe("&#128512;");
    expect(escapeHtml("x\ud800y")).toBe("x&#65533;y");
    expect(escapeHtml("日本 <b>")).toBe("&#26085;&#26412; &lt;b&gt;");
  });

  it("shows controls and bidi overrides as their code points: NUL (the parser would drop it), ESC, DEL, C1, U+202E", () => {
    expect(escapeHtml("x\u0000y")).toBe("x&#10216;U+0000&#10217;y");
    expect(escapeHtml("\u0000<")).toBe("&#10216;U+0000&#10217;&lt;");
    expect(escapeHtml("a\u001b]0;pwned\u0007b\u007f\u009b")).toBe(
      "a&#10216;U+001B&#10217;]0;pwned&#10216;U+0007&#10217;b&#10216;U+007F&#10217;&#10216;U+009B&#10217;",
    );
    expect(escapeHtml("gpt\u202eevil\u2066x\u2069")).toBe("gpt&#10216;U+202E&#10217;evil&#10216;U+2066&#10217;x&#10216;U+2069&#10217;");
  });

  it("keeps tab, line breaks and the direction marks RTL text needs (LRM, RLM, ALM) as text", () => {
    expect(escapeHtml("a\tb\nc\r\nd")).toBe("a\tb\nc\r\nd");
    expect(escapeHtml("\u200e\u200f\u061c")).toBe("&#8206;&#8207;&#1564;");
  });

  it("does not double-escape an entity that was text", () => {
    expect(escapeHtml("&lt;script&gt;")).toBe("&amp;lt;script&amp;gt;");
  });
});

describe("safeHref", () => {
  it.each([
    ["/mcp/orders", "/mcp/orders"],
    ["#scenario-a", "#scenario-a"],
    ["https://dashboard.example/tools", "https://dashboard.example/tools"],
    ["  /tools  ", "/tools"],
  ])("keeps %j", (input, output) => expect(safeHref(input)).toBe(output));

  it.each(["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<script>", "//evil.example/x", "/\\evil.example", "vbscript:x", "/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "/tools\u0000", "javascript:alert(1)//http://x", "data:x,http://y", "", null, 42])(
    "refuses %j",
    (input) => expect(safeHref(input)).toBeNull(),
  );
});

describe("truncate", () => {
  it("keeps n - 3 characters plus three dots, counting code points", () => {
    expect(truncate("abcdefghij", 8)).toBe("abcde...");
    expect(truncate("abcdefghij", 10)).toBe("abcdefghij");
    expect(truncate("😀😀😀😀😀", 4)).toBe("😀...");
    expect(truncate("😀😀😀😀", 4)).toBe("😀😀😀😀");
  });

  it("walks no further than the limit on a 1 MB string", () => {
    const big = "x".repeat(1_048_576);
    const started = performance.now();
    for (let i = 0; i < 1000; i++) truncate(big, 3000);
    expect(performance.now() - started).toBeLessThan(500);
    expect(truncate(big, 3000)).toHaveLength(3000);
  });
});
