// Judge-defined KPIs on Evaluation and Run, read from the read models' columns (migration 015):
// the recorded snake_case JSON served in the schema's camelCase.
import { FieldResolver, Resolver, Root } from "type-graphql";
import { EvaluationNode } from "../types/evaluation.js";
import { KpiAuthoringNode, KpiNode, KpiProvenanceNode, type KpiAuthoringOutcome } from "../types/kpi.js";
import { RunNode } from "../types/run.js";

type Recorded = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const records = (value: unknown): Recorded[] => (Array.isArray(value) ? value.filter((v): v is Recorded => v !== null && typeof v === "object") : []);

/** KPIs apply while the judge is judge_defined; under another kind they stay recorded, unused, and come back with it. */
const judgeDefined = (evaluation: EvaluationNode): boolean => (evaluation.judge as Recorded | null | undefined)?.kind === "judge_defined";

@Resolver(() => EvaluationNode)
export class EvaluationKpiResolver {
  @FieldResolver(() => [KpiNode], { description: "The KPIs its judge defined (judge_defined; [] until its first run defines them, and while its judge is another kind). Its criteria list them too." })
  kpis(@Root() evaluation: EvaluationNode): KpiNode[] {
    if (!judgeDefined(evaluation)) return [];
    return records((evaluation as unknown as { kpis?: unknown }).kpis).map((kpi) => ({
      key: text(kpi.key),
      prompt: text((kpi.config as Recorded | undefined)?.prompt),
      definedBy: text(kpi.defined_by),
      definedAt: text(kpi.defined_at),
    }));
  }

  @FieldResolver(() => KpiProvenanceNode, { nullable: true, description: "config.kpi_provenance: which judge defined its KPIs, and when; null until they are defined, and while its judge is not judge_defined." })
  kpiProvenance(@Root() evaluation: EvaluationNode): KpiProvenanceNode | null {
    if (!judgeDefined(evaluation)) return null;
    const provenance = (evaluation as unknown as { kpiProvenance?: unknown }).kpiProvenance as Recorded | null | undefined;
    return provenance ? { judge: text(provenance.judge), definedAt: text(provenance.defined_at) } : null;
  }
}

@Resolver(() => RunNode)
export class RunKpiResolver {
  @FieldResolver(() => KpiAuthoringNode, {
    nullable: true,
    description: "How a judge_defined run that started without KPIs settled them: defined, reused, or why none could be authored (the run still completes, on its own criteria). Null for any other run.",
  })
  kpiAuthoring(@Root() run: RunNode): KpiAuthoringNode | null {
    const recorded = (run as unknown as { kpiAuthoring?: unknown }).kpiAuthoring as Recorded | null | undefined;
    if (!recorded) return null;
    return {
      outcome: text(recorded.outcome) as `${KpiAuthoringOutcome}`,
      kpiKeys: records(recorded.criteria).map((kpi) => text(kpi.key)),
      message: typeof recorded.message === "string" ? recorded.message : null,
      reason: typeof recorded.reason === "string" ? recorded.reason : null,
    };
  }
}
