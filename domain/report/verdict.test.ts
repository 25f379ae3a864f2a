import { describe, expect, it } from "vitest";
import { summarizeByModel } from "./summary.js";
import { judgedVerdict, NOTHING_RUN, NOTHING_SCORED, rankModels, rankedVerdict } from "./verdict.js";
import { Judge } from "../judge/index.js";
import { Report } from "./report.js";
import { fakeResult, model } from "./testing.js";
import { rankingInReportOrder } from "./rankingOrder.js";

const low = { fault: "low_quality", summary: "s", recommendation: "r" };

describe("verdict", () => {
  it("ranks by pass rate, then mean score, then cost per priced scenario, then model order", () => {
    const results = [
      fakeResult({ key: "a", label: "slow", score: 0.9, cost: 0.002 }),
      fakeResult({ key: "a", label: "cheap", score: 0.9, cost: 0.001 }),
      fakeResult({ key: "a", label: "unpriced", score: 0.9 }),
      fakeResult({ key: "a", label: "better", score: 0.95 }),
      fakeResult({ key: "a", label: "failing", score: 1, diagnosis: low }),
      fakeResult({ key: "a", label: "tie", score: 0.9, cost: 0.001 }),
    ];
    const labels = ["failing", "slow", "cheap", "unpriced", "better", "tie"];
    expect(rankModels(summarizeByModel(results, labels.map(model)))).toEqual(["better", "cheap", "tie", "slow", "unpriced", "failing"]);
  });

  it("writes the rationale with the estimate marked", () => {
    const results = ["a", "b"].map((key) => fakeResult({ key, label: "m1", score: 1, cost: 0.0005, costSource: "estimated" }));
    results.push(fakeResult({ key: "a", label: "m2", score: 0.2, diagnosis: low }));
    const verdict = rankedVerdict(summarizeByModel(results, [model("m1"), model("m2")]));
    expect(verdict).toEqual({
      winner: "m1",
      rationale: "Passed 2 of 2 scenarios (100%) with a mean score of 100% at ~$0.0010 (estimated).",
      judge: "pass rate",
    });
  });

  it("names no winner when every pair of every model errored, and says why (it named one by empty answers' rule scores)", async () => {
    const errored = (key: string, label: string) => fakeResult({ key, label, score: 0.2, error: "connect ECONNREFUSED 127.0.0.1:8080" });
    const results = ["a", "b"].flatMap((key) => [errored(key, "m1"), errored(key, "m2")]);
    expect(rankedVerdict(summarizeByModel(results, [model("m1"), model("m2")]))).toEqual({ winner: null, rationale: NOTHING_SCORED, judge: "pass rate" });
    // One answer scored anywhere: the ranking decides as before.
    results[0] = fakeResult({ key: "a", label: "m1", score: 0.2, diagnosis: low });
    expect(rankedVerdict(summarizeByModel(results, [model("m1"), model("m2")]))?.winner).toBe("m1");
    // The Markdown says so, and a judge is not asked to pick from nothing.
    const asked: string[] = [];
    const judge = new Judge({ label: "j", complete: (request) => (asked.push(request.kind), '{"winner": "m2", "rationale": "x"}') });
    const report = new Report({ results: ["a", "b"].flatMap((key) => [errored(key, "m1"), errored(key, "m2")]), models: [model("m1"), model("m2")], judge });
    expect(await report.judgeVerdict()).toEqual({ winner: null, rationale: NOTHING_SCORED, judge: "pass rate" });
    expect(asked).toEqual([]);
    expect(report.verdictMarkdown()).toContain(`**No best model** — ${NOTHING_SCORED}`);
  });

  it("never picks a model whose every pair errored, by rank or by judge, while another model answered", async () => {
    // dead never answered, yet its empty answers' rule scores (0.5) outrank live's failed answers (0.1).
    const results = ["a", "b"].flatMap((key) => [
      fakeResult({ key, label: "dead", score: 0.5, error: "connect ECONNREFUSED 127.0.0.1:8080" }),
      fakeResult({ key, label: "live", score: 0.1, diagnosis: low }),
    ]);
    const models = [model("dead"), model("live")];
    // It ranks last: the comparison's "best first" order and the pick agree.
    expect(rankModels(summarizeByModel(results, models))).toEqual(["live", "dead"]);
    expect(rankedVerdict(summarizeByModel(results, models))?.winner).toBe("live");
    // A judge naming dead is unusable, says why, and the ranking stands.
    const prompts: string[] = [];
    const judge = new Judge({ label: "j", complete: (request) => (prompts.push(request.prompt), '{"winner": "dead", "rationale": "dead is best"}') });
    const report = new Report({ results, models, judge });
    expect((await report.judgeVerdict())?.winner).toBe("live");
    expect(report.verdict?.judge).toBe("pass rate");
    expect((report.verdictExchange as { unusable_reason: string }).unusable_reason).toBe(
      '"winner" names "dead", which has no scored answer (every pair a run_error, or none run), so it cannot be picked',
    );
    // The judge was told so, and offered live alone.
    expect(prompts[0]).toContain("No answer of dead was scored (every pair a run_error, or none run), so it cannot be picked.");
    expect(prompts[0]).toContain('{"winner": "<one of: live>"');
    expect(report.verdictMarkdown()).toContain("**Best model: `live`**");
    // The page's comparison, best first, lists live first too.
    const comparison = report.toHtml().split('<section id="comparison">')[1];
    expect(comparison.indexOf(">live<")).toBeGreaterThan(-1);
    expect(comparison.indexOf(">live<")).toBeLessThan(comparison.indexOf(">dead<"));
  });

  it("names no best model when no model has a result", async () => {
    let asked = 0;
    const judge = new Judge({ label: "opus", complete: async () => ((asked += 1), '{"winner": "m1"}') });
    const report = new Report({ results: [], models: [model("m1"), model("m2")], judge });
    expect(await report.judgeVerdict()).toEqual({ winner: null, rationale: NOTHING_RUN, judge: "pass rate" });
    expect(asked).toBe(0);
    expect(report.toMarkdown()).not.toContain("**Best model");
    expect(report.verdictMarkdown()).toContain(`**No best model** — ${NOTHING_RUN}`);
  });

  it("has no verdict for a single model", () => {
    expect(rankedVerdict(summarizeByModel([fakeResult({ key: "a", label: "m" })], [model("m")]))).toBeNull();
  });

  it("lets a judge's present winner and rationale override the ranking", () => {
    const summaries = summarizeByModel([fakeResult({ key: "a", label: "a" }), fakeResult({ key: "a", label: "b" })], [model("a"), model("b")]);
    const ranked = { winner: "a", rationale: "Ranked.", judge: "pass rate" };
    expect(judgedVerdict(ranked, "opus", { winner: "b", rationale: "Cheaper at equal quality." }, summaries)).toEqual({ winner: "b", rationale: "Cheaper at equal quality.", judge: "opus" });
    expect(judgedVerdict(ranked, "opus", { winner: "a", rationale: " " }, summaries)).toEqual({ winner: "a", rationale: "Ranked.", judge: "opus" });
    expect(judgedVerdict(ranked, "opus", null, summaries)).toBe(ranked);
    // A pick among models that were not compared is no pick at all.
    expect(judgedVerdict(ranked, "opus", { winner: "c", rationale: "Cheaper." }, summaries)).toBe(ranked);
  });

  it("gives a judge's pick without a rationale its own figures, never the ranked winner's", async () => {
    // strong passes 3 of 3, weak 1 of 3; the judge names weak and says nothing more.
    const results = ["s1", "s2", "s3"].flatMap((key) => [
      fakeResult({ key, label: "strong" }),
      fakeResult({ key, label: "weak", status: key === "s1" ? "passed" : "failed", score: key === "s1" ? 1 : 0.4 }),
    ]);
    const judge = new Judge({ label: "opus", complete: async () => '{"winner": "weak"}' });
    const report = new Report({ results, models: [model("strong"), model("weak")], judge });
    const verdict = await report.judgeVerdict();
    expect(verdict?.winner).toBe("weak");
    expect(verdict?.rationale).toMatch(/^Passed 1 of 3 scenarios \(33%\)/);
    expect(report.verdictMarkdown()).toContain("**Best model: `weak`** — Passed 1 of 3 scenarios (33%)");
  });

  describe("its cost tie-break", () => {
    // Both pass with the same score; per replay $0.0000014 and $0.0000006, whose totals both
    // round to $0.000001 (reference-core §13.1's cost_per_priced = cost / priced ties them).
    const results = [fakeResult({ key: "a", label: "dear", score: 0.83, cost: 0.0000014 }), fakeResult({ key: "a", label: "cheap", score: 0.83, cost: 0.0000006 })];

    it("ranks on the mean over the priced replays' unrounded costs, whatever the model order", () => {
      for (const labels of [["dear", "cheap"], ["cheap", "dear"]]) {
        const report = new Report({ results, models: labels.map(model) });
        expect(report.summaryByModel.dear.cost).toBe(report.summaryByModel.cheap.cost);
        expect(rankModels(report.summaryByModel)).toEqual(["cheap", "dear"]);
        expect(report.verdict?.winner).toBe("cheap");
        // The page's comparison table ranks as the verdict does.
        const html = report.toHtml();
        expect(html.indexOf("<code>cheap</code><span class=\"star\">")).toBeGreaterThan(-1);
        const rows = html.slice(html.indexOf("<tbody>", html.indexOf("comparison"))).match(/<th scope="row"><code>(\w+)<\/code>/g);
        expect(rows?.slice(0, 2)).toEqual(["<th scope=\"row\"><code>cheap</code>", "<th scope=\"row\"><code>dear</code>"]);
      }
    });

    it("ranks summaries read back from JSON on their cost_per_1000, and keeps a recorded verdict as recorded", () => {
      const report = new Report({ results, models: ["dear", "cheap"].map(model) });
      const doc = JSON.parse(JSON.stringify(report.toJSON()));
      expect(Object.keys(rankingInReportOrder(doc.summary_by_model, ["dear", "cheap"]) as object)).toEqual(["cheap", "dear"]);
      // A verdict recorded under the old rule (the dearer model, by list order) is returned as recorded.
      const recorded = { ...doc, verdict: { ...doc.verdict, winner: "dear" } };
      const rebuilt = Report.fromJSON(recorded);
      expect(rebuilt.verdict?.winner).toBe("dear");
      const again = Report.fromJSON(JSON.parse(JSON.stringify(rebuilt.toJSON())));
      expect(again.toMarkdown()).toBe(rebuilt.toMarkdown());
      expect(again.toHtml()).toBe(rebuilt.toHtml());
    });
  });
});
