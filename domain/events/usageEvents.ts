// Stream `usage-<tenant>.<YYYY-MM>` (usageStream): what a tenant used in one calendar month (UTC),
// the meter plan quotas are checked against (reference-platform #38, §3 rules 18-20). One event
// per run admitted: the pairs a started run will replay (`execution`), or one newly stored
// report (`evaluation_report`). Counts and ids only: nothing a caller sent as text, so no secret.
import { z } from "zod";
import { defineEvent } from "./defineEvent.js";
import { idSchema, nonBlank } from "./shared.js";

export const USAGE_KINDS = ["execution", "evaluation_report"] as const;
const usageKind = z.enum(USAGE_KINDS);
export type UsageKind = z.output<typeof usageKind>;

/** A calendar month, UTC: `2026-11`. */
const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * `quantity` more of `kind` used in `month` by `run_id` of `tenant`. A run is metered once per
 * kind: a retried start or import finds its (kind, run_id) here and meters nothing (usageAggregate.ts); should a retry find the
 * run larger than metered (its evaluation changed between two tries), only the difference is.
 */
export const usageMeterFields = {
  /** The tenant whose month it is, as the stream names it (the evaluation's tenant). */
  tenant: nonBlank,
  kind: usageKind,
  quantity: z.number().int().min(1),
  run_id: idSchema,
  evaluation_id: idSchema,
  month: z.string().regex(MONTH_PATTERN, "must be a month as YYYY-MM"),
};

export const UsageMetered = defineEvent("UsageMetered", 1, z.object(usageMeterFields));
