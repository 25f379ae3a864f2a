// The report of a run, rebuilt from its recorded events with the worker's own function (so the
// API and the completion job render the same bytes): recorded verdict and comparison used as
// given, no judge, no agent, no resampling.
import { Report, type ReportDocument } from "@verdict/domain";
import { reportFromRun } from "@verdict/worker";
import { ApiError } from "../server/errors.js";
import { importedDocument, withScoresInOrder } from "./importedDocument.js";
import type { RunHistory } from "./runEvents.js";

export function rebuildReport(history: RunHistory): Report {
  // A failed run's report says so, and that it covers only what was scored before it stopped; a
  // run still going says that, and how many of its results are scored so far (`in_progress`).
  // Neither names a best model or a comparison none was recorded for (Report.unfinished).
  if (history.record) {
    return reportFromRun(history.record, { judge: null, failure: history.failure?.message ?? null, inProgress: history.status === "running" });
  }
  return importedReport(history);
}

/**
 * An imported run has no events to rebuild from: its Markdown and HTML are rendered from the
 * report it was imported with, its recorded verdict and comparison as given, each result's
 * scores in the order they were scored (jsonb sorted them, and the criteria follow them).
 */
function importedReport(history: RunHistory): Report {
  try {
    const doc = withScoresInOrder(history.imported?.report ?? {}, history.criterionKeys);
    // As stored: a report imported under older rules keeps rendering what it recorded (a
    // threshold of 70 as "≥ 7000%"), byte for byte, where Report.fromJSON would refuse it.
    const report = Report.fromStoredJSON(doc as unknown as ReportDocument);
    // The Markdown (kept by the Report, and read by every page) is rendered here, where a failure
    // is this run's answer rather than a crash of whichever view asked first.
    report.toMarkdown();
    return report;
  } catch (error) {
    // The import checked the figures, not everything a page reads; a document that cannot be
    // rendered stays that way, so this is not UNAVAILABLE (a retry would get the same answer).
    const reason = error instanceof Error ? error.message : String(error);
    throw new ApiError("CONFLICT", `run ${history.runId} is an imported report that cannot be rendered (${reason}); its document is served as report.json`);
  }
}

/** null for an imported document that cannot be rendered (CONFLICT): its document is still served. */
export function unrenderable(error: unknown): null {
  if (error instanceof ApiError && error.apiCode === "CONFLICT") return null;
  throw error;
}

function renderedOrNull(history: RunHistory): Report | null {
  try {
    return rebuildReport(history);
  } catch (error) {
    return unrenderable(error);
  }
}

/**
 * The report's JSON document, one for every way it is read (report.json, GraphQL's
 * `report { json }`, the CLI): an imported run's is the document it was imported with, in the
 * report's own order (importedDocument); any other run's is its rebuilt report's.
 */
export function reportDocumentOf(history: RunHistory, report?: Report | null): Record<string, unknown> {
  if (history.imported) return importedDocument(history.imported.report, report === undefined ? renderedOrNull(history) : report);
  return (report ?? rebuildReport(history)).toJSON() as unknown as Record<string, unknown>;
}

/**
 * The version-1 envelope `report.json` serves: re-importable as it is (reference-platform §6.2).
 * An imported run gives back the envelope's run_id (the host's), so its re-import by the same
 * tenant is the same run again (a duplicate), not a new one.
 */
export function reportEnvelope(history: RunHistory, evaluationName: string, agent: string, report?: Report | null): Record<string, unknown> {
  const doc = reportDocumentOf(history, report);
  if (history.imported) {
    const i = history.imported;
    return { version: 1, run_id: i.host_run_id ?? i.run_id, source: i.source, agent_name: i.agent_name, suite: i.suite, report: doc };
  }
  return { version: 1, run_id: history.runId, source: "verdict", agent_name: agent, suite: evaluationName, report: doc };
}
