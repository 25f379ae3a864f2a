// The shape of a recorded comparison (Comparison#toJSON), checked when one is read back.

import { z } from "zod";

const interval = z.tuple([z.number(), z.number()]).nullable();

export const comparisonJSONSchema = z.object({
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
