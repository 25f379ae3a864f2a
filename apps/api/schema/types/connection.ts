// Relay-style connection types: `<Name>Connection { edges { cursor node } pageInfo totalCount }`,
// one pair of types per node type, declared once here instead of by hand for each list.
// The answer's shape is the read models' Connection, which the resolvers return as it is.
import { Field, Int, ObjectType, type ClassType } from "type-graphql";
import type { Connection as ConnectionOf } from "@verdict/projector";
import { PageInfo } from "./pageInfo.js";

export type { ConnectionOf };

/** The connection type of `Node`, named after its GraphQL name (`Result` -> `ResultConnection`, `ResultEdge`). */
export function connectionOf<T extends object>(Node: ClassType<T>, name: string): ClassType<ConnectionOf<T>> {
  @ObjectType(`${name}Edge`, { simpleResolvers: true, description: `One ${name} of a page, with its cursor.` })
  class Edge {
    @Field(() => Node, { description: `The ${name}.` })
    node!: T;

    @Field(() => String, {
      description: "Opaque: its place in this list (for a Result, its `n`), to pass as `after` to read on after it; another list's cursor is VALIDATION.",
    })
    cursor!: string;
  }

  @ObjectType(`${name}Connection`, { simpleResolvers: true, description: `A page of ${name} nodes (Relay-style), paged forward with \`first\` / \`after\`.` })
  class Connection {
    @Field(() => [Edge], { description: "This page's nodes in the list's order, each with its cursor; [] for an empty page." })
    edges!: Edge[];

    @Field(() => PageInfo, { description: "Whether more follow this page, and the cursor to read them from." })
    pageInfo!: PageInfo;

    @Field(() => Int, { description: "How many there are in all (with the list's filters), not on this page." })
    totalCount!: number;
  }

  return Connection;
}
