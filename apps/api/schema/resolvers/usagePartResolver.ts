// The agent side of a run's usage: how many replays were priced and how (reference-platform
// #23's priced, unpriced, reported, estimated and cost_basis). Counted by domain/cost, as the
// report counts them, from the replayed results' cost and cost source; read only when a query
// asks for one of these fields (`usage { judge { calls } }` reads no result).
import { FieldResolver, Int, Resolver, Root } from "type-graphql";
import { modelCosts, runCosts, type CostResultLike } from "@verdict/domain";
import type { ReplayCost } from "@verdict/projector";
import { CostBasis } from "../types/enums.js";
import { UsagePart, type AgentCostCounts } from "../types/run.js";

/**
 * The report's counts over a run's replayed results: priced, unpriced and cost_basis as its
 * runCosts says them, reported and estimated as its per-model summaries (modelCosts) count them,
 * summed over the models. A stored cost source is the replay's metadata `cost_source` when it
 * gave one, else the one costSource infers, so the domain reads it back to the same source.
 */
export function agentCostCounts(rows: readonly ReplayCost[]): AgentCostCounts {
  const results: CostResultLike[] = rows.map((row) => ({
    scenario: { key: row.scenarioKey },
    label: row.modelLabel,
    replay: { cost: row.cost, metadata: row.costSource === null ? {} : { cost_source: row.costSource } },
  }));
  const run = runCosts(results, null);
  const counted = modelCosts(results);
  return {
    priced: run.priced,
    unpriced: run.unpriced,
    reported: counted.reported,
    estimated: counted.estimated,
    costBasis: run.cost_basis as CostBasis | null,
  };
}

async function countsOf(part: UsagePart): Promise<AgentCostCounts | null> {
  return part.agentCounts ? part.agentCounts() : null;
}

@Resolver(() => UsagePart)
export class UsagePartResolver {
  @FieldResolver(() => Int, { nullable: true, description: "Replays with a cost, $0 ones included (agent side only; null on the judge's)." })
  async priced(@Root() part: UsagePart): Promise<number | null> {
    return (await countsOf(part))?.priced ?? null;
  }

  @FieldResolver(() => Int, { nullable: true, description: "Replays recorded without a cost: with any, cost is a lower bound, as the reports' ~ says (agent side only)." })
  async unpriced(@Root() part: UsagePart): Promise<number | null> {
    return (await countsOf(part))?.unpriced ?? null;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: "Replays whose cost source is reported, as the report's summary_by_model counts them, summed over the models (agent side only). A $0 replay that used no tokens (no_usage) is priced but neither reported nor estimated.",
  })
  async reported(@Root() part: UsagePart): Promise<number | null> {
    return (await countsOf(part))?.reported ?? null;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: "Replays whose cost source is estimated (priced by the platform, e.g. from the price table), as the report's summary_by_model counts them, summed over the models (agent side only).",
  })
  async estimated(@Root() part: UsagePart): Promise<number | null> {
    return (await countsOf(part))?.estimated ?? null;
  }

  @FieldResolver(() => CostBasis, {
    nullable: true,
    description: "How the priced replays' cost was arrived at: REPORTED when none is an estimate (no_usage $0 included), ESTIMATED when all are, MIXED otherwise; null when nothing is priced (and on the judge side).",
  })
  async costBasis(@Root() part: UsagePart): Promise<CostBasis | null> {
    return (await countsOf(part))?.costBasis ?? null;
  }
}
