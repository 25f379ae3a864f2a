// The schema as SDL, exactly as `schema.graphql` is checked in. Sorted, so the text does not
// depend on the order a transpiler applies parameter decorators in.
import { lexicographicSortSchema, printSchema } from "graphql";
import { buildApiSchema } from "./buildApiSchema.js";

const HEADER = "# Emitted by `npm run schema:emit` from apps/api (type-graphql). Do not edit by hand.\n\n";

export async function printApiSchema(): Promise<string> {
  return `${HEADER}${printSchema(lexicographicSortSchema(await buildApiSchema()))}\n`;
}
