// A run's agent cost counts from the database's groups of its scored results: the one place the
// API turns those groups into the report's counts, with domain/cost's own rules.
import { costCounts } from "@verdict/domain";
import type { ReplayCostGroup } from "@verdict/projector";
import type { CostBasis } from "../types/enums.js";
import type { AgentCostCounts } from "../types/run.js";

/**
 * The report's counts over a run's scored results, from the database's groups of them: priced,
 * unpriced and cost_basis as its runCosts says them, reported and estimated as its per-model
 * summaries (modelCosts) count them, summed over the models (domain/cost costCounts). A stored
 * cost source is the replay's metadata `cost_source` when it gave one (blank included: the domain
 * reads a blank one as none, as the report does), else the one the projector inferred, so the
 * domain reads it back to the same source.
 */
export function agentCostCounts(groups: readonly Pick<ReplayCostGroup, "priced" | "costSource" | "count">[]): AgentCostCounts {
  const counts = costCounts(
    groups.map((group) => ({
      // The cost's value counts for nothing here, only whether there is one.
      result: { scenario: { key: "" }, label: "", replay: { cost: group.priced ? 0 : null, metadata: group.costSource === null ? {} : { cost_source: group.costSource } } },
      count: group.count,
    })),
  );
  return { priced: counts.priced, unpriced: counts.unpriced, reported: counts.reported, estimated: counts.estimated, costBasis: counts.cost_basis as CostBasis | null };
}
