// Per-request memoized reads of a run: its history from the log and the Report rebuilt from it.
import type { Report } from "@verdict/domain";
import { memo, type ApiContext } from "../../server/context.js";
import { rebuildReport } from "../../report/rebuildReport.js";
import { historyResultCount, loadRunHistory, type RunHistory } from "../../report/runEvents.js";

/** The run's events (cached once it has ended: a finished run's history never changes). */
export function runHistory(context: ApiContext, runId: string): Promise<RunHistory> {
  const tenant = context.principal.tenant;
  return memo(context, `history:${runId}`, async () =>
    (await context.runCache.whenTerminal(tenant, runId, "history", () => loadRunHistory(context.deps.store, tenant, runId), historyResultCount)) as RunHistory);
}

export async function runReport(context: ApiContext, runId: string): Promise<Report> {
  const history = await runHistory(context, runId);
  return context.runCache.read(context.principal.tenant, runId, history.status, "report", async () => rebuildReport(history), historyResultCount(history));
}
