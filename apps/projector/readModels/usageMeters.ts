// A tenant's meters for one month (usage_meters): what Query.usage and GET /api/usage answer.
import type { Sql } from "../db/sql.js";
import type { UsageMeters } from "./types.js";

/** The tenant's use in `month` (YYYY-MM), 0 for a kind it did not use; never another tenant's. */
export async function usageMeters(sql: Sql, tenant: string, month: string): Promise<UsageMeters> {
  const rows = await sql.execute<{ kind: string; used: string | number }>("SELECT kind, used FROM usage_meters WHERE tenant = ? AND month = ?", [tenant, month]);
  const used = (kind: string) => Number(rows.find((r) => r.kind === kind)?.used ?? 0);
  return { month, executions: used("execution"), reports: used("evaluation_report") };
}
