// The shape of a recorded comparison (Comparison#toJSON), checked when one is read back.
// zod is loaded on first use, not at import: a recorded comparison that the hand check in
// comparisonRecord.ts accepts never needs it, and zod is ~14 MB of resident memory for every
// process that imports the domain's report (a Report rebuilt from a recording, the benchmarks).

import { createRequire } from "node:module";
import type * as Zod from "zod";

function buildSchema(z: typeof Zod.z) {
  const interval = z.tuple([z.number(), z.number()]).nullable();
  return z.object({
    models: z.record(
      z.string(),
      z.object({ scenarios: z.number().int().nonnegative(), pass_rate: z.number().nullable(), interval }),
    ),
    pairs: z.array(
      z.object({
        models: z.tuple([z.string(), z.string()]),
        scenarios: z.number().int().nonnegative(),
        difference: z.number().nullable(),
        interval,
        decisive: z.boolean(),
      }),
    ),
    conclusion: z.string(),
    // A comparison recorded elsewhere may leave out the settings: they are then the defaults.
    seed: z.number().int().default(0),
    resamples: z.number().int().positive().default(5000),
    confidence: z.number().gt(0).lt(1).default(0.95),
  });
}

let schema: ReturnType<typeof buildSchema> | null = null;

export function comparisonJSONSchema(): ReturnType<typeof buildSchema> {
  if (!schema) {
    const { z } = createRequire(import.meta.url)("zod") as typeof Zod;
    schema = buildSchema(z);
  }
  return schema;
}
