// judgeUsageFigures turns the database's judge figures of a run (its results' calls per kind, the
// models they name, the run's own part) into usage.judge's model, byKind and run, summed as the
// report's judge_usage sums them.
import { describe, expect, it } from "vitest";
import type { JudgeKindFigures, RunJudgePart, RunUsageFigures } from "@verdict/projector";
import { judgeByKindOf, judgeModelOf, judgeRunOf, judgeSourceOf } from "./judgeUsageFigures.js";

/** usage.judge's model, byKind and run from the same figures. */
const judgeUsageFigures = (figures: Pick<RunUsageFigures, "judgeKinds" | "judgeModels" | "judgeRun">) => ({
  model: judgeModelOf(figures), byKind: judgeByKindOf(figures), run: judgeRunOf(figures),
});

const kind = (name: string, calls: number, inputTokens: number | null = null, outputTokens: number | null = null, cost: number | null = null): JudgeKindFigures => ({
  kind: name, calls, inputTokens, outputTokens, cost,
});
const runPart = (part: Partial<RunJudgePart>): RunJudgePart => ({ calls: 1, inputTokens: 0, outputTokens: 0, cost: null, model: null, byKind: [], metered: true, reported: false, ...part });

describe("judgeUsageFigures", () => {
  it("adds the run's own calls to the results' by kind, in the order score, recommend, verdict, define, then others by name", () => {
    const figures = judgeUsageFigures({
      judgeKinds: [kind("zeta", 1, 1, 1, 0.1), kind("recommend", 2, 20, 4, 0.0003), kind("define", 1, 5, 5, null), kind("alpha", 1, 1, 1, 0.1), kind("score", 6, 2400, 72, 0.0036)],
      judgeModels: [],
      judgeRun: runPart({ calls: 1, inputTokens: 900, outputTokens: 40, cost: 0.002, byKind: [kind("verdict", 1, 900, 40, 0.002)] }),
    });
    expect(figures.byKind.map((k: JudgeKindFigures) => k.kind)).toEqual(["score", "recommend", "verdict", "define", "alpha", "zeta"]);
    expect(figures.byKind[2]).toEqual(kind("verdict", 1, 900, 40, 0.002));
    expect(figures.run).toEqual({ calls: 1, cost: 0.002, byKind: [kind("verdict", 1, 900, 40, 0.002)] });
  });

  it("sums a kind on both sides: tokens and cost only when both split them, the cost null only when neither had one", () => {
    const split = judgeUsageFigures({ judgeKinds: [kind("verdict", 1, 10, 1, null)], judgeModels: [], judgeRun: runPart({ byKind: [kind("verdict", 1, 900, 40, 0.0020004)] }) });
    expect(split.byKind).toEqual([kind("verdict", 2, 910, 41, 0.002)]);
    const neither = judgeUsageFigures({ judgeKinds: [kind("verdict", 1, 10, 1, null)], judgeModels: [], judgeRun: runPart({ byKind: [kind("verdict", 1, 0, 0, null)] }) });
    expect(neither.byKind).toEqual([kind("verdict", 2, 10, 1, null)]);
    // An imported report's tally (no tokens, no cost by kind) leaves them unknown.
    const tally = judgeUsageFigures({ judgeKinds: [kind("verdict", 1, 10, 1, 0.5)], judgeModels: [], judgeRun: runPart({ byKind: [kind("verdict", 3)] }) });
    expect(tally.byKind).toEqual([kind("verdict", 4)]);
  });

  it("names the first model the results name in run order, blank ones skipped, else the run's own", () => {
    const models = [{ model: "later", n: 7 }, { model: "  ", n: 0 }, { model: "first", n: 3 }];
    expect(judgeUsageFigures({ judgeKinds: [], judgeModels: models, judgeRun: runPart({ model: "run-judge" }) }).model).toBe("first");
    expect(judgeUsageFigures({ judgeKinds: [], judgeModels: [{ model: "", n: 0 }], judgeRun: runPart({ model: "run-judge" }) }).model).toBe("run-judge");
    expect(judgeUsageFigures({ judgeKinds: [], judgeModels: [], judgeRun: runPart({ model: " " }) }).model).toBeNull();
  });

  it("answers at most 16 kinds: past them, the first 15 in order and the rest (an \"other\" named so included) summed into other", () => {
    const results = Array.from({ length: 20 }, (_, i) => kind(`k${String(i).padStart(2, "0")}`, 1, 10, 1, 0.001));
    const figures = judgeUsageFigures({
      judgeKinds: [...results, kind("score", 2, 20, 2, 0.002), kind("other", 3, 30, 3, 0.003)],
      judgeModels: [],
      judgeRun: runPart({ byKind: [kind("zz", 4)] }),
    });
    expect(figures.byKind).toHaveLength(16);
    expect(figures.byKind[0]).toEqual(kind("score", 2, 20, 2, 0.002));
    expect(figures.byKind.map((k) => k.kind).slice(1)).toEqual([...results.slice(0, 14).map((k) => k.kind), "other"]);
    // k14 .. k19 (6 calls) and zz (4, a tally: no tokens or cost) with the given other (3).
    expect(figures.byKind[15]).toEqual(kind("other", 13));
    expect(figures.byKind.reduce((n, k) => n + k.calls, 0)).toBe(20 + 2 + 3 + 4);
  });

  it("says where the usage comes from: METER, REPORTED or MIXED over the results and the run's own part, null with none", () => {
    const source = (judgeSources: RunUsageFigures["judgeSources"], judgeRun: RunJudgePart | null) => judgeSourceOf({ judgeSources, judgeRun });
    expect(source(null, null)).toBeNull();
    expect(source({ meter: true, reported: false }, null)).toBe("meter");
    expect(source({ meter: false, reported: true }, null)).toBe("reported");
    expect(source({ meter: true, reported: true }, null)).toBe("mixed");
    // A verdict's exchange is metered; an imported report's run-level usage reported.
    expect(source({ meter: false, reported: true }, runPart({}))).toBe("mixed");
    expect(source(null, runPart({}))).toBe("meter");
    expect(source(null, runPart({ metered: false, reported: true }))).toBe("reported");
  });

  it("has no run part, no kinds and no model when the judge was never asked", () => {
    expect(judgeUsageFigures({ judgeKinds: [], judgeModels: [], judgeRun: null })).toEqual({ model: null, byKind: [], run: null });
  });
});
