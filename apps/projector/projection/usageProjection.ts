// usage_meters: a tenant's month's use by kind, summed from UsageMetered (migration 014). The
// batch and its checkpoint commit together, so an event is never added twice. The tenant is the
// event's own (the one its stream usage-<tenant>.<YYYY-MM> names, the evaluation's), not the
// envelope's: the caller who started the run may have acted as another tenant.
import type { EventOf } from "@verdict/domain";
import type { Sql } from "../db/sql.js";

export async function usageMetered(sql: Sql, event: EventOf<"UsageMetered">): Promise<void> {
  const { tenant, month, kind, quantity } = event.data;
  await sql.execute(
    `INSERT INTO usage_meters (tenant, month, kind, used) VALUES (?, ?, ?, ?)
     ON CONFLICT (tenant, month, kind) DO UPDATE SET used = usage_meters.used + excluded.used`,
    [tenant, month, kind, quantity],
  );
}
