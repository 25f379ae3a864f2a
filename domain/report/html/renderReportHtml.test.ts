import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { renderReportHtml } from "./index.js";
import type { ReportDocument, ReportMarkdown, ResultDoc } from "./reportDocument.js";
import { sampleMarkdown, sampleReport } from "./sampleReport.js";
import { fakeResult, markdownSourceOf, model, partlyPricedResults } from "../testing.js";
import { Report } from "../report.js";

const render = (doc: ReportDocument, theme?: "light" | "dark" | "system", markdown?: ReportMarkdown): string =>
  renderReportHtml(doc, { theme, markdown: markdown ?? sampleMarkdown(doc) });

/** Every real tag of the page: all untrusted `<` are escaped, so a literal `<name` is ours. */
const tags = (html: string): string[] => html.match(/<[a-zA-Z][^>]*>/g) ?? [];

/**
 * A tag's attribute names and bare text, its quoted values emptied: every value is written in
 * double quotes with `"` escaped, so untrusted text inside one (an aria-label naming a hostile
 * key) cannot pose as an attribute.
 */
const unquoted = (tag: string): string => tag.replace(/"[^"]*"/g, '""');


function result(overrides: Partial<ResultDoc>): ResultDoc {
  return { scenario_key: "s1", label: "m1", status: "passed", score: 1, prompt: "p", answer: "a", ...overrides };
}

function singleModel(results: ResultDoc[]): ReportDocument {
  const passed = results.filter((r) => r.status === "passed").length;
  return {
    summary_by_model: { m1: { provider: "openai", model: "m1", scenarios: results.length, passed, cost: null, priced: 0, estimated: 0, faults: {} } },
    criteria: { response_present: {} },
    fix_items: [],
    results,
  };
}

/** The bench's shape: scenarios x 5 models, passes and faults, tool calls, costs, some estimated. */
function workload(scenarios: number): { doc: ReportDocument } {
  const labels = ["a/m1", "b/m2", "c/m3", "d/m4", "e/m5"];
  const results: ResultDoc[] = [];
  for (let s = 0; s < scenarios; s++) {
    for (const [i, label] of labels.entries()) {
      const failed = (s + i) % 4 === 0;
      results.push(result({
        scenario_key: `scenario_${s}`, group: `group_${Math.floor(s / 50)}`, label, prompt: `Where is order ${s}? Tell me "now" & fast.`,
        status: failed ? "failed" : "passed", score: failed ? 0.4 : 0.9, fault: failed ? "expected_tool_not_called" : null,
        diagnosis: failed ? { summary: "lookup_order was not called" } : null, answer: `Order ${s} <ships> soon. `.repeat(8),
        tool_calls: [{ name: "lookup_order", error: s % 7 === 0 }], duration_ms: 900 + s, input_tokens: 1200, output_tokens: 200,
        cost: 0.0012, metadata: { cost_source: i === 2 ? "estimated" : "reported" }, expect: { tools: ["lookup_order"] },
      }));
    }
  }
  const summary = Object.fromEntries(labels.map((l) => [l, { scenarios, passed: Math.round(scenarios * 0.75), cost: scenarios * 0.0012, priced: scenarios, estimated: 0, faults: { expected_tool_not_called: Math.round(scenarios / 4) } }]));
  return { doc: { summary_by_model: summary, criteria: {}, fix_items: [], results } };
}

describe("renderReportHtml: page shape", () => {
  const html = render(sampleReport(), "light");

  it("is one document with the title and the content in the guide's order", () => {
    expect(html.startsWith("<!DOCTYPE html>\n<html lang=\"en\" class=\"theme-light\">")).toBe(true);
    expect(html).toContain("<title>Evaluation &#8212; 6 scenarios × 3 models</title>");
    expect(html).toContain("<h1>Evaluation &#8212; 6 scenarios × 3 models</h1>");
    const order = ['class="tiles"', 'id="models"', 'id="comparison"', 'id="scenarios"', 'id="details"', 'id="fix"', "<footer>"];
    const positions = order.map((marker) => html.indexOf(marker));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("marks the judge's pick and carries the verdict's rationale", () => {
    expect(html).toMatch(/claude-sonnet-5 <span class="badge pick">judge's pick<\/span>/);
    expect(html).toContain("Passed 6 of 6 scenarios (100%) with a mean score of 89% at ~$0.0115 (estimated).");
  });

  it("plots each model's pass rate inside its interval on a 0-100% axis, best first", () => {
    const plot = html.slice(html.indexOf('class="plot"'), html.indexOf('class="conclusion"'));
    const order = ["claude-sonnet-5", "gpt-5-mini", "ollama/qwen3:8b"].map((l) => plot.indexOf(`<code>${l}</code>`));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(plot).toContain('<span class="interval" style="left:33.3%;width:66.7%"></span><span class="dot" style="left:66.7%"></span>');
    expect(plot).toContain("66.7% [33.3% &#8211; 100%] · 6 scenarios");
    expect(html).toContain("Percentile bootstrap over whole scenarios: 5,000 resamples");
  });

  it("ranks the comparison as the verdict does: on equal pass rate and score, cheaper first and unpriced last", () => {
    const doc = sampleReport();
    const tied = { pass_rate: 100, passed: 6, avg_score: 0.9 };
    const summaries = doc.summary_by_model!;
    // Model order: gpt-5-mini ($0.05 / scenario), claude-sonnet-5 ($0.01), ollama/qwen3:8b (unpriced).
    Object.assign(summaries["gpt-5-mini"], tied, { cost: 0.3, priced: 6 });
    Object.assign(summaries["claude-sonnet-5"], tied, { cost: 0.06, priced: 6 });
    Object.assign(summaries["ollama/qwen3:8b"], tied, { cost: null, priced: 0 });
    const page = render(doc, "light");
    const table = page.slice(page.indexOf('id="comparison"'), page.indexOf('class="plot"'));
    const rows = ["claude-sonnet-5", "gpt-5-mini", "ollama/qwen3:8b"].map((l) => table.indexOf(`<code>${l}</code>`));
    expect(rows.every((at) => at > 0)).toBe(true);
    expect([...rows].sort((a, b) => a - b)).toEqual(rows);
  });

  it("holds one disclosure per scenario with every model's answer", () => {
    expect(html.match(/<details class="scenario"/g)).toHaveLength(6);
    const details = html.slice(html.indexOf('id="scenario-order_lookup"'), html.indexOf('id="scenario-refund_request"'));
    expect(details).toContain("Order 4821 shipped on 12 March");
    expect(details).toContain("Orders usually arrive within 5 days.");
    expect(html).toContain("answer not retained for this run");
  });

  it("renders the what-to-fix cards with a CSS-only model filter", () => {
    expect(html.match(/<div class="fix-card[ "]/g)).toHaveLength(3);
    expect(html).toContain('<label for="fix-all" class="badge">all models 3</label>');
    expect(html).toContain("#fix-model-1:checked ~ .fix-cards .fix-card:not(.m1) { display: none; }");
    expect(html).toContain('<a class="button primary" href="/mcp/orders" target="_top"');
    expect(html).toContain("&#8220;Never tell the customer &quot;I cannot&quot;; offer the next step instead.&#8221;");
  });

  it("writes every character beyond Latin-1 as a reference, so the page is a one-byte string", () => {
    // eslint-disable-next-line no-control-regex -- the whole Latin-1 range, NUL included
    expect(html).not.toMatch(/[^\u0000-\u00ff]/);
    expect(html).toContain("Settings &#8594; Billing");
    expect(html).toContain("&#128512;");
  });

  it("writes the legend once, in the footer, because estimated figures are shown", () => {
    expect(html.split("~ estimated from tokens × model rates")).toHaveLength(2);
    expect(html.indexOf("~ estimated from tokens × model rates")).toBeGreaterThan(html.indexOf("<footer>"));
  });

  it("shows the working of an estimated cost in its tooltip", () => {
    const doc = singleModel([result({ cost: 0.0243, input_tokens: 2328, output_tokens: 423, metadata: { cost_source: "estimated", cost_rate: { input: 5, output: 30, source: "catalog" } } })]);
    const page = render(doc);
    expect(page).toContain('<small title="estimated: 2,328 in × $5.00/M + 423 out × $30.00/M · catalog rate">~$0.0243</small>');
  });

  it("omits the legend when no figure is an estimate", () => {
    const page = render(singleModel([result({ cost: 0.002, metadata: { cost_source: "reported" } })]));
    expect(page).toContain("$0.0020");
    expect(page).not.toContain("estimated from tokens");
    expect(page).not.toContain("~$");
  });
});

describe("renderReportHtml: controls a keyboard and a screen reader can tell apart", () => {
  const html = render(sampleReport(), "light");
  const names = (page: string): string[] => [...page.matchAll(/<button type="button" class="copy"[^>]* aria-label="([^"]*)">/g)].map((m) => m[1]);

  it("names each piece's Copy button after its piece, after the visible text, all distinct", () => {
    const all = names(html);
    expect(all).toContain("Copy as Markdown: verdict");
    expect(all).toContain("Copy as Markdown: scenario order_lookup");
    expect(all).toContain("Copy as Markdown: fix item 1, expected tool not called ×2");
    expect(all.length).toBe(1 + 6 + 3);
    expect(new Set(all).size).toBe(all.length);
    // The buttons whose text already says what they copy keep it as their name.
    expect(html).toContain('data-copy="md-report">Copy report as Markdown</button>');
  });

  it("escapes a hostile scenario key inside a button's name", () => {
    const doc = sampleReport();
    doc.results[0] = { ...doc.results[0], scenario_key: 'k" onclick="x()<b>&' };
    const page = render(doc, "light");
    expect(page).toContain('aria-label="Copy as Markdown: scenario k&quot; onclick=&quot;x()&lt;b&gt;&amp;"');
  });

  it("has one live region for the copy script to announce into", () => {
    expect(html.match(/role="status"/g)).toHaveLength(1);
    expect(html).toContain('<div id="copy-status" class="sr-only" role="status"></div>\n<script>');
  });

  it("says the What to fix Copy all copies every model when there is a model filter", () => {
    expect(html).toMatch(/data-copy="md-fix-items"[^>]*>Copy all \(every model\) as Markdown<\/button>/);
    const single = sampleReport();
    const one = render({ ...single, summary_by_model: { m1: single.summary_by_model!["gpt-5-mini"] }, results: single.results.filter((r) => r.label === "gpt-5-mini").map((r) => ({ ...r, label: "m1" })) }, "light");
    expect(one).not.toContain("every model");
  });

  it("groups the filter chips as one named radio group that owns the radios", () => {
    expect(html).toContain('<div class="fix-filter" role="radiogroup" aria-label="Filter by model" aria-owns="fix-all fix-model-0 fix-model-1 fix-model-2">');
  });

  it("outlines the chip of the focused radio, one rule per radio", () => {
    for (const id of ["fix-all", "fix-model-0", "fix-model-1", "fix-model-2"]) {
      expect(html).toContain(`#${id}:focus-visible ~ .fix-filter label[for="${id}"] { outline: 2px solid var(--color-info); outline-offset: 2px; }`);
    }
  });

  it("draws the disclosure marker a flex summary loses, closed and open", () => {
    expect(html).toContain('details.scenario > summary::before { content: "\\25B8"');
    expect(html).toContain('details.scenario[open] > summary::before { content: "\\25BE"');
  });

  it("heads each table row with its scenario, group or model, and scopes every header cell", () => {
    const matrix = html.slice(html.indexOf('id="scenarios"'), html.indexOf('id="details"'));
    expect(matrix).toContain('<tr><th scope="row"><a href="#scenario-order_lookup"><code>order_lookup</code></a><div class="prompt">');
    expect(matrix).toContain('<tr class="group"><th scope="row">Orders</th><td');
    expect(matrix).toContain('<thead><tr><th scope="col">Scenario</th><th scope="col"><code>gpt-5-mini</code></th>');
    const comparison = html.slice(html.indexOf('id="comparison"'), html.indexOf('class="plot"'));
    expect(comparison).toContain('<tr><th scope="row"><code>claude-sonnet-5</code><span class="star">&#9733; pick</span></th><td class="num">');
    // No cell in a row starts with a <td> any more, and no header cell is left without a scope.
    expect(html).not.toMatch(/<tr[^>]*><td/);
    expect(tags(html).filter((tag) => /^<th[ >]/.test(tag) && !/^<th scope="(row|col)">$/.test(tag))).toEqual([]);
  });

  it("names both tables, and their scroll boxes, after their section's heading", () => {
    for (const id of ["comparison", "scenarios"]) {
      expect(html).toContain(`<h2 id="${id}-title">`);
      expect(html).toContain(`<div class="scroll" tabindex="0" role="region" aria-labelledby="${id}-title"><table aria-labelledby="${id}-title">`);
    }
    expect(html.match(/<div class="scroll"/g)).toHaveLength(2);
    expect(html).toContain(".scroll:focus-visible { outline: 2px solid var(--color-info); outline-offset: 2px; }");
  });

  it("says each matrix cell's status in a word and hides its mark from a screen reader", () => {
    const matrix = html.slice(html.indexOf('id="scenarios"'), html.indexOf('id="details"'));
    expect(matrix).toContain('<td class="c-p"><b><span aria-hidden="true">[+]</span><span class="sr-only">passed</span> 95%</b>');
    expect(matrix).toContain('<td class="c-f"><b><span aria-hidden="true">[!]</span><span class="sr-only">failed</span> 35%</b>');
    expect(matrix).toContain('<td class="c-e"><b><span aria-hidden="true">[x]</span> errored</b>');
    // Every mark in a cell is hidden; none is left for a screen reader to read as punctuation.
    expect(matrix.replace(/<span aria-hidden="true">\[[+!x]\]<\/span>/g, "")).not.toMatch(/\[[+!x]\]/);
  });

  it("marks errored apart from failed by its glyph, not only its colour", () => {
    expect(html).toContain('<span class="mono" role="img" aria-label="gpt-5-mini failed, claude-sonnet-5 passed, ollama/qwen3:8b errored"> <i class="bad-text">[!]</i> <i class="ok-text">[+]</i> <i class="warn-text">[x]</i></span>');
    expect(html).not.toContain('<i class="warn-text">[!]</i>');
  });

  it("tells the checked filter chip by a tick, weight and a ring as well as its colour", () => {
    const rule = html.match(/#fix-all:checked ~ \.fix-filter label\[for="fix-all"\],\n[^{]*\{([^}]*)\}/)?.[1] ?? "";
    expect(rule).toContain("font-weight: 600;");
    expect(rule).toContain("box-shadow: inset 0 0 0 1px currentColor;");
    expect(html).toContain('#fix-model-2:checked ~ .fix-filter label[for="fix-model-2"]::before { content: "\\2713  "; content: "\\2713  " / ""; }');
  });

  it("sets small text in tokens that read at 4.5:1 in both themes: not text-muted, not the accent on its tint", () => {
    const css = html.slice(html.indexOf("<style>"), html.indexOf("</style>"));
    expect(css).not.toMatch(/[^-]color: var\(--color-text-muted\)/);
    expect(css).not.toMatch(/[^-]color: var\(--color-accent\)/);
    expect(css).toContain(".button.primary { background: var(--color-accent-ui-hover); border-color: var(--color-accent-ui-hover); color: var(--color-on-accent); }");
  });

  it("puts the header and the footer beside <main>, as the page's banner and contentinfo", () => {
    const body = html.slice(html.indexOf("<body>"));
    expect(body.startsWith('<body>\n<header class="head">')).toBe(true);
    expect(body.indexOf("</header>\n<main>")).toBeGreaterThan(0);
    expect(body.indexOf("</main>\n<footer>")).toBeGreaterThan(body.indexOf("</header>"));
    expect(html.match(/<main>/g)).toHaveLength(1);
  });

  it("heads each model panel and each fix card with an h3 under its section's h2", () => {
    expect(html).toContain('<h3 class="name">claude-sonnet-5 <span class="badge pick">judge\'s pick</span></h3>');
    expect(html).toContain('<h3 class="title">expected tool not called ×2</h3>');
    expect(html.match(/<h3 class="name">/g)).toHaveLength(3);
    expect(html.match(/<h3 class="title">/g)).toHaveLength(3);
  });
});

describe("renderReportHtml: themes and tokens", () => {
  it("pins light or dark with a class and follows the system otherwise", () => {
    expect(render(sampleReport(), "dark")).toContain('<html lang="en" class="theme-dark">');
    expect(render(sampleReport(), "system")).toContain('<html lang="en">\n');
    expect(render(sampleReport())).toContain('<html lang="en">\n');
  });

  it("puts the light tokens on :root and the dark overrides behind the media query and the dark class", () => {
    const html = render(sampleReport());
    expect(html).toContain(":root {\n  color-scheme: light;\n  --color-accent: #FA343B;");
    expect(html).toContain("@media (prefers-color-scheme: dark) {\n:root:not(.theme-light) {\n  color-scheme: dark;");
    expect(html).toContain(":root.theme-dark {\n  color-scheme: dark;\n  --color-accent-ui-tint: rgba(239, 68, 68, 0.15);");
    expect(html).toContain("--font-mono: \"JetBrains Mono\"");
  });
});

describe("renderReportHtml: self-contained and safe", () => {
  const hostile = "<script>alert(1)</script></details></pre><img src=x onerror=alert(2)>\"'&";
  const doc = singleModel([
    result({ scenario_key: 'k"><script>alert(3)</script>', prompt: hostile, answer: hostile, status: "failed", score: 0.2, fault: "low_quality",
      diagnosis: { summary: hostile }, recommendation: hostile, error: hostile,
      tool_calls: [{ name: hostile, error: true, detail: hostile }], group: hostile }),
    result({ scenario_key: "s2", answer: "[click](javascript:alert(1)) <a href=\"javascript:alert(1)\">x</a>" }),
  ]);
  doc.fix_items = [
    { kind: "fault", fault: hostile, count: 1, scenario_keys: [hostile], models: ["m1"], recommendation: hostile, quote: hostile,
      tools_label: hostile, tools: [{ name: hostile, note: hostile, server: null }], server: { key: hostile, name: hostile, status: hostile },
      note: hostile, action: { label: hostile, hint: hostile, path: "javascript:alert(1)" } },
    { kind: "fault", fault: "tool_error", count: 1, scenario_keys: ["s2"], models: ["m1"], action: { label: "Open", path: "  JavaScript:alert(1)" } },
    { kind: "fault", fault: "tool_error", count: 1, scenario_keys: ["s2"], models: ["m1"], action: { label: "Open", path: "//evil.example/x" } },
  ];
  doc.metadata = { [hostile]: hostile };
  doc.release = { label: hostile };
  doc.verdict = { winner: hostile, rationale: hostile, judge: hostile };
  doc.judge = hostile;
  const markdown: ReportMarkdown & { scenarios: Record<string, string> } = {
    report: `# r\n\n${hostile}\n</pre></textarea>`, verdict: hostile, fixItems: hostile,
    fixItem: [hostile, hostile, hostile], scenarios: { s2: "line 1\n\n| a \\| b |\n" },
  };
  const html = render(doc, "light", markdown);

  it("escapes answers, prompts, tool output, keys and metadata so no markup or script gets through", () => {
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    for (const tag of tags(html)) expect(unquoted(tag)).not.toMatch(/\son[a-z]+=/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&lt;/details&gt;&lt;/pre&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;");
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<\/details>/g)).toHaveLength(2);
    expect(html).toContain('id="scenario-k&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;"');
  });

  it("never links to javascript:, data: or another host's protocol-relative URL", () => {
    const hrefs = tags(html).flatMap((tag) => [...tag.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^(#|\/(?!\/))/);
    expect(html).toContain('<span class="badge">Open</span>');
  });

  it("loads nothing: no src, no external stylesheet, a policy that forbids every fetch", () => {
    for (const tag of tags(html)) expect(unquoted(tag)).not.toMatch(/\s(src|srcset|poster|action|formaction|background)=/i);
    expect(tags(html).filter((t) => t.startsWith("<link"))).toEqual([]);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[^']+'/);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it("pins the one script by its hash in the policy", () => {
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
    const hash = createHash("sha256").update(script, "utf8").digest("base64");
    expect(html).toContain(`script-src 'sha256-${hash}'`);
  });

  it("keeps each Copy as Markdown source intact, encoded on the page and exact when read back", () => {
    expect(markdownSourceOf(html, "md-report")).toBe(markdown.report);
    expect(markdownSourceOf(html, "md-fix-0")).toBe(hostile);
    expect(markdownSourceOf(html, "md-scenario-1")).toBe(markdown.scenarios.s2);
    expect(html).not.toContain('id="md-scenario-0"');
  });

  it("cuts a 1 MB answer to 3,000 characters in the page and renders it quickly", () => {
    const big = `${"<b>".repeat(100)}${"x".repeat(1_048_576)}`;
    const bigDoc = singleModel([result({ answer: big, prompt: "y".repeat(1_048_576), error: big })]);
    bigDoc.results[0].status = "errored";
    // CPU time, not wall time: a loaded machine stretched the wall clock past the bound, while a
    // page that escaped the whole answer before cutting it would take far more CPU than this.
    const started = process.cpuUsage();
    const page = render(bigDoc);
    const { user, system } = process.cpuUsage(started);
    const elapsed = (user + system) / 1000;
    expect(page).not.toContain("<b><b>");
    expect(page).toContain(`&lt;b&gt;`.repeat(100) + "x".repeat(2697) + "...</pre>");
    expect(page).not.toContain("x".repeat(3000));
    // The reader is told the answer went on: 100 tags of 3 characters and 1 MiB of x.
    expect(page).toContain(`...</pre><p class="small">cut at 3,000 of 1,048,876 characters</p>`);
    expect(elapsed).toBeLessThan(1500);
  });

  it("says nothing of a cut when the answer fits, however many UTF-16 units it takes", () => {
    const emoji = "\u{1F600}".repeat(3000);
    const page = render(singleModel([result({ answer: emoji })]));
    expect(page).not.toContain("...</pre>");
    expect(page).not.toContain("cut at");
  });
});

describe("renderReportHtml: the whole report's Markdown", () => {
  const copied = (html: string, label: string): string => {
    const button = new RegExp(`<button type="button" class="copy" data-copy="([^"]+)">${label}</button>`).exec(html);
    if (!button) throw new Error(`no button ${label}`);
    return button[1].split(" ").map((id) => markdownSourceOf(html, id)).join("");
  };

  /** What a piece's button copies: its slice of #md-report when it has a range, else its own source. */
  const pieceCopied = (html: string, id: string): string => {
    const button = new RegExp(`<button type="button" class="copy" data-copy="${id}"(?: data-range="(\\d+) (\\d+)")?[ >]`).exec(html);
    if (!button) throw new Error(`no button ${id}`);
    return button[1] === undefined ? markdownSourceOf(html, id) : markdownSourceOf(html, "md-report").slice(Number(button[1]), Number(button[2]));
  };

  it("is on the page once, and each piece of it is copied as its slice, exactly", () => {
    const doc = sampleReport();
    const pieces = sampleMarkdown(doc);
    const keys = [...new Set(doc.results.map((r) => r.scenario_key))];
    const report = `# Evaluation\n\n${pieces.verdict}\n## Scenarios\n\n${keys.map((k) => pieces.scenarios[k]).join("\n")}\n${pieces.fixItems}`;
    const html = render(doc, "light", { ...pieces, report });
    expect(copied(html, "Copy report as Markdown")).toBe(report);
    expect(pieceCopied(html, "md-verdict")).toBe(pieces.verdict);
    keys.forEach((key, i) => expect(pieceCopied(html, `md-scenario-${i}`)).toBe(pieces.scenarios[key]));
    expect(pieceCopied(html, "md-fix-items")).toBe(pieces.fixItems);
    pieces.fixItem.forEach((text, i) => expect(pieceCopied(html, `md-fix-${i}`)).toBe(text));
    // Every piece found in the report is a slice of it (the sample's fix items are not in its
    // What to fix text, so they keep their own sources).
    expect(html.match(/<pre class="md-source" id="md-(?!fix-\d)/g)).toHaveLength(1);
    expect(html).toContain('data-copy="md-scenario-0" data-range="');
    // Each answer's Markdown is on the page once, not twice.
    const sources = [...html.matchAll(/<pre class="md-source" id="([^"]+)" hidden>/g)].map((m) => markdownSourceOf(html, m[1]));
    expect(sources.join("\0").split(pieces.scenarios.order_lookup)).toHaveLength(2);
  });

  it("keeps a piece that is not part of the report as its own source, and ranges stay exact past carriage returns and emoji", () => {
    const doc = sampleReport();
    const pieces = sampleMarkdown(doc);
    const keys = [...new Set(doc.results.map((r) => r.scenario_key))];
    const odd = "not in the report \u2705";
    const report = `# E\r\n\r \u{1F600}\n\n${pieces.verdict}\r\n${keys.map((k) => pieces.scenarios[k]).join("\r\n")}`;
    const html = render(doc, "light", { ...pieces, report, fixItems: odd });
    // The parser would fold \r into \n (shifting every later range); base64 carries it.
    expect(html).not.toMatch(/\r/);
    expect(copied(html, "Copy report as Markdown")).toBe(report);
    expect(pieceCopied(html, "md-verdict")).toBe(pieces.verdict);
    keys.forEach((key, i) => expect(pieceCopied(html, `md-scenario-${i}`)).toBe(pieces.scenarios[key]));
    expect(pieceCopied(html, "md-fix-items")).toBe(odd);
  });

  it("takes the scenarios' ranges its writer gives instead of their texts, and drops one outside the report", () => {
    const doc = sampleReport();
    const pieces = sampleMarkdown(doc);
    const keys = [...new Set(doc.results.map((r) => r.scenario_key))];
    const head = `# Evaluation\n\n${pieces.verdict}\n`;
    const scenarioRanges = new Map<string, readonly [number, number]>();
    let report = head;
    for (const key of keys) {
      scenarioRanges.set(key, [report.length, report.length + pieces.scenarios[key].length]);
      report += `${pieces.scenarios[key]}\n`;
    }
    scenarioRanges.set(keys[1], [report.length, report.length + 10]);
    const html = render(doc, "light", { ...pieces, report, scenarios: undefined, scenarioRanges });
    expect(pieceCopied(html, "md-scenario-0")).toBe(pieces.scenarios[keys[0]]);
    expect(pieceCopied(html, "md-scenario-2")).toBe(pieces.scenarios[keys[2]]);
    // A range past the end is not trusted, and without its text that scenario has no button.
    expect(html).not.toContain('data-copy="md-scenario-1"');
  });

  it("is embedded whole when it is not made of the pieces, and the pieces keep their own sources", () => {
    const html = render(sampleReport());
    expect(copied(html, "Copy report as Markdown")).toBe(sampleMarkdown().report);
    expect(pieceCopied(html, "md-verdict")).toBe(sampleMarkdown().verdict);
    expect(html).toContain('data-copy="md-report"');
  });
});

describe("renderReportHtml: edge reports", () => {
  it("a single-model report has no comparison, no filter and names the model in the tiles", () => {
    const html = render(singleModel([result({})]));
    expect(html).not.toContain('id="comparison"');
    expect(html).not.toContain('name="fix-filter"');
    expect(html).toContain("[+] nothing to fix");
    expect(html).toContain('<div class="label">Models</div><div class="value">1</div><div class="sub">m1</div>');
  });

  it("a report with no results omits What to fix and reads nothing priced", () => {
    const html = render(singleModel([]));
    expect(html).not.toContain('id="fix"');
    expect(html).toContain("nothing priced");
    expect(html).toContain("Evaluation &#8212; 0 scenarios × 1 model");
  });

  it("reads model labels that collide with Object's own names as plain labels", () => {
    const results = [result({ label: "constructor" }), result({ label: "__proto__", status: "failed", score: 0.1 })];
    const doc: ReportDocument = {
      summary_by_model: JSON.parse('{"constructor":{"scenarios":1,"passed":1},"__proto__":{"scenarios":1,"passed":0}}'),
      results,
    };
    const html = render(doc);
    expect(html).toContain("Evaluation &#8212; 1 scenario × 2 models");
    expect(html).toContain('<th scope="col"><code>constructor</code></th><th scope="col"><code>__proto__</code></th>');
    expect(html).toContain("1/1 · 100%");
    expect(html).toContain("0/1 · 0%");
  });

  it("renders a document without results as an empty run", () => {
    const markdown: ReportMarkdown = { report: "", verdict: "", fixItems: "", fixItem: [], scenarios: {} };
    const html = render({ summary_by_model: {} } as unknown as ReportDocument, "light", markdown);
    expect(html).toContain("Evaluation &#8212; 0 scenarios × 0 models");
  });

  it("reads the reference library's `models` key when `summary_by_model` is absent", () => {
    const doc = singleModel([result({})]);
    const page = render({ ...doc, summary_by_model: undefined, models: doc.summary_by_model });
    expect(page).toBe(render(doc));
  });
});

describe("renderReportHtml: figures as the guide writes them", () => {
  /** One answer card: from the model's label to the end of its scenario's disclosure. */
  const card = (html: string, label: string): string => {
    const at = html.indexOf(`<div class="answer"><code>${label}</code>`);
    return at < 0 ? "" : html.slice(at, html.indexOf("</details>", at));
  };

  it("sums the judge's cost over the results before rounding it, when the document gives no judge_usage", () => {
    // Each 0.0000004 rounds to 0 at 6 places; their sum, 0.0000012, to 0.000001.
    const spent = { calls: 1, cost: 0.0000004 };
    const doc = singleModel(["s1", "s2", "s3"].map((key) => result({ scenario_key: key, cost: 0.001, judge_usage: spent })));
    expect(render(doc)).toContain("judge $0.000001");
  });

  it("writes an answer card's token count in the short form (reference §14: 1.2K, 3.4M)", () => {
    const html = render(singleModel([result({ input_tokens: 2100, output_tokens: 228 }), result({ scenario_key: "s2", input_tokens: 300, output_tokens: 5 })]));
    expect(html).toContain("2.3K tokens");
    expect(html).toContain("305 tokens");
    expect(html).not.toContain("2328 tokens");
  });

  it("reads a blank answer as empty, as the Markdown does, instead of an empty block", () => {
    const html = render(singleModel([result({ answer: "  \n\t " })]));
    expect(card(html, "m1")).toContain('<p class="small">(empty answer)</p>');
    expect(html).not.toMatch(/<pre>\n\s*<\/pre>/);
    // U+0085 alone is blank as the scoring reads it (Ruby's blank?), though trim() keeps it.
    expect(card(render(singleModel([result({ answer: "\u0085" })])), "m1")).toContain('<p class="small">(empty answer)</p>');
  });

  it("marks the judge's spend estimated (~) in the panels and the comparison table when the run's judge usage is", () => {
    const doc = sampleReport();
    const estimated = render({ ...doc, judge_usage: { ...doc.judge_usage!, estimated: true } });
    const models = estimated.slice(estimated.indexOf('id="models"'), estimated.indexOf('id="scenarios"'));
    expect(models).toContain("<dt>Judge</dt><dd>~$0.0090 · 6 calls</dd>");
    expect(models).toContain('<td class="num">~$0.0090 · 6</td>');
    const reported = render(doc);
    expect(reported).toContain("<dt>Judge</dt><dd>$0.0090 · 6 calls</dd>");
  });

  it("counts in the singular for one (one call, one scenario, one shared scenario)", () => {
    const doc = sampleReport();
    const one = { ...doc.summary_by_model!["gpt-5-mini"], judge_calls: 1 };
    const single = render({ ...doc, summary_by_model: { ...doc.summary_by_model, "gpt-5-mini": one } });
    expect(single).toContain("<dt>Judge</dt><dd>$0.0090 · 1 call</dd>");
    const pairOfOne = {
      ...doc.comparison!,
      models: Object.fromEntries(Object.entries(doc.comparison!.models).map(([label, entry]) => [label, { ...entry, scenarios: 1, interval: null }])),
      pairs: doc.comparison!.pairs.map((pair) => ({ ...pair, scenarios: 1, interval: null, decisive: false })),
    };
    const html = render({ ...doc, comparison: pairOfOne });
    expect(html).toContain("(no interval) · 1 scenario</span>");
    expect(html).toContain("over 1 shared scenario <span");
  });
});

describe("renderReportHtml: deterministic and fast", () => {
  it("gives the same bytes for the same document, also after a JSON round trip", () => {
    const doc = sampleReport();
    const first = render(doc, "dark");
    expect(render(doc, "dark")).toBe(first);
    expect(render(JSON.parse(JSON.stringify(doc)), "dark")).toBe(first);
  });

  it("renders 1,000 scenarios × 5 models in time linear in the results", () => {
    const big = workload(1000);
    const small = workload(200);
    const markdown: ReportMarkdown = { report: "# r", verdict: "v", fixItems: "", fixItem: [], scenarios: {} };
    for (let i = 0; i < 3; i++) renderReportHtml(big.doc, { markdown });
    // Interleaved, and the fastest of several runs, so a busy shared machine skews them alike.
    const fastest = { big: Infinity, small: Infinity, json: Infinity };
    for (let i = 0; i < 9; i++) {
      let started = performance.now();
      renderReportHtml(big.doc, { markdown });
      fastest.big = Math.min(fastest.big, performance.now() - started);
      started = performance.now();
      renderReportHtml(small.doc, { markdown });
      fastest.small = Math.min(fastest.small, performance.now() - started);
      started = performance.now();
      JSON.stringify(big.doc.results);
      fastest.json = Math.min(fastest.json, performance.now() - started);
    }
    console.log(
      `renderReportHtml: 5,000 results ${fastest.big.toFixed(1)} ms, 1,000 results ${fastest.small.toFixed(1)} ms, ` +
        `JSON.stringify(5,000 results) ${fastest.json.toFixed(1)} ms (fastest of 9)`,
    );
    // Guards against a quadratic slip (5x the results costing 25x, a 1 MB string costing
    // seconds), with headroom for a loaded shared machine; the 27 ms budget itself (about 3x
    // JSON.stringify of these results on an idle machine) is measured by the bench, under tsx.
    expect(fastest.big / fastest.small).toBeLessThan(15);
    expect(fastest.big / fastest.json).toBeLessThan(20);
  });
});

describe("renderReportHtml: a report's cost estimate and comparison badges", () => {
  const low = { fault: "low_quality", summary: "s", recommendation: "r" };

  it("says a winner no judge picked was picked by pass rate, as the Markdown does, never the judge's pick", () => {
    const report = new Report({ results: partlyPricedResults(), models: [model("m1"), model("m2")] });
    expect(report.toJSON().verdict).toMatchObject({ winner: "m1", judge: "pass rate" });
    expect(report.toMarkdown()).toContain("_(picked by pass rate)_");
    const html = report.toHtml();
    expect(html).toContain('m1 <span class="badge pick">picked by pass rate</span>');
    expect(html).toContain("picked by pass rate · m1");
    expect(html).not.toContain("judge's pick");
    // Rebuilt from its document (an imported rules-only run), the same.
    expect(Report.fromJSON(JSON.parse(JSON.stringify(report.toJSON()))).toHtml()).toContain("picked by pass rate · m1");
  });

  it("marks a model's cost ~ when one of its results was priced and one was not", () => {
    const report = new Report({ results: partlyPricedResults(), models: [model("m1"), model("m2")] });
    expect(report.toHtml()).toContain("<dt>Cost</dt><dd>~$0.0100");
  });

  it("averages a model's tokens over the runs that reported them, and shows — for a model that reported none", () => {
    const report = new Report({
      results: [
        fakeResult({ key: "a", label: "m1", inputTokens: 1000, outputTokens: 200 }),
        fakeResult({ key: "b", label: "m1" }),
        fakeResult({ key: "a", label: "m2" }),
        fakeResult({ key: "b", label: "m2" }),
      ],
      models: [model("m1"), model("m2")],
    });
    const avgTokens = (label: string): string | undefined => {
      const row = report.toHtml().match(new RegExp(`<tr><th scope="row"><code>${label}</code>.*?</tr>`))?.[0] ?? "";
      return [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)][3]?.[1];
    };
    expect(avgTokens("m1")).toBe("1.2K");
    expect(avgTokens("m2")).toBe("&#8212;");
  });

  it("gives the cost per scenario from the unrounded costs, as the Markdown's Cost / 1,000", () => {
    // 0.00124999 reads $0.0012; its total rounded to 6 places (0.00125) would have read $0.0013.
    const report = new Report({ results: [fakeResult({ key: "a", label: "m1", cost: 0.00124999 }), fakeResult({ key: "a", label: "m2" })], models: [model("m1"), model("m2")] });
    const html = report.toHtml();
    expect(html).toContain("$0.0012/scenario");
    expect(html).not.toContain("$0.0013/scenario");
  });

  it("badges a pair whose interval holds zero as not decisive", () => {
    const outcome = (key: string, label: string) => (key === "c" ? fakeResult({ key, label, score: 0.2, diagnosis: low }) : fakeResult({ key, label }));
    const report = new Report({ results: ["a", "b", "c"].flatMap((key) => [outcome(key, "m1"), outcome(key, "m2")]), models: [model("m1"), model("m2")] });
    expect(report.comparisonJSON!.pairs[0].decisive).toBe(false);
    const html = report.toHtml();
    expect(html).toContain(`<span class="badge">not decisive</span>`);
    expect(html).not.toContain(`<span class="badge ok">decisive</span>`);
  });
});
