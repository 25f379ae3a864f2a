// One event type: its name, its current schema version, its zod schema and the upcasters that
// lift older stored versions one step at a time (upcasters[1] turns v1 data into v2 data).
// `schema` reads what is stored and must accept every value any earlier version recorded at
// that version: a bound added later belongs in `writeSchema`, which only new events are held to
// (a stored event the current schema refuses stops every reader of the log at it).
import type { z } from "zod";

export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

export interface EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  readonly type: T;
  readonly version: number;
  readonly schema: S;
  readonly upcasters: Readonly<Record<number, Upcaster>>;
  /** What a new event of this type is held to at the append, when stricter than `schema`. */
  readonly writeSchema?: z.ZodType;
}

export function defineEvent<T extends string, S extends z.ZodType>(
  type: T,
  version: number,
  schema: S,
  upcasters: Record<number, Upcaster> = {},
  writeSchema?: z.ZodType,
): EventDefinition<T, S> {
  for (let v = 1; v < version; v++) {
    if (!upcasters[v]) throw new Error(`event ${type} v${version} has no upcaster from v${v}`);
  }
  return { type, version, schema, upcasters, writeSchema };
}
