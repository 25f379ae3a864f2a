// Query.usage's answer: the tenant's use this month against its plan (reference-platform #38).
import { Field, Int, ObjectType } from "type-graphql";

@ObjectType({ description: "One kind's use in the month against the plan's monthly limit." })
export class MeterFigures {
  @Field(() => Int, { description: "Used this month (UTC)." })
  used!: number;

  @Field(() => Int, { nullable: true, description: "The plan's limit for the month; null: no limit." })
  limit!: number | null;
}

@ObjectType({ description: "What the caller's tenant used in a calendar month (UTC) against its plan; never another tenant's figures." })
export class PlanMeter {
  @Field(() => String, { description: "YYYY-MM (UTC)." })
  month!: string;

  @Field(() => MeterFigures, { description: "Scenario x model pairs the tenant's started runs replay (engine and external), each counted when its run starts; a run refused by the plan counts nothing." })
  executions!: MeterFigures;

  @Field(() => MeterFigures, { description: "Reports imported (newly stored; a duplicate or a conflict counts nothing)." })
  reports!: MeterFigures;
}
