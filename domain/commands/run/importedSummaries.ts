// An imported report's per-model figures must be the ones its results give. The run's
// report.json serves the document as imported (so re-importing an export is a duplicate), while
// GraphQL's model summaries, the Markdown and the page are computed from the results
// (reference-platform feature 30): a summary that said otherwise showed an analyst two sets of
// figures for one run. Refusing it at the door keeps one.
import { DomainError } from "../../events/domainError.js";
import { isObject } from "../../report/documentRules.js";
import type { Report } from "../../report/index.js";
import { stableJson } from "../evaluation/scenarioChanges.js";

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
      // Key order aside (faults are a tally), the same JSON.
      if (stableJson(value) === stableJson(figures[figure])) continue;
      const field = `report.${key}.${label}.${figure}`;
      throw DomainError.validation(
        `${field} is ${shown(value)}, but the report's results give ${shown(figures[figure])}: a model's summary must follow from its results (reference-core §13.1)`,
        field,
      );
    }
  }
}
