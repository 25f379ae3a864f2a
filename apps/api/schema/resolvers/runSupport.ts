// Per-request memoized reads of a run: its history from the log and the Report rebuilt from it.
import type { Report } from "@verdict/domain";
import { memo, type ApiContext } from "../../server/context.js";
import { rebuildReport } from "../../report/rebuildReport.js";
import { loadRunHistory, type RunHistory } from "../../report/runEvents.js";

export function runHistory(context: ApiContext, runId: string): Promise<RunHistory> {
  return memo(context, `history:${runId}`, () => loadRunHistory(context.deps.store, context.principal.tenant, runId));
}

export function runReport(context: ApiContext, runId: string): Promise<Report> {
  return memo(context, `report:${runId}`, async () => rebuildReport(await runHistory(context, runId)));
}
