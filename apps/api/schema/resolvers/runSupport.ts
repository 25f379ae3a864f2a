// Per-request memoized reads of a run: its history from the log and the Report rebuilt from it.
import type { Report } from "@verdict/domain";
import { memo, type ApiContext } from "../../server/context.js";
import { rebuildReport } from "../../report/rebuildReport.js";
import { loadRunHistory, type RunHistory } from "../../report/runEvents.js";

/**
 * The run's events (cached once it has ended: a finished run's history never changes). A run
 * that is not the caller's is NOT_FOUND naming `field`, the argument or path parameter it came in.
 */
export function runHistory(context: ApiContext, runId: string, field = "id"): Promise<RunHistory> {
  const tenant = context.principal.tenant;
  return memo(context, `history:${runId}`, async () =>
    (await context.runCache.whenTerminal(tenant, runId, "history", () => loadRunHistory(context.deps.store, tenant, runId, { tenants: context.deps.readModels, field }))) as RunHistory);
}

/** The run's report, rebuilt once a request (a running run's fields and pages read the same one). */
export function runReport(context: ApiContext, runId: string): Promise<Report> {
  return memo(context, `report:${runId}`, async () => {
    const history = await runHistory(context, runId);
    return context.runCache.read(context.principal.tenant, runId, history.status, "report", async () => rebuildReport(history));
  });
}

/**
 * The run's HTML page in one theme, rendered once a theme once the run has ended (REST and
 * GraphQL alike): a finished run's page never changes, and a 3,000-result run's (~2.4 MB) took
 * ~50 ms of CPU and some 30 MB of garbage to render at every view.
 */
export async function runReportHtml(context: ApiContext, runId: string, theme: "light" | "dark" | null): Promise<string> {
  const history = await runHistory(context, runId);
  const render = async () => (await runReport(context, runId)).toHtml({ theme });
  return context.runCache.read(context.principal.tenant, runId, history.status, `html:${theme ?? "system"}`, render);
}
