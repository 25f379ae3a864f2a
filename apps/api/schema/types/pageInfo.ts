import { Field, ObjectType } from "type-graphql";

@ObjectType({ description: "Relay-style page information: whether the list goes on past this page, and the cursor to read on from." })
export class PageInfo {
  @Field(() => Boolean, { description: "True when the list holds more after this page; read them with `after: endCursor` (the same list, the same filters)." })
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true, description: "The cursor of this page's last edge (opaque); null when the page is empty." })
  endCursor!: string | null;
}
