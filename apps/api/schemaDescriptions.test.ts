// Every type, field and enum value declared in apps/api/schema/types carries a description, so
// introspection (a dashboard's, a client generator's) says what each one means, in what unit and
// when it is null. A field added there without one fails here.
//
// Exempt, and why: what the resolvers declare (Query/Mutation/Subscription root fields, the
// fields a @FieldResolver adds to a type, such as Run.results or Evaluation.runs, and the object
// and input types declared in apps/api/schema/resolvers). They are described in the resolvers'
// decorators, which this suite does not own; they are listed here by how they are found, not
// by name, so a new one is exempt the same way.
import "reflect-metadata";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { getMetadataStorage } from "type-graphql";
import { isEnumType, isInputObjectType, isObjectType, type GraphQLSchema } from "graphql";

const TYPES_DIR = join(dirname(fileURLToPath(import.meta.url)), "schema", "types");

interface Declared {
  /** GraphQL names of the object and input types declared in schema/types. */
  types: Set<string>;
  /** `Type.field` of the fields those types declare themselves (no field resolvers). */
  fields: Set<string>;
  /** GraphQL names of the enums registered in schema/types. */
  enums: Set<string>;
}

/**
 * What schema/types declares, read from type-graphql's metadata after importing only those
 * modules (this file's module graph is its own, and the type modules import no resolver), so
 * whatever the resolvers declare later is not in it.
 */
async function declaredInTypes(): Promise<Declared> {
  const modules = readdirSync(TYPES_DIR).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  for (const file of modules) await import(join(TYPES_DIR, file));
  const storage = getMetadataStorage();
  const typesByTarget = new Map<unknown, string>();
  for (const t of [...storage.objectTypes, ...storage.inputTypes]) typesByTarget.set(t.target, t.name);
  const fields = new Set<string>();
  for (const f of storage.fields) {
    const typeName = typesByTarget.get(f.target);
    if (typeName !== undefined) fields.add(`${typeName}.${f.schemaName}`);
  }
  return { types: new Set(typesByTarget.values()), fields, enums: new Set(storage.enums.map((e) => e.name)) };
}

function missingDescriptions(schema: GraphQLSchema, declared: Declared): string[] {
  const missing: string[] = [];
  const blank = (d: string | null | undefined) => !d || d.trim() === "";
  for (const name of declared.types) {
    const type = schema.getType(name);
    if (!type) continue; // declared but not reachable from the schema: not served
    if (!isObjectType(type) && !isInputObjectType(type)) continue;
    if (blank(type.description)) missing.push(name);
    for (const field of Object.values(type.getFields())) {
      const key = `${name}.${field.name}`;
      if (declared.fields.has(key) && blank(field.description)) missing.push(key);
    }
  }
  for (const name of declared.enums) {
    const type = schema.getType(name);
    if (!type || !isEnumType(type)) continue;
    if (blank(type.description)) missing.push(name);
    for (const value of type.getValues()) if (blank(value.description)) missing.push(`${name}.${value.name}`);
  }
  return missing.sort();
}

describe("schema descriptions", () => {
  it("describes every type, field and enum value declared in apps/api/schema/types", async () => {
    const declared = await declaredInTypes();
    const { buildApiSchema } = await import("./schema/buildApiSchema.js");
    const schema = await buildApiSchema();
    // The check reaches what it means to: the types it reads are served, with their fields.
    expect(declared.types.size).toBeGreaterThan(30);
    expect(declared.fields.has("Result.score")).toBe(true);
    expect(declared.fields.has("PageInfo.endCursor")).toBe(true);
    expect(declared.fields.has("Run.results")).toBe(false); // a field resolver's: exempt
    expect(declared.enums.has("RunStatus")).toBe(true);
    expect(missingDescriptions(schema, declared)).toEqual([]);
  });
});
