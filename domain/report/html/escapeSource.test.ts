import { describe, expect, it } from "vitest";
import { escapeHtml } from "./escape.js";
import { escapeSource } from "./escapeSource.js";

describe("escapeSource", () => {
  it("writes the same entities and references as escapeHtml", () => {
    const samples = [
      "",
      "plain text",
      `<script>alert("x")</script> & 'quotes' > end`,
      "✅ passed · ⚠️ errored — é ÿ Ā \u{1F600} \u{10FFFF}",
      "lone \ud800 high, lone \udc00 low, pair at the end \ud83d\ude00",
      "bytes \u0080\u00a0\u00ff and \u0001\u001f",
    ];
    for (const text of samples) expect(escapeSource(text, 0, text.length)).toBe(escapeHtml(text));
  });

  it("writes a carriage return and NUL as references, which a parser reads back as one unit each", () => {
    expect(escapeSource("a\r\nb\0c", 0, 6)).toBe("a&#13;\nb&#0;c");
  });

  it("escapes only the range asked for, and returns a one-byte-safe string", () => {
    const text = "ab<✅>cd";
    expect(escapeSource(text, 2, 5)).toBe("&lt;&#9989;&gt;");
    expect(/[\u0100-\uffff]/.test(escapeSource(text, 0, text.length))).toBe(false);
  });

  it("grows its buffer for a long text", () => {
    const long = "✅".repeat(200_000);
    expect(escapeSource(long, 0, long.length)).toBe("&#9989;".repeat(200_000));
  });
});
