// What a tenant used this month against its plan (reference-platform #38): Query.usage and
// GET /api/usage answer the same, from the read models (usage_meters) and the API's plan.
import { limitOf, usageMonth, type Plan } from "@verdict/domain";
import type { ApiContext } from "../server/context.js";
import { ApiError } from "../server/errors.js";

interface MeterFigures {
  used: number;
  /** The plan's monthly limit; null: no limit. */
  limit: number | null;
}

export interface PlanMeterAnswer {
  month: string;
  executions: MeterFigures;
  reports: MeterFigures;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The caller's tenant's meters for `month` (YYYY-MM; none: this calendar month, UTC), never another tenant's. */
export async function planMeter(context: ApiContext, month: string | null | undefined): Promise<PlanMeterAnswer> {
  if (month !== null && month !== undefined && !MONTH.test(month)) {
    throw new ApiError("VALIDATION", `month must be a calendar month as YYYY-MM (got ${JSON.stringify(month.slice(0, 20))})`, "month");
  }
  const asked = month ?? usageMonth(context.deps.clock.now());
  const plan: Plan = context.deps.plan ?? {};
  const used = await context.deps.readModels.usageMeters(context.principal.tenant, asked);
  return {
    month: asked,
    executions: { used: used.executions, limit: limitOf(plan, "execution") },
    reports: { used: used.reports, limit: limitOf(plan, "evaluation_report") },
  };
}
