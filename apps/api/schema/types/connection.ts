// Relay-style connection types: `<Name>Connection { edges { cursor node } pageInfo totalCount }`,
// one pair of types per node type, declared once here instead of by hand for each list.
// The answer's shape is the read models' Connection, which the resolvers return as it is.
import { Field, Int, ObjectType, type ClassType } from "type-graphql";
import type { Connection as ConnectionOf } from "@verdict/projector";
import { PageInfo } from "./pageInfo.js";

export type { ConnectionOf };

/** The connection type of `Node`, named after its GraphQL name (`Result` -> `ResultConnection`, `ResultEdge`). */
export function connectionOf<T extends object>(Node: ClassType<T>, name: string): ClassType<ConnectionOf<T>> {
  @ObjectType(`${name}Edge`, { simpleResolvers: true })
  class Edge {
    @Field(() => Node)
    node!: T;

    @Field(() => String)
    cursor!: string;
  }

  @ObjectType(`${name}Connection`, { simpleResolvers: true })
  class Connection {
    @Field(() => [Edge])
    edges!: Edge[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    @Field(() => Int, { description: "How many there are in all (with the list's filters), not on this page." })
    totalCount!: number;
  }

  return Connection;
}
