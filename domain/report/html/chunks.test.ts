import { describe, expect, it } from "vitest";
import { Chunks } from "./chunks.js";

describe("Chunks", () => {
  it("returns what was added, in order, past its first buffer and across flat pieces", () => {
    const html = new Chunks();
    let expected = "";
    for (let i = 0; i < 20_000; i++) {
      const piece = `<td>${i} caf\u00e9 \u00ff</td>`;
      html.add(piece);
      expected += piece;
      if (i % 5_000 === 0) {
        const flat = "QUJD".repeat(10_000);
        html.addFlat(flat);
        expected += flat;
      }
    }
    expect(html.toString()).toBe(expected);
  });

  it("keeps text beyond Latin-1 exactly as it was added, with what came before it", () => {
    const html = new Chunks();
    html.add("<p>before \u00e9</p>");
    html.add("<p>\u2705 \u{1F600}</p>");
    html.add("<p>after</p>");
    expect(html.toString()).toBe("<p>before \u00e9</p><p>\u2705 \u{1F600}</p><p>after</p>");
  });

  it("keeps a wide character that comes after pages of one-byte text, and what follows it", () => {
    const html = new Chunks();
    const before = "<td>caf\u00e9</td>".repeat(10_000);
    html.add(before);
    html.addFlat("QUJD".repeat(1_000));
    html.add("<p>pass \u2265 50%</p>");
    html.add("<td>after</td>".repeat(5_000));
    expect(html.toString()).toBe(`${before}${"QUJD".repeat(1_000)}<p>pass \u2265 50%</p>${"<td>after</td>".repeat(5_000)}`);
  });

  it("gives the same page on every call and takes nothing after it is made", () => {
    const html = new Chunks();
    html.add("<p>page</p>");
    expect(html.toString()).toBe("<p>page</p>");
    expect(html.toString()).toBe("<p>page</p>");
    expect(() => html.add("<p>more</p>")).toThrow(/already made/);
    expect(() => html.addFlat("QUJD")).toThrow(/already made/);
  });
});
