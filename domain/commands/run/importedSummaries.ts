// An imported report's per-model figures must be the ones its results give. The run's
// report.json serves the document as imported (so re-importing an export is a duplicate), while
// GraphQL's model summaries, the Markdown and the page are computed from the results
// (reference-platform feature 30): a summary that said otherwise showed an analyst two sets of
// figures for one run. Refusing it at the door keeps one.
import { DomainError } from "../../events/domainError.js";
import { isObject } from "../../report/documentRules.js";
import type { Report } from "../../report/index.js";
import { stableJson } from "../evaluation/scenarioChanges.js";

/**
 * The decimals reference-core §13.1 rounds each figure to: another build or the Ruby library may
 * land a tie or a float sum one unit apart in the last of them, which is the same figure. Counts,
 * tokens and the tally of faults are compared exactly, as is anything not listed.
 */
const ROUNDED_TO: Readonly<Record<string, number>> = {
  pass_rate: 1,
  avg_score: 3,
  avg_task_completion: 3,
  avg_duration_ms: 0,
  p50_duration_ms: 0,
  p95_duration_ms: 0,
  cost: 6,
  judge_cost: 6,
  cost_per_1000: 4,
};

/** The same figure: equal JSON (key order aside: faults are a tally), or numbers one unit of their last decimal apart. */
function sameFigure(figure: string, given: unknown, computed: unknown): boolean {
  if (stableJson(given) === stableJson(computed)) return true;
  const decimals = ROUNDED_TO[figure];
  if (decimals === undefined || typeof given !== "number" || typeof computed !== "number") return false;
  // The unit's own float error aside (0.1 + 1e-9): 80.1 against 80.0 is one unit, 80.2 is two.
  return Math.abs(given - computed) <= 10 ** -decimals * (1 + 1e-9);
}

/** `0.433334`, `null`, `{"run_error":1}`: a figure as the refusal names it. */
const shown = (value: unknown): string => (value === undefined ? "nothing" : JSON.stringify(value));

/**
 * Each figure a model's summary gives (`summary_by_model`, else the reference library's
 * `models`) equals what `rendered` computes from the report's results by this build's rules:
 * VALIDATION naming the field and both values otherwise. A figure the summary leaves out is not
 * asked for (the reference's `models` may give only provider and model), and a key of the
 * host's own that the report does not compute is kept as given.
 */
export function checkSummariesFollowResults(report: Record<string, unknown>, rendered: Report): void {
  const key = isObject(report.summary_by_model) ? "summary_by_model" : "models";
  const given = report[key];
  if (!isObject(given)) return;
  const computed = rendered.summaryByModel;
  for (const [label, entry] of Object.entries(given)) {
    const figures = computed[label] as unknown as Record<string, unknown> | undefined;
    if (!isObject(entry) || !figures) continue;
    for (const [figure, value] of Object.entries(entry)) {
      if (!Object.hasOwn(figures, figure)) continue;
      if (sameFigure(figure, value, figures[figure])) continue;
      const field = `report.${key}.${label}.${figure}`;
      throw DomainError.validation(
        `${field} is ${shown(value)}, but the report's results give ${shown(figures[figure])}: a model's summary must follow from its results (reference-core §13.1)`,
        field,
      );
    }
  }
}
