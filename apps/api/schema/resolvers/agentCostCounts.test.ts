// agentCostCounts reads the database's groups of a run's scored results (whether each carries a
// cost, and its cost source as the projector stores it) to the counts the report gives over the
// results themselves: runCosts' priced, unpriced and cost_basis, modelCosts' reported and
// estimated summed over the models.
import { describe, expect, it } from "vitest";
import { modelCosts, resultCost, runCosts, type CostResultLike } from "@verdict/domain";
import { agentCostCounts, agentUsageFigures } from "./agentCostCounts.js";

/** The cost source the projector stores for a replay (resultProjection.ts, importedRunProjection.ts). */
function storedSource(result: CostResultLike): string {
  const declared = result.replay.metadata?.cost_source;
  if (typeof declared === "string" && declared !== "") return declared;
  return resultCost(result) === null ? "unpriced" : "reported";
}

/** What ReadModels.runUsageFigures answers (its replays) for these results: a count per (has a cost, stored source). */
function groupsOf(results: readonly CostResultLike[]) {
  const groups = new Map<string, { priced: boolean; costSource: string; count: number }>();
  for (const result of results) {
    const priced = resultCost(result) !== null;
    const costSource = storedSource(result);
    const key = JSON.stringify([priced, costSource]);
    const group = groups.get(key) ?? { priced, costSource, count: 0 };
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The report's own counts over the results. */
function reportCounts(results: readonly CostResultLike[]) {
  const run = runCosts(results, null);
  const labels = [...new Set(results.map((r) => r.label))];
  const models = labels.map((label) => modelCosts(results.filter((r) => r.label === label)));
  return {
    priced: run.priced,
    unpriced: run.unpriced,
    reported: models.reduce((n, m) => n + m.reported, 0),
    estimated: models.reduce((n, m) => n + m.estimated, 0),
    costBasis: run.cost_basis,
  };
}

let n = 0;
const result = (cost: number | null | undefined, metadata: Record<string, unknown> = {}, label = "a"): CostResultLike => ({
  scenario: { key: `s${(n += 1)}` },
  label,
  replay: { cost, metadata },
});

const EDGE_CASES: Record<string, CostResultLike[]> = {
  "reported, given and inferred": [result(0.1, { cost_source: "reported" }), result(0.2), result(0.3, {}, "b")],
  "estimated, all priced": [result(0.1, { cost_source: "estimated" }), result(0.2, { cost_source: "estimated" }, "b")],
  "estimated without a cost (unpriced, still estimated)": [result(0.1), result(null, { cost_source: "estimated" }), result(0.2, { cost_source: "estimated" })],
  "only an estimated without a cost": [result(null, { cost_source: "estimated" })],
  "no_usage $0": [result(0, { cost_source: "no_usage" }), result(0.4, { cost_source: "estimated" }, "b")],
  "blank and whitespace sources": [result(0.1, { cost_source: "" }), result(0.2, { cost_source: "   " }), result(null, { cost_source: "\t" }), result(null, { cost_source: " " })],
  "non-text sources": [result(0.1, { cost_source: 5 }), result(null, { cost_source: true }), result(0.2, { cost_source: null })],
  "another source (metered)": [result(0.1, { cost_source: "metered" }), result(null, { cost_source: "metered" }), result(0.2, { cost_source: "estimated" })],
  "a source that says unpriced but has a cost": [result(0.1, { cost_source: "unpriced" }), result(null)],
  "nothing priced": [result(null), result(undefined, {}, "b")],
  "nothing at all": [],
};

describe("agentCostCounts", () => {
  for (const [name, results] of Object.entries(EDGE_CASES)) {
    it(`counts as the report does: ${name}`, () => {
      expect(agentCostCounts(groupsOf(results))).toEqual(reportCounts(results));
    });
  }

  it("counts as the report does over every case at once", () => {
    const all = Object.values(EDGE_CASES).flat();
    expect(agentCostCounts(groupsOf(all))).toEqual(reportCounts(all));
  });

  it("counts an estimated replay without a cost as estimated but not in costBasis (estimated may exceed priced)", () => {
    expect(agentCostCounts([{ priced: true, costSource: "reported", count: 1 }, { priced: false, costSource: "estimated", count: 2 }])).toEqual({
      priced: 1, unpriced: 2, reported: 1, estimated: 2, costBasis: "reported",
    });
  });
});

describe("agentUsageFigures", () => {
  const group = (priced: boolean, costSource: string, count: number, cost: number | null, durationMs: number | null = null, timed = 0) => ({
    runId: "r", priced, costSource, count, cost, durationMs, timed,
  });

  it("says the replays scored, the cost per priced replay (unpriced left out) and the durations recorded, summed", () => {
    const figures = agentUsageFigures([
      group(true, "reported", 2, 0.003, 100, 2),
      group(true, "estimated", 1, 0.0041818198, 50.5, 1),
      group(false, "unpriced", 3, null, null, 0),
    ]);
    expect(figures).toEqual({
      priced: 3, unpriced: 3, reported: 2, estimated: 1, costBasis: "mixed", replays: 6, perInteraction: 0.002394, modelTimeMs: 150.5,
    });
  });

  it("divides the unrounded sum, as the report's cost_per_priced does for one model", () => {
    const results = [result(0.0041818198), result(0.001), result(null)];
    const figures = agentUsageFigures([group(true, "reported", 2, 0.0051818198), group(false, "unpriced", 1, null)]);
    expect(figures.perInteraction).toBe(modelCosts(results).cost_per_priced);
  });

  it("says null per interaction when nothing is priced, and null time when no replay recorded a duration (0 ms recorded is 0)", () => {
    expect(agentUsageFigures([group(false, "unpriced", 2, null)])).toMatchObject({ replays: 2, perInteraction: null, modelTimeMs: null });
    expect(agentUsageFigures([group(true, "no_usage", 1, 0, 0, 1)])).toMatchObject({ replays: 1, perInteraction: 0, modelTimeMs: 0 });
    expect(agentUsageFigures([])).toMatchObject({ replays: 0, perInteraction: null, modelTimeMs: null });
  });
});
