// An imported run's report document, as report.json, GraphQL's `report { json }` and `verdict
// report --format json` all serve it: the document it was imported with (never recomputed, so
// re-importing the export is a duplicate), in the order the report writes its own document.
// Read back from the event store's jsonb, every object's keys come sorted by length: the top
// level, summary_by_model, criteria, each result and its scores. The Report rebuilt from the
// document writes those in its own order, which is the original's for a document this platform
// wrote; keys it does not write (a host's own) follow, in the order the store gave them.
import { BUILT_IN_SCORES, judgeUsageFromExchanges, scoresInScorerOrder, type Report } from "@verdict/domain";

type Doc = Record<string, unknown>;

const isObject = (value: unknown): value is Doc => typeof value === "object" && value !== null && !Array.isArray(value);

const BUILT_IN: ReadonlySet<string> = new Set(BUILT_IN_SCORES);

/**
 * The document with each result's scores in the Scorer's order (the criteria, then the built-in
 * checks): the report lists criteria in the order its results' scores first name them. Criteria
 * the evaluation does not name (a host's own) follow its criteria, in the order stored.
 */
export function withScoresInOrder(doc: Doc, criterionKeys: readonly string[]): Doc {
  if (!Array.isArray(doc.results)) return doc;
  const results = doc.results.map((result: unknown) => {
    if (!isObject(result) || !isObject(result.scores)) return result;
    return { ...result, scores: importedScoresInOrder(result.scores, criterionKeys) };
  });
  return { ...doc, results };
}

/**
 * One imported result's scores in the order its report gives them (withScoresInOrder): the
 * evaluation's criteria, criteria it does not name in the order stored, then the built-in checks.
 */
export function importedScoresInOrder(scores: Doc, criterionKeys: readonly string[]): Doc {
  const given = scores as Record<string, number | null>;
  return scoresInScorerOrder(given, [...criterionKeys, ...Object.keys(given).filter((key) => !BUILT_IN.has(key))]);
}

/** `value` with its objects' keys in `template`'s order, nested; keys the template lacks follow. */
function orderLike(value: unknown, template: unknown): unknown {
  if (Array.isArray(value)) return Array.isArray(template) ? value.map((item, i) => orderLike(item, template[i])) : value;
  if (!isObject(value) || !isObject(template)) return value;
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(template)) if (Object.hasOwn(value, key)) entries.push([key, orderLike(value[key], template[key])]);
  for (const key of Object.keys(value)) if (!Object.hasOwn(template, key)) entries.push([key, value[key]]);
  // fromEntries defines own properties: a "__proto__" key stays a key, as JSON.parse keeps it.
  return Object.fromEntries(entries);
}

// Values the Report writes as it was given them (so as jsonb gave them back), in the order their
// writers give them: the verdict (domain report/verdict.ts), a judge usage record
// (judgeUsageFromExchanges) and a tool call (replay/toolCall.ts).
const shape = (keys: readonly string[]): Doc => Object.fromEntries(keys.map((key) => [key, null]));
const VERDICT = shape(["winner", "rationale", "judge"]);
const USAGE = shape(Object.keys(judgeUsageFromExchanges([{ kind: "score", usage: null }]) ?? {}));
const TOOL_CALL = shape(["name", "arguments", "result", "error", "detail", "duration_ms"]);

/** The report's own document, with the shapes of what it passes through as given laid over it. */
function templateOf(report: Report): Doc {
  const template = report.toJSON() as unknown as Doc;
  // The reference library writes `models` where the report writes summary_by_model.
  template.models = template.summary_by_model;
  if (isObject(template.verdict)) template.verdict = VERDICT;
  if (isObject(template.run_judge_usage)) template.run_judge_usage = USAGE;
  for (const result of Array.isArray(template.results) ? template.results : []) {
    if (!isObject(result)) continue;
    if (isObject(result.judge_usage)) result.judge_usage = USAGE;
    if (isObject(result.metadata) && isObject(result.metadata.judge_usage)) result.metadata = { ...result.metadata, judge_usage: USAGE };
    if (Array.isArray(result.tool_calls)) result.tool_calls = result.tool_calls.map(() => TOOL_CALL);
  }
  return template;
}

/**
 * The stored document in `report`'s order (the Report rebuilt from it); as stored when it could
 * not be rebuilt (its pages answer CONFLICT, its document is still served).
 */
export function importedDocument(stored: Doc, report: Report | null): Doc {
  if (!report) return stored;
  const ordered = orderLike(stored, templateOf(report)) as Doc;
  // Results last, as the report writes them, after any key of the host's own.
  if (!Object.hasOwn(ordered, "results")) return ordered;
  const { results, ...rest } = ordered;
  return { ...rest, results };
}
