import { describe, expect, it, vi } from "vitest";
import { Report } from "./report.js";
import { Judge } from "../judge/index.js";
import { ModelSpec } from "../models/index.js";
import { Runner } from "../runner/index.js";
import { Scenario } from "../scenarios/index.js";
import { checkGfm } from "./gfmCheck.js";
import { fakeResult, markdownSourceOf, model } from "./testing.js";
import type { ReportResult } from "./reportTypes.js";

const HOSTILE = "Totals | here\n\n</details>\n<script>alert(1)</script>\n| a | b |\n|---|---|\n```\nunclosed fence";

function results(): ReportResult[] {
  const etnc = { fault: "expected_tool_not_called", summary: "Expected lookup_order to be called.", recommendation: "Enable lookup_order | now.", evidence: { unavailable: ["lookup_order"] } };
  return [
    fakeResult({ key: "orders_1", label: "gpt-5-mini", prompt: "Where is my order?\nIt is | late", answer: HOSTILE, score: 1, durationMs: 1200, inputTokens: 100, outputTokens: 20, cost: 0.001, toolCalls: [{ name: "lookup_order" }] }),
    fakeResult({ key: "orders_1", label: "qwen3:8b", answer: "I have no tool for that.", score: 0.3, durationMs: 900, expectedTools: ["lookup_order"], diagnosis: etnc, cost: 0.0004, costSource: "estimated" }),
    fakeResult({ key: "refund", label: "gpt-5-mini", prompt: "Refund <b>order</b> 7", answer: "Done.", score: 0.9, durationMs: 800, cost: 0.002, expectedPatterns: ["refund"], forbiddenPatterns: ["I cannot"] }),
    fakeResult({ key: "refund", label: "qwen3:8b", answer: null, score: 0, error: "Timeout: replay exceeded 30000 ms", diagnosis: { fault: "run_error", summary: "The run failed.", recommendation: "Re-run." }, toolCalls: [{ name: "refund", error: true, detail: "HTTP 500" }] }),
  ];
}

const models = [model("gpt-5-mini"), model("qwen3:8b")];
const build = (extra: Partial<ConstructorParameters<typeof Report>[0]> = {}) =>
  new Report({ results: results(), models, agentName: "SupportAgent", release: { label: "v1.2", digest: "" }, metadata: { suite: "support" }, ...extra });

describe("Report Markdown", () => {
  it("is well-formed GFM even when answers carry pipes, newlines, </details> and <script>", () => {
    const markdown = build().toMarkdown();
    expect(checkGfm(markdown)).toEqual([]);
    expect(markdown).not.toContain("<script>");
    expect(markdown).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(markdown.endsWith("\n")).toBe(true);
  });

  it("lays the report out in the guide's order", () => {
    const markdown = build().toMarkdown();
    const order = ["# Evaluation — 2 scenarios × 2 models", "## Verdict", "**Best model: `gpt-5-mini`**", "### Comparison", "## Scenarios", "## Answers", "<details>", "## What to fix", "_~ estimated from tokens × model rates_"];
    const positions = order.map((text) => markdown.indexOf(text));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(markdown.split(/^<details>$/m).length - 1).toBe(2);
  });

  it("escapes | and folds line breaks in the matrix prompt cell", () => {
    const row = build().toMarkdown().split("\n").find((line) => line.startsWith("| `orders_1`"));
    expect(row).toBe("| `orders_1` Where is my order? It is \\| late | ✅ 100% | ❌ 30% expected tool not called | ~$0.0014 |");
  });

  it("shows p50, p95 and cost per 1,000 beside the mean in the model table", () => {
    const markdown = build().toMarkdown();
    expect(markdown).toContain("| Model | Passed | Mean score | Mean latency | p50 | p95 | Tokens in/out | Cost | Cost / 1,000 | Faults |");
    expect(markdown).toContain("| `gpt-5-mini` | 2/2 (100%) | 95% | 1000 ms | 800 ms | 1200 ms | 100/20 | $0.0030 | $1.5000 | — |");
  });

  it("writes p50 and p95 in whole milliseconds like the mean, leaving the JSON's figures as timed", () => {
    const timed = [812.3456789, 1530.0000000000002, 2044.718].map((durationMs, i) => fakeResult({ key: `s${i}`, label: "a", answer: "ok", score: 1, durationMs }));
    const report = new Report({ results: timed, models: [model("a")] });
    const row = report.toMarkdown().split("\n").find((line) => line.startsWith("| `a` | 3/3"));
    expect(row).toContain("| 1462 ms | 1530 ms | 2045 ms |");
    expect(report.summaryByModel.a).toMatchObject({ avg_duration_ms: 1462, p50_duration_ms: 1530.0000000000002, p95_duration_ms: 2044.718 });
    expect(report.toHtml()).toContain("p50 1.53s · p95 2.04s");
  });

  it("gives a model the same pass rate in the summary and the Comparison, at an exact half", () => {
    // 51/80 = 63.75%: both say 63.8; the 1-in-80 gap is 1.25 points, written 1.3.
    const list = ["a", "b"].flatMap((label, m) => Array.from({ length: 80 }, (_, i) =>
      fakeResult({ key: `s${i}`, label, status: i < 51 - m ? "passed" : "failed", score: i < 51 - m ? 1 : 0 })));
    const report = new Report({ results: list, models: [model("a"), model("b")] });
    expect(report.summaryByModel.a.pass_rate).toBe(63.8);
    expect(report.comparisonJSON?.models.a.pass_rate).toBe(63.8);
    expect(report.comparisonJSON?.pairs[0].difference).toBe(1.3);
    expect(report.toMarkdown()).toContain("| `a` | 80 | 63.8% | 52.5–73.8 |");
  });

  it("marks each part of the run's total with its own estimate", () => {
    // The agent's qwen3:8b cost is estimated; the judge's usage was reported.
    const judged = results().map((r, i) => (i === 0 ? fakeResult({ key: "orders_1", label: "gpt-5-mini", answer: "Ok.", score: 1, cost: 0.001, judgeUsage: { calls: 1, cost: 0.002 } }) : r));
    const total = (list: ReportResult[]) => new Report({ results: list, models }).toMarkdown().split("\n").find((line) => line.startsWith("**Total"));
    expect(total(judged)).toBe("**Total: ~$0.0054** (agent ~$0.0034 · judge $0.0020)");
    // Now the other way round: the agent's costs reported, the judge's usage estimated from traces.
    const tracedJudge = [fakeResult({ key: "orders_1", label: "gpt-5-mini", answer: "Ok.", score: 1, cost: 0.001, judgeUsage: { calls: 1, cost: 0.002, source: "traces" } })];
    expect(total(tracedJudge)).toBe("**Total: ~$0.0030** (agent $0.0010 · judge ~$0.0020)");
  });

  it("publishes pieces that read exactly as in the whole report", () => {
    const report = build();
    const whole = report.toMarkdown();
    for (const piece of [report.verdictMarkdown(), report.fixItemsMarkdown(), report.scenarioMarkdown("orders_1"), report.scenarioMarkdown("refund"), ...report.fixItems.map((i) => report.fixItemMarkdown(i))]) {
      expect(whole).toContain(piece);
      expect(checkGfm(piece)).toEqual([]);
    }
    expect(report.verdictMarkdown()).toContain("### Comparison");
    expect(() => report.scenarioMarkdown("nope")).toThrow(/nope/);
  });

  it("writes the same report whether a scenario's piece was asked for before it or not", () => {
    const report = build();
    const piece = report.scenarioMarkdown("refund");
    const whole = report.toMarkdown();
    expect(whole).toBe(build().toMarkdown());
    expect(whole).toContain(`\n\n${piece}\n\n`);
    // Now a slice of the whole report: the same text as before it was written.
    expect(report.scenarioMarkdown("refund")).toBe(piece);
  });

  it("filters What to fix by model", () => {
    const report = build();
    const qwen = report.fixItemsMarkdown({ model: "qwen3:8b" });
    expect(qwen).toContain("## What to fix for `qwen3:8b`");
    expect(qwen).toContain("### expected tool not called ×1");
    expect(report.fixItemsMarkdown({ model: "gpt-5-mini" })).toBe("## What to fix for `gpt-5-mini`\n\nNothing to fix.");
    // A label the report does not have is not a clean model: a typo, a trailing space, another case.
    for (const model of ["zzz", "gpt-5-mini ", "GPT-5-MINI", ""]) {
      expect(() => report.fixItemsMarkdown({ model }), model).toThrow(`fixItemsMarkdown: model ${JSON.stringify(model)} is not in this report (its models: gpt-5-mini, qwen3:8b)`);
    }
  });

  it("marks each part of a scenario's cost as an estimate on its own: the agent's and the judge's", async () => {
    // agent_estimated: m1's cost is estimated, the judge's usage reported; judge_estimated: the reverse.
    const judge = new Judge({
      label: "judge",
      complete: async ({ prompt }) => ({
        text: '{"score": 0.9}',
        usage: { cost: 0.0001, source: prompt.includes("judge_estimated") ? "estimated" : "reported" },
      }),
    });
    const scenarios = ["agent_estimated", "judge_estimated"].map((key) => new Scenario({ key, prompt: `Question ${key}` }));
    const replay = (scenario: Scenario, spec: ModelSpec) => ({
      answer: "A complete answer to the question.",
      cost: 0.001,
      metadata: scenario.key === "agent_estimated" && spec.label === "m1" ? { cost_source: "estimated" } : {},
    });
    const models = ["m1", "m2"].map((label) => ModelSpec.parse(label, { defaultProvider: "openai" }));
    const report = await new Runner({ scenarios, models, replay, judge }).run();
    const row = (key: string) => report.toMarkdown().split("\n").find((line) => line.startsWith(`| \`${key}\``))!;
    expect(row("agent_estimated")).toMatch(/\| ~\$0\.0020 \(judge \$0\.000200\) \|$/);
    expect(row("judge_estimated")).toMatch(/\| \$0\.0020 \(judge ~\$0\.000200\) \|$/);
    const html = report.toHtml();
    expect(html).toContain("<small>~$0.0020 (judge $0.000200)</small>");
    expect(html).toContain("<small>$0.0020 (judge ~$0.000200)</small>");
  });

  it("names the criteria every answer was scored on in the page's footer, in scoring order", async () => {
    const scenarios = [new Scenario({ key: "s1", prompt: "Question" })];
    const models = [ModelSpec.parse("m1", { defaultProvider: "openai" })];
    const criteria = [{ key: "min_length", type: "min_length", config: { chars: 5 } }, { key: "response_present", type: "response_present" }];
    const report = await new Runner({ scenarios, models, criteria, replay: () => ({ answer: "A complete answer." }) }).run();
    const footer = report.toHtml().split("<footer>")[1];
    expect(footer).toContain("<span>criteria min length · response present</span>");
  });

  it("writes a sum of costs as the Markdown does on every part of the page (float noise rounded away)", async () => {
    // 0.000009 + 0.000991 is 0.0009999999999999998 in floating point: $0.001000 unrounded.
    const costs = [0.000009, 0.000991];
    const scenarios = [new Scenario({ key: "s1", prompt: "Question" })];
    const models = ["m1", "m2"].map((label) => ModelSpec.parse(label, { defaultProvider: "openai" }));
    const report = await new Runner({ scenarios, models, replay: (_scenario, spec) => ({ answer: "A complete answer.", cost: costs[models.indexOf(spec)] }) }).run();
    expect(report.toMarkdown()).toContain("**Total: $0.0010**");
    const html = report.toHtml();
    expect(html).not.toContain("$0.001000");
    expect(html).toContain("<td><small>$0.0010</small></td>");
    expect(html).toContain('<div class="value">$0.0010</div>');
    expect(html).toContain("cost $0.0010");
  });

  it("renders a fix item with its tools, server and where the fix lives", () => {
    const report = build({ toolResolver: () => ({ key: "orders", name: "Orders", status: "available" }), links: { mcp: "/mcp/%{key}" } });
    const item = report.fixItems.find((i) => i.fault === "expected_tool_not_called")!;
    expect(report.fixItemMarkdown(item)).toBe([
      "### expected tool not called ×1",
      "",
      "**Scenarios:** `orders_1` · **Models:** `qwen3:8b` (1 result)",
      "",
      "Enable lookup_order | now.",
      "",
      "- Missing tools: `lookup_order` · served by Orders (available)",
      "- Server: Orders (available)",
      "- Where: **Enable Orders for SupportAgent** · MCP Services -&gt; `/mcp/orders`",
    ].join("\n"));
  });
});

describe("Report Markdown header: the run's metadata and release", () => {
  const headerOf = (markdown: string) => markdown.slice(0, markdown.indexOf("\n\n## Verdict"));
  /** The page's header chips, as text. */
  const chipsOf = (html: string) => [...html.slice(0, html.indexOf("</header>")).matchAll(/<span class="chip[^"]*">([^<]*)<\/span>/g)].map((m) => m[1]);

  it("carries the metadata the page's chips carry, chosen by the same rule, after the Release line", () => {
    const metadata = { suite: "support", build: 42, dry_run: false, nested: { a: 1 }, list: [1], none: null, judge_trace_ids: ["t1"], branch: "main" };
    const report = build({ metadata });
    expect(headerOf(report.toMarkdown())).toBe([
      "# Evaluation — 2 scenarios × 2 models",
      "",
      "No judge; scored on rules and expectations alone.",
      "",
      "Release: v1.2",
      "",
      "Metadata: suite support · build 42 · dry_run false · branch main",
      "",
      "Pass threshold: ≥ 70%",
    ].join("\n"));
    expect(chipsOf(report.toHtml())).toEqual(["suite support", "build 42", "dry_run false", "branch main", "Release: v1.2", "judge rules"]);
    // The public pieces read as in the whole report.
    expect(report.toMarkdown()).toContain(`\n\n${report.verdictMarkdown()}\n\n`);
    expect(checkGfm(report.toMarkdown())).toEqual([]);
  });

  it("has no Metadata line when the run has no metadata, or none the page would show", () => {
    for (const metadata of [undefined, {}, { judge_trace_ids: ["t"], nested: { a: 1 }, none: null }]) {
      expect(headerOf(build({ metadata, release: null }).toMarkdown())).toBe(
        "# Evaluation — 2 scenarios × 2 models\n\nNo judge; scored on rules and expectations alone.\n\nPass threshold: ≥ 70%",
      );
    }
  });

  it("shows at most 200 characters of a metadata value, on the page and in the Markdown, and keeps it whole in the JSON", () => {
    const instructions = "Always answer politely. ".repeat(400);
    const report = build({ metadata: { instructions } });
    const line = report.toMarkdown().split("\n").find((text) => text.startsWith("Metadata: "));
    expect(line).toBe(`Metadata: instructions ${instructions.slice(0, 197)}...`);
    expect(chipsOf(report.toHtml())).toContain(`instructions ${instructions.slice(0, 197)}...`);
    expect((report.toJSON() as { metadata: Record<string, unknown> }).metadata.instructions).toBe(instructions);
  });

  it("escapes metadata as other header text: one line, no markup, controls shown", () => {
    const metadata = { "key`x\nnext": "line 1\r\nline 2 | <script>alert(1)</script> [x](javascript:y) `code` \u0007 \u202e", ok: "## not a heading" };
    const markdown = build({ metadata }).toMarkdown();
    const line = markdown.split("\n").find((text) => text.startsWith("Metadata: "));
    expect(line).toBe("Metadata: key\\`x next line 1 line 2 | &lt;script&gt;alert(1)&lt;/script&gt; \\[x](javascript:y) \\`code\\` ⟨U+0007⟩ ⟨U+202E⟩ · ok ## not a heading");
    expect(markdown).not.toContain("<script>");
    expect(checkGfm(markdown)).toEqual([]);
  });

  it("tells the pinned release from a metadata release key, in the Markdown and on the page", () => {
    const report = build({ metadata: { release: "1.0", ci_build: "build-1.1" }, release: { label: "1.1" } });
    const markdown = report.toMarkdown();
    expect(markdown).toContain("\n\nRelease: 1.1\n\nMetadata: release 1.0 · ci_build build-1.1\n\n");
    const html = report.toHtml();
    expect(chipsOf(html)).toEqual(["release 1.0", "ci_build build-1.1", "Release: 1.1", "judge rules"]);
    expect(html).toContain('<span class="chip">release 1.0</span>');
    expect(html).toContain('<span class="chip release">Release: 1.1</span>');
    // Set apart in the design tokens' colours, not by colour alone (its words differ too).
    expect(html).toMatch(/\.chip\.release \{ background: var\(--color-info-soft\); border-color: var\(--color-info\); color: var\(--color-info-text\);/);
    const footer = html.slice(html.indexOf("<footer>"), html.indexOf("</footer>"));
    expect(footer).toContain("<span>Release: 1.1</span><span>release 1.0</span><span>ci_build build-1.1</span>");
  });
});

describe("Report options", () => {
  it("refuses options that cannot be meant, naming the option and the rule", () => {
    expect(() => new Report({ results: null, models: [] } as never)).toThrow("Report: results must be an array of Result");
    expect(() => new Report({ results: [], models: undefined } as never)).toThrow("Report: models must be an array of model specs");
    expect(() => new Report({ results: [], models: [], threshold: Number.NaN })).toThrow("Report: threshold must be a number from 0 to 1, got NaN");
    expect(() => new Report({ results: [], models: [], threshold: 70 })).toThrow("Report: threshold must be a number from 0 to 1, got 70");
    expect(() => new Report({ results: [], models: [model("a"), model("b"), model("a")] })).toThrow('Report: models[2] repeats the label "a": each model must have its own label');
    expect(new Report({ results: [], models: [], threshold: 1 }).threshold).toBe(1);
    // A document the platform stored keeps its threshold as recorded (imports once took any finite one).
    const recorded = Report.fromStoredJSON({ ...new Report({ results: [], models: [] }).toJSON(), threshold: 70 });
    expect(recorded.threshold).toBe(70);
    expect(recorded.toMarkdown()).toContain("Pass threshold: ≥ 7000%");
    expect(() => Report.fromStoredJSON({ ...new Report({ results: [], models: [] }).toJSON(), threshold: Number.NaN })).toThrow("Report: threshold must be a number, got NaN");
  });

  it("refuses an HTML theme other than light, dark or system, rather than rendering the system theme", () => {
    const report = build();
    expect(() => report.toHtml({ theme: "blue" } as never)).toThrow('Report: toHtml theme must be light, dark, system or null (the reader\'s system), got "blue"');
    expect(report.toHtml({ theme: "dark" })).toContain('<html lang="en" class="theme-dark">');
    expect(report.toHtml({ theme: "system" })).toContain('<html lang="en">');
    expect(report.toHtml({ theme: null })).toContain('<html lang="en">');
  });
});

describe("Report JSON", () => {
  it("uses the guide's snake_case keys in a fixed order, comparison only when comparing", () => {
    const json = build().toJSON() as unknown as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(["summary_by_model", "criteria", "recommendations", "fix_items", "verdict", "comparison", "release", "threshold", "agent_name", "metadata", "results"]);
    expect(json.release).toEqual({ label: "v1.2" });
    const single = new Report({ results: results().filter((r) => r.label === "gpt-5-mini"), models: [models[0]] }).toJSON() as unknown as Record<string, unknown>;
    expect(Object.keys(single)).toEqual(["summary_by_model", "criteria", "recommendations", "fix_items", "threshold", "results"]);
  });

  it("carries judge_usage only when the judge spent something", () => {
    const report = build({ judgeUsage: { calls: 1, cost: 0.002, by_kind: { verdict: 1 } }, judgeLabel: "opus" });
    const json = report.toJSON() as unknown as Record<string, unknown>;
    expect(json.judge).toBe("opus");
    expect(json.judge_usage).toMatchObject({ calls: 1, cost: 0.002, run: { calls: 1, cost: 0.002, by_kind: { verdict: 1 } } });
    expect(report.toMarkdown()).toContain("Judged by `opus`.");
  });

  it("adds the scenario's expectations to each result", () => {
    const json = build().toJSON();
    expect(json.results[2].expect).toEqual({ contains: ["refund"], not_contains: ["I cannot"] });
    expect(json.results[0].expect).toBeUndefined();
  });
});

describe("Report values", () => {
  it("computes each view once", () => {
    const report = build();
    expect(report.summaryByModel).toBe(report.summaryByModel);
    expect(report.fixItems).toBe(report.fixItems);
    expect(report.comparison).toBe(report.comparison);
    expect(report.scenarioCosts).toBe(report.scenarioCosts);
  });

  it("asks the judge once for the verdict, and never when one was recorded", async () => {
    const verdict = vi.fn(async () => ({ value: { winner: "qwen3:8b", rationale: "Cheaper." }, exchange: { kind: "verdict" } }));
    const report = build({ judge: { label: "opus", verdict } });
    expect(report.verdict?.judge).toBe("pass rate");
    await report.judgeVerdict();
    await report.judgeVerdict();
    expect(verdict).toHaveBeenCalledTimes(1);
    expect(report.verdict).toEqual({ winner: "qwen3:8b", rationale: "Cheaper.", judge: "opus" });
    const recorded = build({ judge: { label: "opus", verdict }, verdict: { winner: "gpt-5-mini", rationale: "Recorded.", judge: "opus" } });
    await recorded.judgeVerdict();
    expect(verdict).toHaveBeenCalledTimes(1);
    expect(recorded.verdict?.rationale).toBe("Recorded.");
  });

  it("renders a recorded comparison as given, without resampling", () => {
    const recorded = build().comparison!.toJSON();
    recorded.conclusion = "Recorded conclusion.";
    const report = build({ comparison: recorded });
    expect(report.comparison?.conclusion).toBe("Recorded conclusion.");
    expect(report.toMarkdown()).toContain("Recorded conclusion.");
  });

  it("rebuilds from recorded values to the same bytes in Markdown, JSON and HTML", () => {
    const first = build();
    const doc = first.toJSON();
    const rebuilt = build({ verdict: doc.verdict as never, comparison: doc.comparison as never });
    expect(rebuilt.toMarkdown()).toBe(first.toMarkdown());
    expect(JSON.stringify(rebuilt.toJSON())).toBe(JSON.stringify(doc));
    expect(rebuilt.toHtml({ theme: "dark" })).toBe(first.toHtml({ theme: "dark" }));
  });
});

describe("Report HTML copy buttons", () => {
  /** What each Copy as Markdown button of the page copies, as its script reads the page. */
  function copied(html: string): Map<string, string> {
    const source = (id: string): string => markdownSourceOf(html, id);
    const pieces = new Map<string, string>();
    for (const [, id, from, to] of html.matchAll(/data-copy="([^"]+)"(?: data-range="(\d+) (\d+)")?/g)) {
      pieces.set(id, from === undefined ? id.split(" ").map(source).join("") : source("md-report").slice(Number(from), Number(to)));
    }
    return pieces;
  }

  it("copies the whole report and each public piece exactly as the Markdown methods return them", () => {
    const report = build();
    const pieces = copied(report.toHtml());
    expect(pieces.get("md-report")).toBe(report.toMarkdown());
    expect(pieces.get("md-verdict")).toBe(report.verdictMarkdown());
    expect(pieces.get("md-scenario-0")).toBe(report.scenarioMarkdown("orders_1"));
    expect(pieces.get("md-scenario-1")).toBe(report.scenarioMarkdown("refund"));
    expect(pieces.get("md-fix-items")).toBe(report.fixItemsMarkdown());
    report.fixItems.forEach((item, i) => expect(pieces.get(`md-fix-${i}`)).toBe(report.fixItemMarkdown(item)));
  });
});

describe("Report Markdown with hostile and huge text", () => {
  it("keeps links, images and HTML in answers inert, and clips a 1 MB answer quickly", () => {
    const huge = `${"x".repeat(1_000_000)}</details>`;
    const hostile = "[click](javascript:alert(1)) ![pixel](https://tracker.example/p.png) <img src=x onerror=alert(1)>";
    const report = new Report({
      results: [
        fakeResult({ key: "a", label: "m", answer: huge, prompt: huge }),
        fakeResult({ key: "b", label: "m", answer: hostile, diagnosis: { fault: "low_quality", summary: hostile, recommendation: hostile } }),
      ],
      models: [model("m")],
    });
    const started = performance.now();
    const markdown = report.toMarkdown();
    expect(performance.now() - started).toBeLessThan(500);
    expect(markdown.length).toBeLessThan(20_000);
    expect(checkGfm(markdown)).toEqual([]);
    expect(markdown).not.toMatch(/(^|[^\\])\[click\]/);
    expect(markdown).not.toMatch(/!\[pixel\]/);
    expect(markdown).toContain("\\[click](javascript:alert(1))");
    expect(markdown).not.toContain("<img");
  });
});
