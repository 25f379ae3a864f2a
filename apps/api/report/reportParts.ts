// The report's public pieces for one model or one scenario, as report.md?part= and GraphQL's
// report { fixItemsMarkdown(model:) scenarioMarkdown(key:) } both answer them.
import type { Report } from "@verdict/domain";
import { ApiError, shownId } from "../server/errors.js";
import { checkModelFilter, checkRunModel } from "./runModel.js";
import type { RunHistory } from "./runEvents.js";

/** `## What to fix`, or one model's items (a label of the run's; blank is VALIDATION, unknown NOT_FOUND). */
export function fixItemsPart(report: Report, model: string | null | undefined, field = "model"): string {
  checkModelFilter(model, field);
  if (model == null) return report.fixItemsMarkdown();
  checkRunModel(model, report.models.map((m) => m.label), field);
  return report.fixItemsMarkdown({ model });
}

/**
 * One scenario's block. A scenario the run selected but has not scored (still running, or failed
 * first) is in the run: it says so rather than answering as a key the run never had (NOT_FOUND).
 */
export function scenarioPart(report: Report, history: RunHistory, key: string, field: string): string {
  if (report.resultsByScenario.has(key)) return report.scenarioMarkdown(key);
  if (report.unfinished && history.record?.started.scenarios.some((s) => s.key === key)) return report.unscoredScenarioMarkdown(key);
  throw new ApiError("NOT_FOUND", `scenario ${shownId(key)} is not in this run`, field);
}
