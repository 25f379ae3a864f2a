import { describe, expect, it } from "vitest";
import { Comparison } from "./comparison.js";
import { readRecordedComparison } from "./comparisonRecord.js";
import { comparisonJSONSchema } from "./comparisonSchema.js";

const recorded = () => {
  const results = ["s1", "s2", "s3"].flatMap((key, i) => [
    { scenario: { key }, label: "a", status: "passed" },
    { scenario: { key }, label: "b", status: i === 0 ? "passed" : "failed" },
  ]);
  return new Comparison({ results, models: ["a", "b"], resamples: 200 }).toJSON();
};

describe("readRecordedComparison", () => {
  it("reads what the zod schema reads, extra keys dropped and settings defaulted", () => {
    const full = recorded();
    const { seed: _s, resamples: _r, confidence: _c, ...bare } = full;
    const extra = { ...full, note: "x", models: { ...full.models, a: { ...full.models.a, extra: 1 } } };
    for (const input of [full, bare, extra]) {
      const read = readRecordedComparison(input);
      // The same entries; the hand check's record of models has no prototype (keyedRecord), so a
      // model labelled `__proto__` stays an entry, where the schema's record drops it.
      expect(Object.getPrototypeOf(read.models)).toBeNull();
      expect({ ...read, models: { ...read.models } }).toStrictEqual(comparisonJSONSchema().parse(input));
      expect(JSON.stringify(read)).toBe(JSON.stringify(comparisonJSONSchema().parse(input)));
    }
  });

  it("leaves what it does not accept to the schema, which words the error", () => {
    const bad = { ...recorded(), pairs: [{ models: ["a"], scenarios: 1, difference: null, interval: null, decisive: false }] };
    expect(() => readRecordedComparison(bad)).toThrow(/^Comparison\.fromJSON: pairs\.0\.models/);
    expect(() => readRecordedComparison({ ...recorded(), confidence: 1 })).toThrow(/confidence/);
    expect(() => readRecordedComparison(null)).toThrow(/\(root\)/);
  });

  it("refuses figures no comparison could record, naming the field and the rule", () => {
    const good = recorded();
    const model = (patch: object) => ({ ...good, models: { ...good.models, a: { ...good.models.a, ...patch } } });
    const pair = (patch: object) => ({ ...good, pairs: [{ ...good.pairs[0], ...patch }] });
    const cases: [unknown, RegExp][] = [
      [model({ pass_rate: 170 }), /^Comparison\.fromJSON: models\.a\.pass_rate: must be within 0\.\.100, got 170$/],
      [model({ interval: [90, 20] }), /models\.a\.interval: lower bound must not exceed the upper, got \[90, 20\]/],
      [model({ interval: [-1, 20] }), /models\.a\.interval\.0: must be within 0\.\.100, got -1/],
      [pair({ interval: [-5, 10], decisive: true }), /pairs\.0\.decisive: must be false \(decisive exactly when the interval excludes zero\), got true/],
      [pair({ interval: [5, 10], decisive: false }), /pairs\.0\.decisive: must be true/],
      [pair({ interval: null, decisive: true }), /pairs\.0\.decisive: must be false/],
      [pair({ difference: 140 }), /pairs\.0\.difference: must be within -100\.\.100, got 140/],
      [pair({ interval: [-120, 10], decisive: false }), /pairs\.0\.interval\.0: must be within -100\.\.100/],
      [pair({ models: ["a", "z"] }), /pairs\.0\.models\.1: must name a model of models, got "z"/],
    ];
    for (const [input, error] of cases) expect(() => readRecordedComparison(input), JSON.stringify(input)).toThrow(error);
    // Through the zod path too (an extra key sends it there).
    expect(() => readRecordedComparison({ ...model({ pass_rate: 170 }), note: 1 })).toThrow(/models\.a\.pass_rate: must be within/);
  });

  it("accepts what this code has recorded: its own output, older shapes and an interval [0.0, x] called not decisive", () => {
    const good = recorded();
    expect(readRecordedComparison(good)).toEqual(good);
    const { seed: _s, resamples: _r, confidence: _c, ...bare } = good;
    expect(() => readRecordedComparison(bare)).not.toThrow();
    expect(() => readRecordedComparison({ ...good, pairs: [{ ...good.pairs[0], interval: [0, 0.3], decisive: false }] })).not.toThrow();
    expect(() => readRecordedComparison({ ...good, pairs: [{ ...good.pairs[0], scenarios: 1, difference: 0, interval: null, decisive: false }] })).not.toThrow();
    expect(() => readRecordedComparison({ models: { a: { scenarios: 42, pass_rate: 85.7, interval: [73.8, 95.2] } }, pairs: [], conclusion: "x" })).not.toThrow();
  });
});
