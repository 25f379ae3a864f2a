// Judge-defined KPIs (reference-platform §1 #19) as GraphQL shows them: an evaluation's KPIs and
// their provenance (config.kpi_provenance), and how a run settled them (KpiAuthoringRecorded).
import { Field, ObjectType, registerEnumType } from "type-graphql";

export enum KpiAuthoringOutcome {
  DEFINED = "defined",
  REUSED = "reused",
  FAILED = "failed",
}
registerEnumType(KpiAuthoringOutcome, {
  name: "KpiAuthoringOutcome",
  description:
    "DEFINED: this run's judge defined the evaluation's KPIs; REUSED: another run of the evaluation had defined them meanwhile; FAILED: none could be authored (the run was scored on the evaluation's own criteria, and the next run tries again).",
  valuesConfig: {
    DEFINED: { description: "This run's judge defined the evaluation's KPIs, and the run was scored on them beside its criteria." },
    REUSED: { description: "Another run of the evaluation had defined them meanwhile: this run was scored on those." },
    FAILED: { description: "None could be authored (see message and reason): the run was scored on the evaluation's own criteria, and the next run tries again." },
  },
});

@ObjectType("Kpi", { simpleResolvers: true, description: "A KPI the evaluation's judge defined: an llm_judge criterion (also listed in the evaluation's criteria)." })
export class KpiNode {
  @Field(() => String, { description: "The KPI's key: its criterion's key in the evaluation's criteria and in results' scores." })
  key!: string;

  @Field(() => String, { description: "What the judge reads when it scores an answer on it: the KPI's name, description and rubric." })
  prompt!: string;

  @Field(() => String, { description: "The judge that defined it (its label)." })
  definedBy!: string;

  @Field(() => String, { description: "When it was defined, as an ISO-8601 UTC timestamp with milliseconds (e.g. `2026-12-07T04:51:45.259Z`)." })
  definedAt!: string;
}

@ObjectType("KpiProvenance", { simpleResolvers: true, description: "config.kpi_provenance: which judge defined the evaluation's KPIs, and when." })
export class KpiProvenanceNode {
  @Field(() => String, { description: "The label of the judge that defined the KPIs." })
  judge!: string;

  @Field(() => String, { description: "When they were defined, as an ISO-8601 UTC timestamp with milliseconds (e.g. `2026-12-07T04:51:45.259Z`)." })
  definedAt!: string;
}

@ObjectType("KpiAuthoring", { simpleResolvers: true, description: "How a judge_defined run that started without KPIs settled them, before any pair was scored." })
export class KpiAuthoringNode {
  @Field(() => KpiAuthoringOutcome, { description: "DEFINED, REUSED or FAILED (see KpiAuthoringOutcome)." })
  outcome!: `${KpiAuthoringOutcome}`;

  @Field(() => [String], { description: "The KPIs' keys the run was scored on beside its own criteria ([] when FAILED)." })
  kpiKeys!: string[];

  @Field(() => String, {
    nullable: true,
    description:
      "Why no KPIs were authored (FAILED), in the reference's words: \"Judge-defined KPIs need provider credentials (add a provider API key in Settings)\" or \"Judge returned no usable KPIs — try again or add criteria manually\". Null otherwise.",
  })
  message!: string | null;

  @Field(() => String, { nullable: true, description: "What the judge's answer lacked, when it was asked and answered unusably (the define call in runAudit holds its raw answer)." })
  reason!: string | null;
}
