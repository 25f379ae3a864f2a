// clearKpis: an evaluation's judge-defined KPIs cleared (ClearKpis -> KpisCleared), so its next
// judge_defined run asks its judge to define them again.
import { Arg, Ctx, Field, ID, Mutation, ObjectType, Resolver } from "type-graphql";
import { evaluationAggregate, evaluationStream, handleCommand } from "@verdict/domain";
import type { ApiContext } from "../../server/context.js";
import { EvaluationNode } from "../types/evaluation.js";
import { afterCommand, commandOptions, ownEvaluation } from "./commandSupport.js";

@ObjectType({ description: "What clearKpis cleared." })
class ClearKpisPayload {
  @Field(() => ID, { description: "The evaluation whose KPIs were cleared." })
  evaluationId!: string;

  @Field(() => [String], { description: "The keys of the KPIs cleared; [] when it held none (nothing was recorded)." })
  cleared!: string[];

  @Field(() => EvaluationNode, { nullable: true, description: "The evaluation as the read models now hold it (no KPIs); null until they have it (no projector wait configured)." })
  evaluation!: EvaluationNode | null;
}

@Resolver()
export class KpiMutations {
  @Mutation(() => ClearKpisPayload, {
    description:
      "Clears the evaluation's judge-defined KPIs: `kpis` and `kpiProvenance` are empty, `criteria` no longer lists them, and its next judge_defined run asks its judge to define them again. Runs already started keep the KPIs they froze. An evaluation without KPIs changes nothing (`cleared: []`); an archived one stays archived.",
  })
  async clearKpis(@Arg("evaluationId", () => ID, { description: "The evaluation's id (one of another tenant's is NOT_FOUND)." }) evaluationId: string, @Ctx() context: ApiContext): Promise<ClearKpisPayload> {
    const options = commandOptions(context);
    await ownEvaluation(context, evaluationId);
    const command = { type: "ClearKpis", evaluation_id: evaluationId, tenant: context.principal.tenant, cleared_by: options.context.actor };
    const handled = await handleCommand(context.deps.store, evaluationAggregate, evaluationStream(evaluationId), command, options);
    await afterCommand(context, handled, `the KPIs of evaluation ${evaluationId} were cleared`);
    const cleared = handled.domainEvents[0]?.data as { kpi_keys?: string[] } | undefined;
    const evaluation = (await context.deps.readModels.getEvaluation(context.principal.tenant, evaluationId)) as EvaluationNode | null;
    return { evaluationId, cleared: cleared?.kpi_keys ?? [], evaluation };
  }
}
