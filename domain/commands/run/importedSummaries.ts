// An imported report's per-model figures must be the ones its results give. The run's
// report.json serves the document as imported (so re-importing an export is a duplicate), while
// GraphQL's model summaries, the Markdown and the page are computed from the results
// (reference-platform feature 30): a summary that said otherwise showed an analyst two sets of
// figures for one run. Refusing it at the door keeps one. The report's top-level `judge_usage` is
// held to the same rule: report.json billed a judge spend of $99 that every page and GraphQL,
// summing the results' judge usage, gave as $0.0030.
import { resultJudgeUsage } from "../../cost/index.js";
import { DomainError } from "../../events/domainError.js";
import { isObject } from "../../report/documentRules.js";
import { roundHalfAwayFromZero } from "../../support/index.js";
import type { Report } from "../../report/index.js";
import { stableJson } from "../evaluation/scenarioChanges.js";

/**
 * The decimals each figure is written with, by this build (domain/report summary, domain/cost)
 * and by the Ruby reference (reference-core §13.1, §13.2): another build or the Ruby library may
 * land a tie or a float sum one unit apart in the last of them, which is the same figure.
 * `cost_per_1000` is written to 6 decimals here (the reference does not write it); the p50 and
 * p95 are a replay's own duration, never rounded (nor written by the reference), so they are
 * compared exactly. Counts, tokens, the tally of faults and judge calls by kind are compared
 * exactly, as is anything not listed.
 */
const ROUNDED_TO: Readonly<Record<string, number>> = {
  pass_rate: 1,
  avg_score: 3,
  avg_task_completion: 3,
  avg_duration_ms: 0,
  cost: 6,
  judge_cost: 6,
  cost_per_1000: 6,
};

/** The same figure: equal JSON (key order aside: faults are a tally), or numbers one unit of their last decimal apart. */
function sameFigure(figure: string, given: unknown, computed: unknown): boolean {
  if (stableJson(given) === stableJson(computed)) return true;
  const decimals = ROUNDED_TO[figure];
  if (decimals === undefined || typeof given !== "number" || typeof computed !== "number") return false;
  // The unit's own float error aside (0.1 + 1e-9): 80.1 against 80.0 is one unit, 80.2 is two.
  return Math.abs(given - computed) <= 10 ** -decimals * (1 + 1e-9);
}

/**
 * Cost / 1,000 as builds before 6 December 2026 wrote it: from the model's cost total already
 * rounded to 6 decimals, so ten replays of $0.00000149 gave 0.0015 where the unrounded mean
 * gives 0.00149. Their exports are the same figure by their rule, and still import.
 */
function costPer1000BeforeDec6(figures: Record<string, unknown>): number | null {
  const { cost, priced } = figures;
  if (typeof cost !== "number" || typeof priced !== "number" || priced <= 0) return null;
  return roundHalfAwayFromZero((cost / priced) * 1000, 6);
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
      if (figure === "cost_per_1000" && sameFigure(figure, value, costPer1000BeforeDec6(figures))) continue;
      const field = `report.${key}.${label}.${figure}`;
      throw DomainError.validation(
        `${field} is ${shown(value)}, but the report's results give ${shown(figures[figure])}: a model's summary must follow from its results (reference-core §13.1)`,
        field,
      );
    }
  }
}

/** The figures of a judge usage held to what the report's results give; `model` and `estimated` are not (see below). */
const JUDGE_FIGURES = ["calls", "input_tokens", "output_tokens", "cost", "by_kind"] as const;
/** What `judge_usage.run` keeps of the run-level part (reference-core §13.2). */
const RUN_FIGURES = ["calls", "cost", "by_kind"] as const;

/**
 * The report's `judge_usage` (reference-core §13.2: every result's judge usage summed with the
 * run-level part, and that part alone as `run`) equals what `rendered` sums from the same
 * results and run-level part: VALIDATION naming the field and both values otherwise, with
 * summary_by_model's tolerance (a cost one unit of its 6th decimal apart is the same). The
 * run-level part is `run_judge_usage` (this build's whole record) when the report carries one,
 * else `judge_usage.run` itself, which gives calls, cost and kinds but no tokens: then the
 * tokens are only held to be at least the results' own. A figure left out is not asked for.
 * Not checked: a report without `judge_usage`; one whose results carry no judge usage and that
 * records no `run_judge_usage` (nothing but the figure itself to derive it from: a host's report
 * with its results' metadata stripped imports as before); `model` and `estimated`, which with a
 * `judge_usage.run` alone depend on the run-level part's model and source, which it drops.
 */
export function checkJudgeUsageFollowsResults(report: Record<string, unknown>, rendered: Report): void {
  const given = report.judge_usage;
  if (!isObject(given)) return;
  const recorded = report.run_judge_usage;
  const resultsCarry = rendered.results.some((result) => resultJudgeUsage(result) !== null);
  if (!resultsCarry && !(isObject(recorded) && Object.keys(recorded).length > 0)) return;
  // As Report.fromJSON reads the run-level part: run_judge_usage whenever it is given, else judge_usage.run.
  const runTokensKnown = (recorded !== undefined && recorded !== null) || !isObject(given.run);
  const computed = (rendered.judgeUsage ?? {}) as unknown as Record<string, unknown>;
  for (const figure of JUDGE_FIGURES) {
    if (!Object.hasOwn(given, figure)) continue;
    const value = given[figure];
    const field = `report.judge_usage.${figure}`;
    if (figure === "input_tokens" || figure === "output_tokens") {
      if (!runTokensKnown) {
        // The run-level part's tokens are not in the report: the results' are a floor.
        const floor = (computed[figure] as number | undefined) ?? 0;
        if (typeof value === "number" && value >= floor) continue;
        throw DomainError.validation(
          `${field} is ${shown(value)}, but the report's results alone give ${floor}: the run's judge usage sums its results' with the run-level part (reference-core §13.2)`,
          field,
        );
      }
    }
    if (sameFigure(figure, value, computed[figure])) continue;
    throw DomainError.validation(
      `${field} is ${shown(value)}, but the report's results and run-level judge usage give ${shown(computed[figure])}: the run's judge usage must follow from them (reference-core §13.2)`,
      field,
    );
  }
  checkRunPart(given.run, computed.run as Record<string, unknown> | undefined, recorded !== undefined && recorded !== null);
}

/** `judge_usage.run` against the run-level part the report records (`run_judge_usage`), when it records one. */
function checkRunPart(given: unknown, computed: Record<string, unknown> | undefined, fromRecord: boolean): void {
  if (given === undefined || given === null) return;
  const source = fromRecord ? "report.run_judge_usage" : "report.judge_usage.run";
  if (!isObject(given)) {
    throw DomainError.validation("report.judge_usage.run must be an object (the run-level part: calls, cost, by_kind) or null", "report.judge_usage.run");
  }
  if (!computed) {
    throw DomainError.validation(
      `report.judge_usage.run is ${shown(given)}, but the report's run_judge_usage records no run-level judge usage: it must be the run-level part (reference-core §13.2)`,
      "report.judge_usage.run",
    );
  }
  for (const figure of RUN_FIGURES) {
    if (!Object.hasOwn(given, figure)) continue;
    if (sameFigure(figure, given[figure], computed[figure])) continue;
    const field = `report.judge_usage.run.${figure}`;
    throw DomainError.validation(
      `${field} is ${shown(given[figure])}, but ${source} gives ${shown(computed[figure])}: it must be the run-level part (reference-core §13.2)`,
      field,
    );
  }
}
