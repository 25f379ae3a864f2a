// Query.usage: the caller's tenant's plan meters (usage/planMeter.ts), as GET /api/usage answers them.
import { Arg, Ctx, Query, Resolver } from "type-graphql";
import type { ApiContext } from "../../server/context.js";
import { planMeter } from "../../usage/planMeter.js";
import { PlanMeter } from "../types/planMeter.js";

@Resolver()
export class UsageResolver {
  @Query(() => PlanMeter, {
    description: "What the caller's tenant used in `month` (YYYY-MM; default this calendar month, UTC) against its plan: executions (scenario x model pairs started) and imported reports, with the plan's limits (null: none).",
  })
  async usage(@Arg("month", () => String, { nullable: true, description: "A calendar month as YYYY-MM (another text is VALIDATION); omitted, this month (UTC)." }) month: string | null, @Ctx() context: ApiContext): Promise<PlanMeter> {
    return planMeter(context, month);
  }
}
