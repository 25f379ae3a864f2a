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
      expect(read).toStrictEqual(comparisonJSONSchema().parse(input));
      expect(JSON.stringify(read)).toBe(JSON.stringify(comparisonJSONSchema().parse(input)));
    }
  });

  it("leaves what it does not accept to the schema, which words the error", () => {
    const bad = { ...recorded(), pairs: [{ models: ["a"], scenarios: 1, difference: null, interval: null, decisive: false }] };
    expect(() => readRecordedComparison(bad)).toThrow(/^Comparison\.fromJSON: pairs\.0\.models/);
    expect(() => readRecordedComparison({ ...recorded(), confidence: 1 })).toThrow(/confidence/);
    expect(() => readRecordedComparison(null)).toThrow(/\(root\)/);
  });
});
