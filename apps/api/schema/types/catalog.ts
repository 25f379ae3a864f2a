import { Field, Int, ObjectType } from "type-graphql";
import { GraphQLJSON } from "graphql-scalars";
import { connectionOf, type ConnectionOf } from "./connection.js";

@ObjectType("Catalog", { description: "A scenario catalog: products -> sets -> scenarios, from one canonical YAML document." })
export class CatalogNode {
  @Field(() => String, { description: "The catalog's key, unique in the tenant (the YAML's `catalog:`)." })
  key!: string;

  @Field(() => String, { description: "The catalog's name, from its YAML." })
  name!: string;

  @Field(() => String, { nullable: true, description: "The catalog's description, from its YAML; null when it gives none." })
  description!: string | null;

  @Field(() => String, { description: "Lowercase hex SHA-256 of the canonical YAML." })
  digest!: string;

  @Field(() => Int, { description: "How many scenarios its sets hold in all." })
  scenarioCount!: number;

  @Field(() => String, { description: "When the document it holds was imported (importCatalog; importing the same document again records nothing), as an ISO-8601 UTC timestamp with milliseconds (e.g. `2026-12-07T04:51:45.259Z`)." })
  importedAt!: string;

  @Field(() => GraphQLJSON, { description: "Where the document came from, as recorded: { kind, path, ref }, kind upload, repository, api or file (path and ref when given)." })
  source!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: "Products -> sets -> scenarios (catalog(key) only)." })
  products?: unknown;

  @Field(() => String, { nullable: true, description: "The canonical YAML (catalog(key) only)." })
  canonicalYaml?: string | null;
}

export const CatalogConnection = connectionOf(CatalogNode, "Catalog");
export type CatalogConnection = ConnectionOf<CatalogNode>;
