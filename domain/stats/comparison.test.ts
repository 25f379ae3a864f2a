import { describe, expect, it } from "vitest";
import { Comparison, type ComparableResult } from "./comparison.js";
import { COMPARISON_NOT_DECISIVE } from "./conclusion.js";
import { mulberry32, streamSeed } from "./prng.js";
import { roundHalfAwayFromZero } from "../support/index.js";

/** Results for one model: `outcomes[i]` says whether scenario s<i> passed (keys zero-padded: scenarios are resampled in key order). */
function ran(label: string, outcomes: boolean[], keys = outcomes.map((_, i) => `s${String(i).padStart(3, "0")}`)): ComparableResult[] {
  return outcomes.map((passed, i) => ({ scenario: { key: keys[i] }, label, status: passed ? "passed" : "failed" }));
}

const passes = (n: number, of: number): boolean[] => Array.from({ length: of }, (_, i) => i < n);

/** A slow, obvious paired percentile bootstrap to check the fast one against. */
function naiveIntervals(columns: number[][], seed: number, resamples: number): { models: number[][]; diff: number[] } {
  const n = columns[0].length;
  const next = mulberry32(streamSeed(seed, 0));
  const counts = columns.map(() => [] as number[]);
  const diff: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const picks = Array.from({ length: n }, () => Math.floor((next() * n) / 2 ** 32));
    const passed = columns.map((col) => picks.reduce((sum, i) => sum + col[i], 0));
    passed.forEach((count, i) => counts[i].push(count));
    diff.push(passed[0] - passed[1]);
  }
  // Percent of counts as the summary writes a pass rate: × 100 / n, half away from zero.
  const at = (values: number[]): number[] => {
    const sorted = [...values].sort((a, b) => a - b);
    const low = Math.ceil(0.025 * resamples - 1e-9);
    const high = Math.ceil(0.975 * resamples - 1e-9);
    return [sorted[low - 1], sorted[high - 1]].map((count) => roundHalfAwayFromZero((count * 100) / n, 1) || 0);
  };
  return { models: counts.map(at), diff: at(diff) };
}

describe("Comparison", () => {
  it("gives each model its pass rate over its scenarios in percent, one decimal", () => {
    const comparison = new Comparison({ results: [...ran("gpt-5-mini", passes(36, 42)), ...ran("qwen3:8b", passes(33, 42))], models: ["gpt-5-mini", "qwen3:8b"] });
    const model = comparison.models["gpt-5-mini"];
    expect(model.scenarios).toBe(42);
    expect(model.pass_rate).toBe(85.7);
    const [low, high] = model.interval!;
    expect(low).toBeLessThan(85.7);
    expect(high).toBeGreaterThan(85.7);
    expect(low).toBeGreaterThanOrEqual(0);
    expect(high).toBeLessThanOrEqual(100);
  });

  it("is deterministic: the same input and seed give identical JSON, another seed other intervals", () => {
    const results = [...ran("a", passes(30, 42)), ...ran("b", passes(27, 42).reverse())];
    const once = JSON.stringify(new Comparison({ results, models: ["a", "b"] }));
    const again = JSON.stringify(new Comparison({ results, models: ["a", "b"] }));
    expect(again).toBe(once);
    const other = new Comparison({ results, models: ["a", "b"], seed: 99 }).toJSON();
    expect(other.seed).toBe(99);
    expect(JSON.stringify(other.pairs)).not.toBe(JSON.stringify(JSON.parse(once).pairs));
  });

  it("gives the same intervals whatever order the results come in (rows read back from a store)", () => {
    const a = [1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0];
    const b = [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0];
    const results = [...ran("a", a.map(Boolean)), ...ran("b", b.map(Boolean))];
    const once = JSON.stringify(new Comparison({ results, models: ["a", "b"] }));
    const next = mulberry32(7);
    for (let round = 0; round < 5; round++) {
      const shuffled = results.map((result) => ({ result, at: next() })).sort((x, y) => x.at - y.at).map(({ result }) => result);
      // The scenarios were numbered as they first appeared: 15 of 20 shuffles gave other intervals.
      expect(JSON.stringify(new Comparison({ results: shuffled, models: ["a", "b"] }))).toBe(once);
    }
    expect(JSON.stringify(new Comparison({ results: [...results].reverse(), models: ["a", "b"] }))).toBe(once);
  });

  it("resamples whole scenarios, drawing the same scenarios for both models of a pair", () => {
    const a = [1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0];
    const b = [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0];
    const results = [...ran("a", a.map(Boolean)), ...ran("b", b.map(Boolean))];
    const comparison = new Comparison({ results, models: ["a", "b"], resamples: 2000 });
    const expected = naiveIntervals([a, b], 0, 2000);
    expect(comparison.models.a.interval).toEqual(expected.models[0]);
    expect(comparison.models.b.interval).toEqual(expected.models[1]);
    expect(comparison.pairs[0].interval).toEqual(expected.diff);
    // Paired: b never passes where a fails, so no resample can put b ahead.
    expect(comparison.pairs[0].interval![0]).toBeGreaterThanOrEqual(0);
  });

  it("rounds rates, differences and bounds as the summary's pass rate (passed × 100 / n), exact halves up", () => {
    // 51/80 = 63.75% and 41/80 = 51.25%: dividing first gives 63.74999… and 51.24999…
    const results = [...ran("a", passes(51, 80)), ...ran("b", passes(50, 80))];
    const comparison = new Comparison({ results, models: ["a", "b"] });
    expect(comparison.models.a).toEqual({ scenarios: 80, pass_rate: 63.8, interval: [52.5, 73.8] });
    expect(comparison.models.b).toEqual({ scenarios: 80, pass_rate: 62.5, interval: [51.3, 72.5] });
    expect(comparison.pairs[0]).toMatchObject({ models: ["a", "b"], difference: 1.3, interval: [0, 3.8] });
    // The same seed gives the same figures.
    expect(JSON.stringify(new Comparison({ results, models: ["a", "b"] }))).toBe(JSON.stringify(comparison));
  });

  it("agrees with the summary's pass rate for every count of 80 and 160 scenarios", () => {
    for (const n of [80, 160]) {
      for (let passed = 0; passed <= n; passed++) {
        // 40 resamples: the fewest a 95% interval allows, enough for the point estimates.
        const comparison = new Comparison({ results: ran("a", passes(passed, n)), models: ["a"], resamples: 40 });
        expect(comparison.models.a.pass_rate, `${passed}/${n}`).toBe(roundHalfAwayFromZero((passed * 100) / n, 1));
      }
    }
  });

  it("matches the naive bootstrap at 80 scenarios, where resampled rates land on exact halves", () => {
    // a passes 51 of 80, b 50, not on the same scenarios; b's lower bound is 41 of 80 = 51.25%.
    const a = Array.from({ length: 80 }, (_, i) => (i < 51 ? 1 : 0));
    const b = Array.from({ length: 80 }, (_, i) => (i >= 10 && i < 60 ? 1 : 0));
    for (const seed of [0, 1, 2]) {
      const comparison = new Comparison({ results: [...ran("a", a.map(Boolean)), ...ran("b", b.map(Boolean))], models: ["a", "b"], seed, resamples: 2000 });
      const expected = naiveIntervals([a, b], seed, 2000);
      expect([comparison.models.a.interval, comparison.models.b.interval, comparison.pairs[0].interval]).toEqual([...expected.models, expected.diff]);
    }
  });

  it("matches the naive bootstrap at 999 resamples, where the 95% tail ranks are not whole (24.975 and 974.025 round up)", () => {
    // 1,000 scenarios: resampled rates fine enough that neighbouring ranks hold different values.
    const a = Array.from({ length: 1000 }, (_, i) => (i < 640 ? 1 : 0));
    const b = Array.from({ length: 1000 }, (_, i) => (i >= 100 && i < 720 ? 1 : 0));
    for (const seed of [0, 1]) {
      const comparison = new Comparison({ results: [...ran("a", a.map(Boolean)), ...ran("b", b.map(Boolean))], models: ["a", "b"], seed, resamples: 999 });
      const expected = naiveIntervals([a, b], seed, 999);
      expect([comparison.models.a.interval, comparison.models.b.interval, comparison.pairs[0].interval]).toEqual([...expected.models, expected.diff]);
    }
  });

  it("resamples 5,000 times at 95% confidence with seed 0 unless told otherwise", () => {
    const results = [...ran("a", passes(30, 42)), ...ran("b", passes(27, 42).reverse())];
    const json = new Comparison({ results, models: ["a", "b"] }).toJSON();
    expect(json).toMatchObject({ seed: 0, resamples: 5000, confidence: 0.95 });
    expect(json).toEqual(new Comparison({ results, models: ["a", "b"], seed: 0, resamples: 5000, confidence: 0.95 }).toJSON());
  });

  it("calls a pair decisive when the difference's interval excludes zero, and names it", () => {
    const results = [...ran("strong", passes(40, 40)), ...ran("weak", passes(10, 40))];
    const comparison = new Comparison({ results, models: ["weak", "strong"] });
    const pair = comparison.pairs[0];
    expect(pair.models).toEqual(["strong", "weak"]); // the leader first, whatever the model order
    expect(pair.scenarios).toBe(40);
    expect(pair.difference).toBe(75);
    expect(pair.interval![0]).toBeGreaterThan(0);
    expect(pair.decisive).toBe(true);
    expect(comparison.conclusion).toMatch(/^The pairwise difference interval excludes zero for strong over weak \(\+75\.0 points, 95% interval \[\d+\.\d, \d+\.\d\]\): that ranking is decisive\.$/);
  });

  it("says in the guide's words when no pair is decisive", () => {
    const results = [...ran("a", passes(22, 42)), ...ran("b", passes(21, 42))];
    const comparison = new Comparison({ results, models: ["a", "b"] });
    expect(comparison.pairs[0].decisive).toBe(false);
    expect(comparison.pairs[0].interval![0]).toBeLessThanOrEqual(0);
    expect(comparison.conclusion).toBe(COMPARISON_NOT_DECISIVE);
    expect(COMPARISON_NOT_DECISIVE).toBe("The pairwise difference interval includes zero: the ranking is not decisive evidence of superiority.");
  });

  it("names every decisive pair and says the others include zero", () => {
    const results = [...ran("a", passes(40, 40)), ...ran("b", passes(39, 40)), ...ran("c", passes(5, 40))];
    const comparison = new Comparison({ results, models: ["a", "b", "c"] });
    expect(comparison.pairs.map((pair) => [pair.models.join(">"), pair.decisive])).toEqual([
      ["a>b", false],
      ["a>c", true],
      ["b>c", true],
    ]);
    expect(comparison.conclusion).toContain("for a over c (+87.5 points");
    expect(comparison.conclusion).toContain(" and b over c (+85.0 points");
    expect(comparison.conclusion).toMatch(/those rankings are decisive\. The other pair's interval includes zero\.$/);
  });

  it("shrinks the interval to a point at 0% or 100%", () => {
    const comparison = new Comparison({ results: [...ran("a", passes(5, 5)), ...ran("b", passes(0, 5))], models: ["a", "b"] });
    expect(comparison.models.a.interval).toEqual([100, 100]);
    expect(comparison.models.b.interval).toEqual([0, 0]);
    expect(comparison.pairs[0].interval).toEqual([100, 100]);
  });

  it("gives no interval below two shared scenarios and says the models share too few", () => {
    const apart = new Comparison({
      results: [...ran("a", [true, false], ["s1", "s2"]), ...ran("b", [true, true], ["s3", "s4"])],
      models: ["a", "b"],
    });
    expect(apart.models.a.interval).not.toBeNull();
    expect(apart.pairs[0]).toEqual({ models: ["a", "b"], scenarios: 0, difference: null, interval: null, decisive: false });
    expect(apart.conclusion).toBe("a and b share no scenario: too few to compare.");

    const one = new Comparison({
      results: [...ran("a", [true], ["s1"]), ...ran("b", [false, true], ["s1", "s2"])],
      models: ["a", "b"],
    });
    expect(one.models.a).toEqual({ scenarios: 1, pass_rate: 100, interval: null });
    expect(one.pairs[0]).toMatchObject({ models: ["a", "b"], scenarios: 1, difference: 100, interval: null, decisive: false });
    expect(one.conclusion).toBe("a and b share only one scenario: too few to compare.");
  });

  it("compares each pair on the scenarios both ran, not on each model's own", () => {
    const results = [
      ...ran("a", [true, true, true, false], ["s1", "s2", "s3", "s4"]),
      ...ran("b", [true, true, false], ["s2", "s3", "s4"]),
    ];
    const comparison = new Comparison({ results, models: ["a", "b"] });
    expect(comparison.models.a).toMatchObject({ scenarios: 4, pass_rate: 75 });
    expect(comparison.models.b).toMatchObject({ scenarios: 3, pass_rate: 66.7 });
    // On s2..s4 both pass 2 of 3: no difference, and every resample agrees.
    expect(comparison.pairs[0]).toEqual({ models: ["a", "b"], scenarios: 3, difference: 0, interval: [0, 0], decisive: false });
  });

  it("reads serialized results, ignores models not compared, and counts errored as not passed", () => {
    const results: ComparableResult[] = [
      { scenario_key: "s1", label: "a", status: "passed" },
      { scenario_key: "s2", label: "a", status: "errored" },
      { scenario_key: "s1", label: "ghost", status: "passed" },
    ];
    const comparison = new Comparison({ results, models: [{ label: "a" }] });
    expect(comparison.labels).toEqual(["a"]);
    expect(comparison.models.a).toMatchObject({ scenarios: 2, pass_rate: 50 });
    expect(comparison.pairs).toEqual([]);
    expect(comparison.conclusion).toBe("Only one model was compared: there is no pair to rank.");
  });

  it("counts a scenario run twice once, at the share of its runs that passed", () => {
    const results: ComparableResult[] = [
      { scenario: { key: "s1" }, label: "a", status: "passed" },
      { scenario: { key: "s1" }, label: "a", status: "failed" },
      { scenario: { key: "s2" }, label: "a", status: "passed" },
    ];
    const comparison = new Comparison({ results, models: ["a"] });
    expect(comparison.models.a).toEqual({ scenarios: 2, pass_rate: 75, interval: [50, 100] });
  });

  it("round-trips through toJSON and fromJSON without resampling", () => {
    const original = new Comparison({ results: [...ran("a", passes(30, 42)), ...ran("b", passes(20, 42))], models: ["a", "b"], seed: 7, resamples: 1000, confidence: 0.9 });
    const json = JSON.parse(JSON.stringify(original));
    expect(Object.keys(json)).toEqual(["models", "pairs", "conclusion", "seed", "resamples", "confidence"]);
    expect(json).toMatchObject({ seed: 7, resamples: 1000, confidence: 0.9 });
    const rebuilt = Comparison.fromJSON(json);
    expect(rebuilt).toBeInstanceOf(Comparison);
    expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(original));
    expect(rebuilt.method).toBe(
      "Percentile bootstrap over whole scenarios: 1,000 resamples, 90% confidence, seed 7; each pair is resampled on the scenarios both models ran, drawing the same scenarios for both.",
    );
  });

  it("reads a recorded comparison without settings as made with the defaults", () => {
    const recorded = { models: { a: { scenarios: 42, pass_rate: 85.7, interval: [73.8, 95.2] } }, pairs: [], conclusion: "x" };
    expect(Comparison.fromJSON(recorded).toJSON()).toEqual({ ...recorded, seed: 0, resamples: 5000, confidence: 0.95 });
  });

  it("refuses a malformed recorded comparison, naming the field", () => {
    expect(() => Comparison.fromJSON({ models: {}, pairs: [], conclusion: "x", seed: 0, resamples: 0, confidence: 0.95 })).toThrow(/resamples/);
    expect(() => Comparison.fromJSON({ models: { a: { scenarios: 2, pass_rate: "high", interval: null } }, pairs: [], conclusion: "", seed: 0, resamples: 5, confidence: 0.95 })).toThrow(/models\.a\.pass_rate/);
  });

  it("refuses bad settings, naming the option and the rule", () => {
    const results = ran("a", [true]);
    expect(() => new Comparison({ results, models: ["a"], resamples: 0 })).toThrow(/resamples must be a positive integer/);
    expect(() => new Comparison({ results, models: ["a"], resamples: 100_001 })).toThrow(/up to 100000/);
    expect(() => new Comparison({ results, models: ["a"], confidence: 1 })).toThrow(/confidence must be a number between 0 and 1/);
    expect(() => new Comparison({ results, models: ["a"], seed: 1.5 })).toThrow(/seed must be an integer/);
  });

  it("refuses too few resamples for the interval's tails, stating the rule", () => {
    // 10 shared scenarios, a 7/10 and b 3/10: one resample gave a's 70% the interval [80, 80].
    const results = [...ran("a", passes(7, 10)), ...ran("b", passes(3, 10))];
    const rule = /resamples × \(1 − confidence\) \/ 2 must be at least 1/;
    expect(() => new Comparison({ results, models: ["a", "b"], resamples: 1 })).toThrow(rule);
    expect(() => new Comparison({ results, models: ["a", "b"], resamples: 39 })).toThrow(/got 39 resamples at confidence 0\.95 \(at least 40 needed\)/);
    expect(() => new Comparison({ results, models: ["a", "b"], confidence: 0.999999 })).toThrow(/at least 2000000 needed/);
    expect(new Comparison({ results, models: ["a", "b"], resamples: 40 }).pairs[0].interval).not.toBeNull();
    expect(new Comparison({ results, models: ["a", "b"], resamples: 2000, confidence: 0.999 }).resamples).toBe(2000);
    expect(() => new Comparison({ results, models: [""] })).toThrow(/models\[0\]/);
  });
});
