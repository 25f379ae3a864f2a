import { Field, ObjectType } from "type-graphql";

@ObjectType({ description: "Relay-style page information." })
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}
