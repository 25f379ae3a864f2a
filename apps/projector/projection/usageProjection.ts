// usage_meters: a tenant's month's use by kind, summed from UsageMetered (migration 014). The
// batch and its checkpoint commit together, so an event is never added twice.
import type { EventOf } from "@verdict/domain";
import type { Sql } from "../db/sql.js";
import type { Envelope } from "./batch.js";

export async function usageMetered(sql: Sql, event: EventOf<"UsageMetered">, envelope: Envelope): Promise<void> {
  const { month, kind, quantity } = event.data;
  await sql.execute(
    `INSERT INTO usage_meters (tenant, month, kind, used) VALUES (?, ?, ?, ?)
     ON CONFLICT (tenant, month, kind) DO UPDATE SET used = usage_meters.used + excluded.used`,
    [envelope.tenant, month, kind, quantity],
  );
}
