// Untrusted text in the Markdown report, as a Markdown renderer reads it: markdown-it, a
// CommonMark parser, with GFM tables and raw HTML allowed, as GitHub takes a pasted report.
// Whatever an answer holds, it renders no tag, link or image, and a table cell stays one cell.
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { cell, code, inline, quote } from "./markdownText.js";
import { fixItemBlock } from "./markdownFixItems.js";
import { checkGfm } from "./gfmCheck.js";
import { Report } from "./report.js";
import { fakeResult, model } from "./testing.js";
import { ModelSpec } from "../models/index.js";
import { Runner } from "../runner/index.js";
import { Scenario } from "../scenarios/scenario.js";

const markdown = new MarkdownIt({ html: true });
/** Markup only untrusted text could have brought: an HTML tag, a link, an image. */
const RAW = /<(b|i|img|script|details|summary|a|div|span|iframe|style)[\s>/]|<\/(details|summary|b|script)\b/i;

// Pieces that open HTML, links, images, code, tables, lists and headings, and backslashes that
// could escape an escape.
const PIECES = ["`", "``", "```", "~~~", "````", "```js", "~~~<b>", "`<b>`", "   ", "\u00a0", "<b>", "</details>", "<img src=x onerror=alert(1)>", "|", "\\", "\\|", "[x](javascript:alert(1))", "[x](http://t/x)", "![i](http://t/p.png)", "<http://evil.example>", "- ", "1. ", "# ", "    ", "  ", "> ", "a", "b c", "\n", "\n\n", "\r\n", "\u2028", "&", "&lt;", "*", "|---|", "\t", "---"];

function answers(count: number, seed: number): string[] {
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  return Array.from({ length: count }, () => {
    let answer = "";
    const length = 1 + Math.floor(random() * 40);
    for (let i = 0; i < length; i += 1) answer += PIECES[Math.floor(random() * PIECES.length)];
    return answer;
  });
}

describe("untrusted text as a Markdown renderer reads it", () => {
  it("a backslash in the text cannot undo the escape of a [ (no link, no tracking pixel)", () => {
    expect(quote("\\[x](javascript:alert(1)) \\![i](http://t/p.png)")).toBe("> \\\\\\[x](javascript:alert(1)) \\\\!\\[i](http://t/p.png)");
    const html = markdown.render(quote("see \\![i](http://t/p.png)"));
    expect(html).toBe("<blockquote>\n<p>see \\![i](http://t/p.png)</p>\n</blockquote>\n");
  });

  it("renders no tag, link or image from 4,000 random answers, quoted or in a list line", () => {
    for (const answer of answers(4000, 7)) {
      for (const md of [quote(answer), `- **Fault:** ${inline(answer)}`]) {
        const html = markdown.render(md);
        if (RAW.test(html)) throw new Error(`raw markup from ${JSON.stringify(answer)}:\n${md}\n->\n${html}`);
      }
    }
  });

  it("a quoted answer inside a <details> block leaves it open until our own </details>, whatever code it opens", () => {
    for (const answer of answers(4000, 13)) {
      const html = markdown.render(`<details><summary>s</summary>\n\n${quote(answer)}\n\n</details>\n\nafter`);
      const inside = html.slice("<details><summary>s</summary>\n".length, -"</details>\n<p>after</p>\n".length);
      if (!html.endsWith("</details>\n<p>after</p>\n") || RAW.test(inside)) throw new Error(`broken by ${JSON.stringify(answer)}:\n${html}`);
    }
  });

  it("shows code in an answer as written: a code span and a fenced block, in prose that is still escaped", () => {
    const answer = "Use `arr[0] && x < 3` here <b>now</b>:\n\n```js\nif (a < b && c[0]) s = \"\\\\n\";\n```\n\nDone [x](javascript:alert(1))";
    expect(markdown.render(quote(answer))).toBe(
      "<blockquote>\n<p>Use <code>arr[0] &amp;&amp; x &lt; 3</code> here &lt;b&gt;now&lt;/b&gt;:</p>\n" +
        '<pre><code class="language-js">if (a &lt; b &amp;&amp; c[0]) s = &quot;\\\\n&quot;;\n</code></pre>\n' +
        "<p>Done [x](javascript:alert(1))</p>\n</blockquote>\n",
    );
  });

  it("escapes the code it cannot be sure a renderer reads as code: a span across lines or a |, a fence in a list item", () => {
    const cases = [
      "a `b\n<img src=x onerror=alert(1)>` c",
      "| h |\n|---|\n| `a | `b` <img src=x onerror=alert(1)>` |",
      "- |x\n   ~~~\n`<b>`````",
      "x ` y\n# `<img src=x onerror=alert(1)>` `",
    ];
    for (const answer of cases) {
      const html = markdown.render(quote(answer));
      expect(html, JSON.stringify(answer)).not.toMatch(RAW);
    }
  });

  it("keeps a table row's cells whatever a cell holds", () => {
    for (const answer of answers(2000, 11)) {
      const html = markdown.render(`| h | ${cell(answer)} | z |\n|---|---|---|\n| r | ${cell(answer)} | z |`);
      expect((html.match(/<td/g) ?? []).length, JSON.stringify(answer)).toBe(3);
      expect(html).not.toMatch(RAW);
    }
  });

  it("a stray backtick in one-line text cannot pair with our code spans on the same line and unwrap the text inside them", () => {
    // A tool's error note and the next tool's name share the "Failing tools" line: an odd
    // backtick in the note used to close on the name's opening fence, leaving the name live.
    const tools = [
      { name: "search", note: "syntax error near `query" },
      { name: "<img src=https://evil.example/pixel.png>", note: "x" },
    ];
    const line = `- Failing tools: ${tools.map((tool) => `${code(tool.name)} — ${inline(tool.note)}`).join(", ")}`;
    expect(markdown.render(line)).not.toMatch(RAW);
    for (const text of answers(2000, 17)) {
      const html = markdown.render(`- ${inline(text)} ${code("<img src=x onerror=alert(1)>")} ${inline(text)} ${code("[x](javascript:alert(1))")}`);
      if (/<img|<a /.test(html.replace(/<code>[\s\S]*?<\/code>/g, ""))) throw new Error(`unwrapped by ${JSON.stringify(text)}:\n${html}`);
    }
  });

  it("a report whose failing tools carry a stray backtick and a tag for a name renders no tag", async () => {
    const report = await new Runner({
      scenarios: [new Scenario({ key: "s1", prompt: "Find my order" })],
      models: [ModelSpec.parse("gpt-5-mini", { defaultProvider: "openai" })],
      replay: () => ({
        answer: "Sorry.",
        tool_calls: [
          { name: "search", error: true, detail: "syntax error near `query" },
          { name: "<img src=https://evil.example/pixel.png>", error: true, detail: "x" },
        ],
      }),
    }).run();
    const outsideCode = (md: string) => markdown.render(md).replace(/<pre>[\s\S]*?<\/pre>/g, "").replace(/<code>[\s\S]*?<\/code>/g, "");
    expect(report.fixItems.some((item) => item.tools.length === 2)).toBe(true);
    for (const item of report.fixItems) expect(outsideCode(fixItemBlock(item))).not.toMatch(/<img/);
    expect(outsideCode(report.toMarkdown())).not.toMatch(/<img/);
  });

  it("an errored result's error that holds </details> and a tag stays literal text inside its scenario's one block", () => {
    const error = "boom\n</details>\n<img src=x>";
    const report = new Report({
      results: [fakeResult({ key: "a", label: "m1", score: 0, error }), fakeResult({ key: "b", label: "m1" })],
      models: [model("m1")],
    });
    const md = report.toMarkdown();
    expect(checkGfm(md)).toEqual([]);
    expect(md.split("\n").filter((line) => line === "<details>")).toHaveLength(2);
    expect(md.split("\n").filter((line) => line === "</details>")).toHaveLength(2);
    expect(markdown.render(report.scenarioMarkdown("a"))).not.toMatch(/<img/);
    expect(report.scenarioMarkdown("a")).toContain("&lt;img src=x&gt;");
  });

  it("run metadata in the header stays one paragraph of text whatever its keys and values hold", () => {
    const texts = answers(600, 23);
    for (let i = 0; i + 1 < texts.length; i += 2) {
      const report = new Report({ results: [fakeResult({ key: "a", label: "m1" })], models: [model("m1")], metadata: { [texts[i]]: texts[i + 1], ci_build: texts[i + 1] } });
      const md = report.toMarkdown();
      const header = md.slice(0, md.indexOf("\n\n## Verdict"));
      const html = markdown.render(header);
      // Title, judge line, Metadata line, threshold: four blocks, the Metadata one a paragraph of its own.
      const blocks = html.split("\n").filter((line) => line !== "");
      if (blocks.length !== 4 || !blocks[2].startsWith("<p>Metadata: ") || RAW.test(html) || /<a |<img/.test(html)) {
        throw new Error(`broken by ${JSON.stringify([texts[i], texts[i + 1]])}:\n${header}\n->\n${html}`);
      }
      expect(checkGfm(md)).toEqual([]);
    }
  });
});
