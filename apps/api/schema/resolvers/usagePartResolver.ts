// The agent side of a run's usage: how many replays were priced and how (reference-platform
// #23's priced, unpriced, reported, estimated and cost_basis). Counted by domain/cost, as the
// report counts them, over the run's scored results; the database counts them per group
// (ReadModels.replayCostGroups), read only when a query asks for one of these fields
// (`usage { judge { calls } }` reads nothing), for every run of the request at once
// (agentCostCounts.ts, replayCostLoader.ts).
import { FieldResolver, Int, Resolver, Root } from "type-graphql";
import { CostBasis } from "../types/enums.js";
import { UsagePart, type AgentCostCounts } from "../types/run.js";

async function countsOf(part: UsagePart): Promise<AgentCostCounts | null> {
  return part.agentCounts ? part.agentCounts() : null;
}

@Resolver(() => UsagePart)
export class UsagePartResolver {
  @FieldResolver(() => Int, { nullable: true, description: "Scored replays with a cost, $0 ones included, as the run's report counts them (a replay not yet scored is not counted; agent side only, null on the judge's)." })
  async priced(@Root() part: UsagePart): Promise<number | null> {
    return (await countsOf(part))?.priced ?? null;
  }

  @FieldResolver(() => Int, { nullable: true, description: "Scored replays without a cost: with any, cost is a lower bound, as the reports' ~ says (a replay not yet scored is not counted; agent side only)." })
  async unpriced(@Root() part: UsagePart): Promise<number | null> {
    return (await countsOf(part))?.unpriced ?? null;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: "Scored replays whose cost source is reported (given as reported, or a priced replay that gave none), as the report's summary_by_model counts them, summed over the models (agent side only). A $0 replay that used no tokens (no_usage), or one whose source is another word (e.g. metered), is priced but neither reported nor estimated.",
  })
  async reported(@Root() part: UsagePart): Promise<number | null> {
    return (await countsOf(part))?.reported ?? null;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: "Scored replays whose cost source is estimated (priced by the platform, e.g. from the price table), as the report's summary_by_model counts them, summed over the models (agent side only). Like the report's, it includes a replay that says estimated but carries no cost (also counted unpriced), so it can exceed priced; costBasis counts only priced ones.",
  })
  async estimated(@Root() part: UsagePart): Promise<number | null> {
    return (await countsOf(part))?.estimated ?? null;
  }

  @FieldResolver(() => CostBasis, {
    nullable: true,
    description: "How the scored priced replays' cost was arrived at: REPORTED when none is an estimate (any source but estimated: reported, no_usage $0, metered or another word), ESTIMATED when all are, MIXED otherwise; null when nothing is priced (and on the judge side).",
  })
  async costBasis(@Root() part: UsagePart): Promise<CostBasis | null> {
    return (await countsOf(part))?.costBasis ?? null;
  }
}
