// The report of a run, rebuilt from its recorded events with the worker's own function (so the
// API and the completion job render the same bytes): recorded verdict and comparison used as
// given, no judge, no agent, no resampling.
import type { Report } from "@verdict/domain";
import { reportFromRun } from "@verdict/worker";
import { ApiError } from "../server/errors.js";
import type { RunHistory } from "./runEvents.js";

export function rebuildReport(history: RunHistory): Report {
  if (!history.record) {
    throw new ApiError("UNAVAILABLE", `run ${history.runId} is an imported report; its document is served as report.json only`);
  }
  return reportFromRun(history.record, { judge: null });
}

/**
 * The version-1 envelope `report.json` serves: re-importable as it is (reference-platform §6.2).
 * An imported run gives back the envelope's run_id (the host's), so its re-import by the same
 * tenant is the same run again (a duplicate), not a new one.
 */
export function reportEnvelope(history: RunHistory, evaluationName: string, agent: string, report?: Report): Record<string, unknown> {
  if (history.imported) {
    const i = history.imported;
    return { version: 1, run_id: i.host_run_id ?? i.run_id, source: i.source, agent_name: i.agent_name, suite: i.suite, report: i.report };
  }
  return { version: 1, run_id: history.runId, source: "verdict", agent_name: agent, suite: evaluationName, report: (report ?? rebuildReport(history)).toJSON() };
}
