// A run's agent cost counts from the database's groups of its scored results: the one place the
// API turns those groups into the report's counts, with domain/cost's own rules.
import { costCounts, roundHalfAwayFromZero } from "@verdict/domain";
import type { ReplayCostGroup } from "@verdict/projector";
import type { CostBasis } from "../types/enums.js";
import type { AgentCostCounts, AgentUsageFigures } from "../types/run.js";

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

/**
 * The agent side's figures over a run's scored results, from the database's groups of them: the
 * counts above, the replays scored (priced + unpriced), the cost per priced replay (the priced
 * replays' costs summed, unrounded, over how many were priced, then to 6 decimals, as the report's
 * cost_per_priced; null when none was priced) and the durations they recorded summed (null when
 * none recorded one).
 */
export function agentUsageFigures(groups: readonly ReplayCostGroup[]): AgentUsageFigures {
  const counts = agentCostCounts(groups);
  let costSum = 0;
  let durationSum = 0;
  let timed = 0;
  for (const group of groups) {
    if (group.priced && group.cost !== null) costSum += group.cost;
    if (group.timed > 0 && group.durationMs !== null) {
      durationSum += group.durationMs;
      timed += group.timed;
    }
  }
  return {
    ...counts,
    replays: counts.priced + counts.unpriced,
    perInteraction: counts.priced > 0 ? roundHalfAwayFromZero(costSum / counts.priced, 6) : null,
    modelTimeMs: timed > 0 ? durationSum : null,
  };
}
