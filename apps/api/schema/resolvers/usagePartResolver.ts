// A run's usage beyond its sums: on the agent side how many replays were priced and how
// (reference-platform #23's replays, priced, unpriced, reported, estimated, cost_basis,
// per_interaction, model_time_ms), counted by domain/cost, as the report counts them, over the
// run's scored results; on the judge side its calls by kind, its model, where its usage comes
// from and the calls no result owns (#23's judge by_kind, model, source, run). The database
// counts them for every run of the request with one aggregate statement per side
// (ReadModels.runUsageFigures, runUsageLoader.ts), computing only the parts the fields asked
// need (`usage { judge { calls } }` reads nothing; `agent { priced }` no judge kind).
import { Float, FieldResolver, Int, Resolver, Root } from "type-graphql";
import type { RunUsagePart } from "@verdict/projector";
import { CostBasis, JudgeUsageSource } from "../types/enums.js";
import { JudgeKindUsage, JudgeRunUsage, UsagePart, type AgentUsageFigures } from "../types/run.js";
import { agentUsageFigures } from "./agentCostCounts.js";
import { judgeByKindOf, judgeModelOf, judgeRunOf, judgeSourceOf } from "./judgeUsageFigures.js";

async function agentOf(part: UsagePart): Promise<AgentUsageFigures | null> {
  return part.side === "agent" ? agentUsageFigures((await part.figures(["replays"])).replays) : null;
}

/** What a judge field reads: `parts` of the run's figures, turned into its answer by `read`; null on the agent side. */
async function judgeOf<T>(part: UsagePart, parts: readonly RunUsagePart[], read: (figures: Awaited<ReturnType<UsagePart["figures"]>>) => T): Promise<T | null> {
  return part.side === "judge" ? read(await part.figures(parts)) : null;
}

@Resolver(() => UsagePart)
export class UsagePartResolver {
  @FieldResolver(() => Int, { nullable: true, description: "Scored replays with a cost, $0 ones included, as the run's report counts them (a replay not yet scored is not counted; agent side only, null on the judge's)." })
  async priced(@Root() part: UsagePart): Promise<number | null> {
    return (await agentOf(part))?.priced ?? null;
  }

  @FieldResolver(() => Int, { nullable: true, description: "Scored replays without a cost: with any, cost is a lower bound, as the reports' ~ says (a replay not yet scored is not counted; agent side only)." })
  async unpriced(@Root() part: UsagePart): Promise<number | null> {
    return (await agentOf(part))?.unpriced ?? null;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: "Scored replays whose cost source is reported (given as reported, or a priced replay that gave none), as the report's summary_by_model counts them, summed over the models (agent side only). A $0 replay that used no tokens (no_usage), or one whose source is another word (e.g. metered), is priced but neither reported nor estimated.",
  })
  async reported(@Root() part: UsagePart): Promise<number | null> {
    return (await agentOf(part))?.reported ?? null;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: "Scored replays whose cost source is estimated (priced by the platform, e.g. from the price table), as the report's summary_by_model counts them, summed over the models (agent side only). Like the report's, it includes a replay that says estimated but carries no cost (also counted unpriced), so it can exceed priced; costBasis counts only priced ones.",
  })
  async estimated(@Root() part: UsagePart): Promise<number | null> {
    return (await agentOf(part))?.estimated ?? null;
  }

  @FieldResolver(() => CostBasis, {
    nullable: true,
    description: "How the scored priced replays' cost was arrived at: REPORTED when none is an estimate (any source but estimated: reported, no_usage $0, metered or another word), ESTIMATED when all are, MIXED otherwise; null when nothing is priced (and on the judge side).",
  })
  async costBasis(@Root() part: UsagePart): Promise<CostBasis | null> {
    return (await agentOf(part))?.costBasis ?? null;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: "Replays of the run scored so far, errored ones included: its report's results, priced + unpriced (a replay recorded but not yet scored is counted once scored; agent side only). An imported run's: its report's results.",
  })
  async replays(@Root() part: UsagePart): Promise<number | null> {
    return (await agentOf(part))?.replays ?? null;
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description: "Cost per priced replay (reference-platform #23's per_interaction): the scored priced replays' costs summed, divided by priced, to 6 decimals (as the report's cost_per_priced, over the whole run). Unpriced replays are left out of both, so it is not cost / replays. Null when none is priced (and on the judge side).",
  })
  async perInteraction(@Root() part: UsagePart): Promise<number | null> {
    return (await agentOf(part))?.perInteraction ?? null;
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description: "The agent's time in milliseconds (reference-platform #23's model_time_ms): the duration_ms each scored replay recorded (the worker's measure of the agent's call, or what a host or an imported report gave), summed. Replays of a run run side by side, so it can exceed runtimeMs. Null when no scored replay recorded a duration (and on the judge side).",
  })
  async modelTimeMs(@Root() part: UsagePart): Promise<number | null> {
    return (await agentOf(part))?.modelTimeMs ?? null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: "The judge's model as its usage names it (reference-platform #23's judge.model): the first one the results' judge calls name, in run order, else the run's own calls' (judge side only). Null when no call named one; Run.judgeLabel is the judge the run was scored with, as the run records it.",
  })
  async model(@Root() part: UsagePart): Promise<string | null> {
    return judgeOf(part, ["judgeModels", "judgeRun"], judgeModelOf);
  }

  @FieldResolver(() => [JudgeKindUsage], {
    nullable: true,
    description: "The judge's calls by kind, over every result's and the run's own, in the order score, recommend, verdict, define, then any other kind by name (judge side only; null on the agent side); at most 16 kinds, the rest summed into \"other\" (an import refuses a by_kind of more). An imported report tallies calls per kind without their tokens or cost, and calls it names no kind for are in calls but in no kind here.",
  })
  async byKind(@Root() part: UsagePart): Promise<JudgeKindUsage[] | null> {
    return judgeOf(part, ["judgeKinds", "judgeRun"], judgeByKindOf);
  }

  @FieldResolver(() => JudgeRunUsage, {
    nullable: true,
    description: "The judge calls no result owns (reference-platform #23's judge.run): a run here, its verdict's (a run comparing models, once it is recorded); an imported run, its report's run-level judge usage (run_judge_usage, else judge_usage.run). Null when there are none (a run of one model, a run without a judge, a run whose verdict is not recorded yet, an imported report with no run-level usage), and on the agent side.",
  })
  async run(@Root() part: UsagePart): Promise<JudgeRunUsage | null> {
    return judgeOf(part, ["judgeRun"], judgeRunOf);
  }

  @FieldResolver(() => JudgeUsageSource, {
    nullable: true,
    description:
      "Where the judge's usage comes from (judge side only), by the run's report's rule: a result's usage is its replay's own judge_usage when the replay carries one (an agent's or a host's record), else what this platform's judge metered for it. METER when all of it was metered (with the verdict's call), REPORTED when all was reported (an imported run's always), MIXED when both; null when the judge was never asked (no result or run-level judge usage: the report has no judge_usage) and on the agent side.",
  })
  async source(@Root() part: UsagePart): Promise<JudgeUsageSource | null> {
    return judgeOf(part, ["judgeSources", "judgeRun"], judgeSourceOf);
  }
}
