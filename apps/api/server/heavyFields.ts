// The heavy fields (those priced above 1 in queryLimits.ts: a whole run rendered, replayed or
// compared, and the whole lists) take their turn at the request's answer budget
// (answerBudget.ts). Wrapped once on the built schema rather than in each resolver, so the set
// charged is the set priced and a field priced later is charged too.
import { defaultFieldResolver, isNonNullType, isObjectType, responsePathAsArray, type GraphQLSchema } from "graphql";
import type { ApiContext } from "./context.js";
import { answerWeight } from "./answerWeight.js";
import { FIELD_COSTS, WHOLE_LISTS } from "./queryLimits.js";

/** `Type.field` of every field charged to the answer budget. */
const HEAVY_FIELDS: readonly string[] = [...Object.keys(FIELD_COSTS), ...WHOLE_LISTS];

/** `schema` with each heavy field's resolver charging its answer to the request's budget. Call once per schema. */
export function chargingHeavyFields(schema: GraphQLSchema): GraphQLSchema {
  for (const key of HEAVY_FIELDS) {
    const [typeName, fieldName] = key.split(".");
    const type = schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
    // A renamed field would silently stop being charged.
    if (!field) throw new Error(`heavy field ${key} is not in the schema; update FIELD_COSTS / WHOLE_LISTS in queryLimits.ts`);
    // Refused, a non-null field would null its parent: the whole `data` for a root field.
    if (isNonNullType(field.type)) throw new Error(`heavy field ${key} must be nullable: refused over the answer budget, it answers null`);
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context: ApiContext, info) => {
      const path = responsePathAsArray(info.path);
      const named = path.at(-1) === fieldName ? path.join(".") : `${path.join(".")} (${fieldName})`;
      return context.answerBudget.charge(named, () => resolve(source, args, context, info), (value) => answerWeight(value, info.fieldNodes, info.fragments));
    };
  }
  return schema;
}
