// Every type, field, argument and enum value of the built schema carries a description, so
// introspection (a dashboard's, a client generator's) says what each one means, in what unit,
// with what default and limit, and when it is null. One added without one fails here, wherever
// it is declared (apps/api/schema/types or a resolver's decorators).
//
// Exempt, and why:
// - the introspection types (__Schema, __Type...) and the built-in scalars (String, Int...):
//   graphql-js defines and describes them, not this schema;
// - the root types Query, Mutation and Subscription themselves (their fields are checked):
//   type-graphql (2.0.0-rc.4, SchemaGenerator.buildRootQueryType and its Mutation/Subscription
//   twins) builds them with a name and fields only: no buildSchema option or decorator takes a
//   description for them.
import "reflect-metadata";
import { describe, expect, it } from "vitest";
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  type GraphQLSchema,
} from "graphql";
import { buildApiSchema } from "./schema/buildApiSchema.js";

/** The root types type-graphql cannot describe (see above). */
function rootTypeNames(schema: GraphQLSchema): Set<string> {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  return new Set(roots.flatMap((t) => (t ? [t.name] : [])));
}

/** Every type, field, argument and enum value of the schema without a description. */
function missingDescriptions(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  const blank = (d: string | null | undefined) => !d || d.trim() === "";
  const roots = rootTypeNames(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    if (!roots.has(type.name) && blank(type.description)) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        const key = `${type.name}.${field.name}`;
        if (blank(field.description)) missing.push(key);
        for (const arg of field.args) if (blank(arg.description)) missing.push(`${key}(${arg.name}:)`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (blank(field.description)) missing.push(`${type.name}.${field.name}`);
      }
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) if (blank(value.description)) missing.push(`${type.name}.${value.name}`);
    }
  }
  return missing.sort();
}

describe("schema descriptions", () => {
  it("describes every type, field, argument and enum value of the built schema", async () => {
    const schema = await buildApiSchema();
    // The check reaches what it means to: the resolvers' fields, arguments and types are in it.
    const query = schema.getQueryType();
    expect(query?.getFields()["run"]?.args.map((a) => a.name)).toEqual(["id"]);
    expect(schema.getType("StartRunPayload")).toBeDefined();
    expect(schema.getType("CreateEvaluationInput")).toBeDefined();
    expect(rootTypeNames(schema)).toEqual(new Set(["Query", "Mutation", "Subscription"]));
    expect(missingDescriptions(schema)).toEqual([]);
  });
});
