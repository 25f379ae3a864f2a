import { describe, expect, it, vi } from "vitest";
import { Judge } from "../judge/index.js";
import { ModelSpec } from "../models/index.js";
import { Runner } from "../runner/index.js";
import { Scenario } from "../scenarios/index.js";
import { Report } from "./report.js";
import { checkGfm } from "./gfmCheck.js";

const scenarios = [
  new Scenario({ key: "orders_1", prompt: "Where is order 4821?", expectedTools: ["lookup_order"] }),
  new Scenario({ key: "refund", prompt: "Refund order 7 | today", expectedPatterns: ["refund"] }),
  new Scenario({ key: "cancel", prompt: "Cancel my plan", forbiddenPatterns: ["I cannot"] }),
];
const models = ["gpt-5-mini", "claude-sonnet-5"].map((m) => ModelSpec.parse(m, { defaultProvider: "openai" }));

function replay(scenario: Scenario, spec: ModelSpec) {
  if (spec.label === "gpt-5-mini") {
    return { answer: "Your refund for order 7 is issued; it reaches you in 3 days.\n</details><script>x()</script> | done", tool_calls: [{ name: "lookup_order", error: "timeout", detail: "upstream | slow" }], duration_ms: 900, input_tokens: 300, output_tokens: 40, cost: 0.0004, metadata: { cost_source: "estimated" } };
  }
  return { answer: `Done: ${scenario.key} handled with a refund and the tracking link, nothing else is needed.`, tool_calls: scenario.expectedTools.map((name) => ({ name })), duration_ms: 1500, cost: 0.002 };
}

async function runReport() {
  const complete = vi.fn(async ({ kind }: { kind: string }) => {
    if (kind === "score") return { text: '{"score": 0.8}', usage: { input_tokens: 200, output_tokens: 5, cost: 0.0001 } };
    if (kind === "recommend") return '{"recommendation": "Retry lookup_order with a timeout.", "instruction_change": "Say when a tool failed."}';
    return { text: '{"winner": "claude-sonnet-5", "rationale": "Passes everything."}', usage: { input_tokens: 500, output_tokens: 20, cost: 0.0003 } };
  });
  const judge = new Judge({ label: "judge-model", complete });
  const report = await new Runner({ scenarios, models, replay, judge, agentName: "SupportAgent", release: { label: "v2" }, metadata: { suite: "support" } }).run();
  return { report, complete };
}

describe("Report.fromJSON", () => {
  it("rebuilds byte-identical Markdown, JSON and HTML from the saved document, asking no judge and resampling nothing", async () => {
    const { report, complete } = await runReport();
    const calls = complete.mock.calls.length;
    const saved = JSON.parse(JSON.stringify(report.toJSON()));
    const rebuilt = Report.fromJSON(saved);
    expect(JSON.stringify(rebuilt.toJSON())).toBe(JSON.stringify(report.toJSON()));
    expect(rebuilt.toMarkdown()).toBe(report.toMarkdown());
    expect(rebuilt.toHtml({ theme: "light" })).toBe(report.toHtml({ theme: "light" }));
    expect(rebuilt.verdictMarkdown()).toBe(report.verdictMarkdown());
    expect(rebuilt.scenarioMarkdown("refund")).toBe(report.scenarioMarkdown("refund"));
    expect(complete.mock.calls.length).toBe(calls);
    expect(checkGfm(rebuilt.toMarkdown())).toEqual([]);
    // The run's metadata heads both, as the page's chips show it.
    expect(rebuilt.toMarkdown()).toContain("\n\nRelease: v2\n\nMetadata: suite support\n\n");
  });

  it("keeps the model order when the document comes back with its keys sorted, as jsonb sorts them", async () => {
    const three = [...models, ModelSpec.parse("llama3:8b", { defaultProvider: "openai" })];
    const report = await new Runner({ scenarios, models: three, replay }).run();
    const byJsonb = (object: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)));
    const saved = JSON.parse(JSON.stringify(report.toJSON()));
    saved.summary_by_model = byJsonb(saved.summary_by_model);
    saved.comparison.models = byJsonb(saved.comparison.models);
    expect(Object.keys(saved.summary_by_model)).not.toEqual(three.map((m) => m.label));
    const rebuilt = Report.fromJSON(saved);
    expect(rebuilt.models.map((m) => m.label)).toEqual(three.map((m) => m.label));
    expect(rebuilt.toMarkdown()).toBe(report.toMarkdown());
    expect(JSON.stringify(rebuilt.toJSON())).toBe(JSON.stringify(report.toJSON()));
  });

  it("keeps the recorded model order when a later model's result comes first (a running run)", async () => {
    // claude-sonnet-5 before gpt-5-mini is not jsonb's order (shorter keys first), so it is as written.
    const ordered = [models[1], models[0]];
    const full = await new Runner({ scenarios, models: ordered, replay }).run();
    const running = new Report({ results: full.results.filter((r) => r.label === "gpt-5-mini"), models: ordered, inProgress: { total: full.results.length } });
    const rebuilt = Report.fromJSON(JSON.parse(JSON.stringify(running.toJSON())));
    expect(rebuilt.models.map((m) => m.label)).toEqual(["claude-sonnet-5", "gpt-5-mini"]);
    expect(rebuilt.toMarkdown()).toBe(running.toMarkdown());
    expect(rebuilt.toHtml()).toBe(running.toHtml());
  });

  it("names a group row as the catalog names the group, and keeps the name through JSON", async () => {
    const grouped = ["a", "b"].map((key) => new Scenario({ key, prompt: `Question ${key}`, group: "orders", groupName: "Order questions" }));
    const report = await new Runner({ scenarios: grouped, models, replay }).run();
    expect(report.toJSON().results[0]).toMatchObject({ group: "orders", group_name: "Order questions" });
    expect(report.toHtml()).toContain('<tr class="group"><th scope="row">Order questions</th>');
    const rebuilt = Report.fromJSON(JSON.parse(JSON.stringify(report.toJSON())));
    expect(rebuilt.toHtml()).toBe(report.toHtml());
    // A group with no name is labelled by its key, as before.
    const keyed = await new Runner({ scenarios: grouped.map((s) => new Scenario({ key: s.key, prompt: s.prompt, group: "orders" })), models, replay }).run();
    expect(keyed.toHtml()).toContain('<tr class="group"><th scope="row">orders</th>');
  });

  it("renders the recorded verdict and comparison rather than computing them", async () => {
    const { report } = await runReport();
    const saved = JSON.parse(JSON.stringify(report.toJSON()));
    saved.comparison.conclusion = "As recorded last night.";
    saved.verdict.rationale = "Recorded rationale.";
    const rebuilt = Report.fromJSON(saved);
    expect(rebuilt.comparison?.conclusion).toBe("As recorded last night.");
    expect(rebuilt.toMarkdown()).toContain("Recorded rationale.");
    const single = Report.fromJSON({ ...saved, comparison: undefined, verdict: undefined });
    expect(single.comparison).toBeNull();
    expect(single.verdict).toBeNull();
  });

  it("records the verdict call as run-level judge spend", async () => {
    const { report } = await runReport();
    expect(report.judgeUsage?.run).toEqual({ calls: 1, cost: 0.0003, by_kind: { verdict: 1 } });
    expect(report.toJSON().judge).toBe("judge-model");
  });

  it("says a failed run failed, and that it covers only what was scored, in every format and after a rebuild", async () => {
    const finished = await new Runner({ scenarios, models, replay }).run();
    const failure = "agent crashed | <script>x()</script>\n[more](javascript:x)";
    const failed = new Report({ results: finished.results.slice(0, 3), models: finished.models, failure, comparison: finished.comparisonJSON });
    const markdown = failed.toMarkdown();
    // Escaped as any untrusted text: no tag, no link, the line break folded.
    expect(markdown).toContain(
      "> **This run failed: the report covers the 3 results scored before it stopped.** agent crashed | &lt;script&gt;x()&lt;/script&gt; \\[more](javascript:x)\n",
    );
    expect(checkGfm(markdown)).toEqual([]);
    expect(failed.toJSON()).toMatchObject({ failure });
    const html = failed.toHtml({ theme: "light" });
    expect(html).toContain('<p class="failure" role="alert"><strong>This run failed: the report covers the 3 results scored before it stopped.</strong> agent crashed | &lt;script&gt;');
    expect(html).not.toContain("<script>x()");
    const rebuilt = Report.fromJSON(JSON.parse(JSON.stringify(failed.toJSON())));
    expect(rebuilt.toMarkdown()).toBe(markdown);
    expect(rebuilt.toHtml({ theme: "light" })).toBe(html);
    // A finished run's report carries neither the key nor the notice.
    expect(finished.toJSON()).not.toHaveProperty("failure");
    expect(finished.toMarkdown()).not.toContain("This run failed");
    expect(finished.toHtml({ theme: "light" })).not.toContain('class="failure"');
  });

  it("says a running run is still running, and how much of it is scored, in every format and after a rebuild", async () => {
    const finished = await new Runner({ scenarios, models, replay }).run();
    const running = new Report({ results: finished.results.slice(0, 1), models: finished.models, inProgress: { total: 6 } });
    const notice = "This run is still running: the report covers the 1 result scored so far, of 6.";
    const markdown = running.toMarkdown();
    expect(markdown).toContain(`\n> **${notice}**\n`);
    expect(checkGfm(markdown)).toEqual([]);
    expect(running.toJSON()).toMatchObject({ in_progress: { scored: 1, total: 6 } });
    const html = running.toHtml({ theme: "light" });
    expect(html).toContain(`<p class="in-progress" role="status"><strong>${notice}</strong></p>`);
    const rebuilt = Report.fromJSON(JSON.parse(JSON.stringify(running.toJSON())));
    expect(rebuilt.toMarkdown()).toBe(markdown);
    expect(rebuilt.toHtml({ theme: "light" })).toBe(html);
    // A failed run has stopped: it says that, never that it is still going.
    const failed = new Report({ results: finished.results.slice(0, 1), models: finished.models, failure: "agent crashed", inProgress: { total: 6 } });
    expect(failed.toJSON()).not.toHaveProperty("in_progress");
    expect(failed.toMarkdown()).not.toContain("still running");
    // A finished run's report carries neither the key nor the notice.
    expect(finished.toJSON()).not.toHaveProperty("in_progress");
    expect(finished.toMarkdown()).not.toContain("still running");
    expect(finished.toHtml({ theme: "light" })).not.toContain('class="in-progress"');
  });

  it("says nothing is scored yet, not \"Nothing to fix.\", for an unfinished run with no result", async () => {
    const finished = await new Runner({ scenarios, models, replay }).run();
    const running = new Report({ results: [], models: finished.models, inProgress: { total: 6 } });
    expect(running.fixItemsMarkdown()).toBe("## What to fix\n\nNothing is scored yet.");
    expect(running.toMarkdown()).toContain("## What to fix\n\nNothing is scored yet.");
    const failed = new Report({ results: [], models: finished.models, failure: "agent crashed" });
    expect(failed.fixItemsMarkdown()).toBe("## What to fix\n\nNothing was scored before the run failed.");
    expect(Report.fromJSON(JSON.parse(JSON.stringify(failed.toJSON()))).toMarkdown()).toBe(failed.toMarkdown());
    // Once something is scored, an empty section is the usual one.
    const clean = new Report({ results: finished.results.filter((r) => r.status === "passed").slice(0, 1), models: finished.models, inProgress: { total: 6 } });
    expect(clean.fixItemsMarkdown()).toBe("## What to fix\n\nNothing to fix.");
  });

  it("decides no best model or comparison for a run that has not completed, and says when they are decided, in every format", async () => {
    const finished = await new Runner({ scenarios, models, replay }).run();
    const complete = vi.fn();
    const judge = new Judge({ label: "judge-model", complete });
    const running = new Report({ results: finished.results.slice(0, 3), models: finished.models, judge, inProgress: { total: 6 } });
    expect(await running.judgeVerdict()).toBeNull();
    expect(complete).not.toHaveBeenCalled();
    expect([running.verdict, running.comparison]).toEqual([null, null]);
    // The verdict piece is also served alone (report.md?part=verdict): it carries the note itself.
    const still = "_Still running: these figures cover 3 of 6 results; the best model and the comparison are decided when the run completes._";
    expect(running.verdictMarkdown()).toContain(`\n\n${still}`);
    const markdown = running.toMarkdown();
    expect(markdown).not.toMatch(/Best model|### Comparison/);
    expect(markdown).toContain(running.verdictMarkdown());
    expect(checkGfm(markdown)).toEqual([]);
    expect(running.toJSON()).not.toHaveProperty("verdict");
    expect(running.toJSON()).not.toHaveProperty("comparison");
    const html = running.toHtml({ theme: "light" });
    expect(html).not.toMatch(/judge&#39;s pick|class="conclusion"|class="plot"/);
    expect(html).toContain('<div class="verdict">The best model and the comparison are decided when the run completes.</div>');
    // Read back, the same: nothing decided where nothing was recorded.
    const rebuilt = Report.fromJSON(JSON.parse(JSON.stringify(running.toJSON())));
    expect([rebuilt.toMarkdown(), rebuilt.toHtml({ theme: "light" })]).toEqual([markdown, html]);

    const failed = new Report({ results: finished.results.slice(0, 3), models: finished.models, failure: "agent crashed" });
    expect([failed.verdict, failed.comparison]).toEqual([null, null]);
    expect(failed.verdictMarkdown()).toContain(
      "\n\n_This run failed: these figures cover the 3 results scored before it stopped; no best model or comparison was decided, as they are when a run completes._",
    );
    expect(checkGfm(failed.toMarkdown())).toEqual([]);
    expect(failed.toHtml({ theme: "light" })).toContain("No best model or comparison was decided: they are when a run completes, and this one failed.");
    // A recorded verdict and comparison are shown as they were recorded, finished or not.
    const recorded = new Report({ results: finished.results.slice(0, 3), models: finished.models, failure: "agent crashed", verdict: finished.verdict, comparison: finished.comparisonJSON });
    expect(recorded.toMarkdown()).toContain(`**Best model: \`${finished.verdict!.winner}\`**`);
    expect(recorded.verdictMarkdown()).not.toContain("no best model");
    // One model: nothing to decide, the piece still says the run is going.
    const single = new Report({ results: finished.results.filter((r) => r.label === "gpt-5-mini").slice(0, 1), models: finished.models.slice(0, 1), inProgress: { total: 3 } });
    expect(single.verdictMarkdown()).toMatch(/\n\n_Still running: these figures cover 1 of 3 results\._$/);
  });

  it("refuses a document without results", () => {
    expect(() => Report.fromJSON({} as never)).toThrow(/results must be an array/);
  });
});
