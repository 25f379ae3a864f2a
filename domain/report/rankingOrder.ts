// A verdict's ranking inputs (each model's summary, as VerdictRecorded keeps them) in the order
// the ranking reads them: best first. Read back from jsonb, its models and each summary's keys
// came sorted by length, neither the run's model order nor the ranking's.
import { keyedRecord } from "../support/index.js";
import { isObject } from "./documentRules.js";
import { summaryInReportOrder } from "./summary.js";
import { rankModels } from "./verdict.js";
import type { ModelSummary } from "./reportTypes.js";

/**
 * `ranking`'s models in rank order (pass rate, then mean score, then cost per priced scenario;
 * a tie in `modelOrder`, the run's), each summary's keys in the order the report writes them.
 * Anything that is not a summary map is given back as it is.
 */
export function rankingInReportOrder(ranking: unknown, modelOrder: readonly string[]): unknown {
  if (!isObject(ranking) || !Object.values(ranking).every(isObject)) return ranking;
  const position = (label: string) => (modelOrder.includes(label) ? modelOrder.indexOf(label) : modelOrder.length);
  const inModelOrder = keyedRecord<ModelSummary>();
  for (const label of Object.keys(ranking).sort((a, b) => position(a) - position(b))) inModelOrder[label] = ranking[label] as unknown as ModelSummary;
  const out = keyedRecord<unknown>();
  for (const label of rankModels(inModelOrder)) out[label] = summaryInReportOrder(inModelOrder[label], []);
  return out;
}
