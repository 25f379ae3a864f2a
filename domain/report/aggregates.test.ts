import { describe, expect, it } from "vitest";
import { criterionScores, mostFrequent, recommendations } from "./aggregates.js";
import { fakeResult, model } from "./testing.js";

describe("criterionScores", () => {
  const results = [
    fakeResult({ key: "a", label: "m1", scores: { response_present: 1, min_length: 0.5 } }),
    fakeResult({ key: "b", label: "m1", scores: { response_present: 0, min_length: null, expected_tools: 1 } }),
    fakeResult({ key: "a", label: "m2", scores: { response_present: 1, min_length: null } }),
  ];

  it("gives stats over all results for one model, keys in first-seen order", () => {
    const single = criterionScores(results.slice(0, 2), [model("m1")], 0.7);
    expect(Object.keys(single)).toEqual(["response_present", "min_length", "expected_tools"]);
    expect(single.response_present).toEqual({ score: 0.5, min: 0, max: 1, passed: 1, total: 2 });
    expect(single.min_length).toEqual({ score: 0.5, min: 0.5, max: 0.5, passed: 0, total: 1 });
  });

  it("counts a score exactly at the threshold as passed", () => {
    const atThreshold = criterionScores([fakeResult({ key: "a", label: "m1", scores: { min_length: 0.7 } })], [model("m1")], 0.7);
    expect(atThreshold.min_length).toEqual({ score: 0.7, min: 0.7, max: 0.7, passed: 1, total: 1 });
  });

  it("gives label -> stats when comparing, skipped where nothing was scorable", () => {
    const compared = criterionScores(results, [model("m1"), model("m2")], 0.7) as Record<string, Record<string, unknown>>;
    expect(compared.min_length.m2).toEqual({ skipped: true, reason: "No scorable answers" });
    expect(compared.expected_tools.m2).toEqual({ skipped: true, reason: "No scorable answers" });
    expect(compared.response_present.m2).toEqual({ score: 1, min: 1, max: 1, passed: 1, total: 1 });
  });
});

describe("recommendations", () => {
  const d = (fault: string, recommendation: string | null, tool?: string) => ({
    fault, summary: "s", recommendation,
    judge: tool ? { suggested_tool: { name: tool, description: `${tool} tool` } } : null,
  });
  const results = [
    fakeResult({ key: "a", label: "m1", diagnosis: d("low_quality", "X") }),
    fakeResult({ key: "b", label: "m1", diagnosis: d("missing_content", "Y", "search") }),
    fakeResult({ key: "b", label: "m2", diagnosis: d("missing_content", "Z", "search") }),
    fakeResult({ key: "c", label: "m2", diagnosis: d("missing_content", "Z", "lookup") }),
    fakeResult({ key: "d", label: "m2" }),
  ];

  it("groups faults, most frequent first, with distinct keys, models and suggested tools", () => {
    const list = recommendations(results);
    expect(list.map((r) => r.fault)).toEqual(["missing_content", "low_quality"]);
    expect(list[0]).toEqual({
      fault: "missing_content", count: 3, scenario_keys: ["b", "c"], models: ["m1", "m2"], recommendation: "Z",
      suggested_tools: [{ name: "search", description: "search tool" }, { name: "lookup", description: "lookup tool" }],
    });
  });

  it("mostFrequent breaks ties by first seen and skips nulls", () => {
    expect(mostFrequent(["a", null, "b", "b", "a"])).toBe("a");
    expect(mostFrequent([null])).toBeNull();
  });
});
