// Criterion statistics and fault recommendations (reference-core §13.2): the grouped views the
// Markdown, the JSON and the fix items are built from.
import { FloatSum, roundHalfAwayFromZero as round, keyedRecord } from "../support/index.js";
import type { CriterionStats, Recommendation, ReportModel, ReportResult } from "./reportTypes.js";

function stats(values: number[], threshold: number): CriterionStats {
  if (values.length === 0) return { skipped: true, reason: "No scorable answers" };
  const sum = new FloatSum();
  let min = Infinity;
  let max = -Infinity;
  let passed = 0;
  for (const value of values) {
    sum.add(value);
    if (value < min) min = value;
    if (value > max) max = value;
    if (value >= threshold) passed += 1;
  }
  return { score: round(sum.value / values.length, 3), min: round(min, 3), max: round(max, 3), passed, total: values.length };
}

/**
 * Every score key in first-seen order -> stats over all results, or (comparing several models)
 * label -> stats in model order.
 */
export function criterionScores(
  results: readonly ReportResult[],
  models: readonly ReportModel[],
  threshold: number,
): Record<string, CriterionStats | Record<string, CriterionStats>> {
  const comparing = models.length > 1;
  // Bucket (the label, comparing) -> score key -> values: the bucket is found once per result,
  // then one lookup per score (5,000 results carry ~20,000 scores), not two.
  const buckets = new Map<string, Map<string, number[]>>();
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const result of results) {
    const bucket = comparing ? result.label : "";
    let lists = buckets.get(bucket);
    if (!lists) { lists = new Map(); buckets.set(bucket, lists); }
    const scores = result.scores;
    for (const key in scores) {
      let list = lists.get(key);
      if (!list) {
        list = [];
        lists.set(key, list);
        if (!seen.has(key)) { seen.add(key); keys.push(key); }
      }
      const value = scores[key];
      if (typeof value === "number" && Number.isFinite(value)) list.push(value);
    }
  }
  const valuesOf = (bucket: string, key: string): number[] => buckets.get(bucket)?.get(key) ?? [];
  const out: Record<string, CriterionStats | Record<string, CriterionStats>> = keyedRecord();
  for (const key of keys) {
    if (!comparing) { out[key] = stats(valuesOf("", key), threshold); continue; }
    const perModel: Record<string, CriterionStats> = keyedRecord();
    for (const model of models) perModel[model.label] = stats(valuesOf(model.label, key), threshold);
    out[key] = perModel;
  }
  return out;
}

/** The most frequent entry; ties go to the first seen. */
export function mostFrequent(values: readonly (string | null | undefined)[]): string | null {
  // Map iteration is insertion order, so the first value reaching the top count is the first seen.
  const counts = new Map<string, number>();
  for (const value of values) if (value != null) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [value, count] of counts) if (count > bestCount) { best = value; bestCount = count; }
  return best;
}

/** Faulted results grouped by fault (first-seen), most frequent fault first, ties in first-seen order. */
export function recommendations(results: readonly ReportResult[]): Recommendation[] {
  const groups = new Map<string, ReportResult[]>();
  for (const result of results) {
    if (!result.fault) continue;
    let group = groups.get(result.fault);
    if (!group) { group = []; groups.set(result.fault, group); }
    group.push(result);
  }
  const entries: Recommendation[] = [];
  for (const [fault, group] of groups) {
    const tools = new Map<string, { name: string; description: string }>();
    for (const result of group) {
      const tool = result.diagnosis?.judge?.suggested_tool;
      if (tool && !tools.has(tool.name)) tools.set(tool.name, { name: tool.name, description: tool.description ?? "" });
    }
    entries.push({
      fault,
      count: group.length,
      scenario_keys: distinct(group.map((r) => r.scenario.key)),
      models: distinct(group.map((r) => r.label)),
      recommendation: mostFrequent(group.map((r) => r.recommendation)),
      suggested_tools: [...tools.values()],
    });
  }
  // Array.prototype.sort is stable, so equal counts keep first-seen order.
  return entries.sort((a, b) => b.count - a.count);
}

export function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}
