import { Field, Int, ObjectType } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { connectionOf, type ConnectionOf } from "./connection.js";

@ObjectType("Catalog", { description: "A scenario catalog: products -> sets -> scenarios, from one canonical YAML document." })
export class CatalogNode {
  @Field(() => String)
  key!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => String, { description: "Lowercase hex SHA-256 of the canonical YAML." })
  digest!: string;

  @Field(() => Int)
  scenarioCount!: number;

  @Field(() => String)
  importedAt!: string;

  @Field(() => GraphQLJSON)
  source!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "Products -> sets -> scenarios (catalog(key) only)." })
  products?: unknown;

  @Field(() => String, { nullable: true, description: "The canonical YAML (catalog(key) only)." })
  canonicalYaml?: string | null;
}

export const CatalogConnection = connectionOf(CatalogNode, "Catalog");
export type CatalogConnection = ConnectionOf<CatalogNode>;
