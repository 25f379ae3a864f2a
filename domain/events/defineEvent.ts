// One event type: its name, its current schema version, its zod schema and the upcasters that
// lift older stored versions one step at a time (upcasters[1] turns v1 data into v2 data).
import type { z } from "zod";

export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

export interface EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  readonly type: T;
  readonly version: number;
  readonly schema: S;
  readonly upcasters: Readonly<Record<number, Upcaster>>;
}

export function defineEvent<T extends string, S extends z.ZodType>(
  type: T,
  version: number,
  schema: S,
  upcasters: Record<number, Upcaster> = {},
): EventDefinition<T, S> {
  for (let v = 1; v < version; v++) {
    if (!upcasters[v]) throw new Error(`event ${type} v${version} has no upcaster from v${v}`);
  }
  return { type, version, schema, upcasters };
}
