// What one result cost and how that figure was arrived at (reference-core §7, guide "Costs"):
// the replay's cost, and three optional replay-metadata keys that say more.

/** What the cost readers need of a result: its scenario, model label and replay. */
export interface CostResultLike {
  scenario: { key: string };
  label: string;
  replay: { cost?: number | null; metadata?: Readonly<Record<string, unknown>> | null };
}

/** reported | estimated | no_usage | unpriced, or whatever the replay's metadata says. */
export type CostSource = "reported" | "estimated" | "no_usage" | "unpriced" | (string & {});

/** $ per million tokens, as recorded with an estimated cost. */
export interface CostRateRecord {
  input?: number;
  output?: number;
  source?: string;
  [key: string]: unknown;
}

/** What the judge spent, on one result or on the run (`{ calls, input_tokens, ..., by_kind, source }`). */
export interface JudgeUsageRecord {
  calls?: number;
  input_tokens?: number;
  output_tokens?: number;
  cost?: number | null;
  model?: string | null;
  by_kind?: Record<string, number>;
  source?: string | null;
  [key: string]: unknown;
}

/** A finite number, or a numeric string read as one; anything else is no number. */
export function numberOrNull(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** Ruby's `to_i` on a count: nil and junk are 0, fractions are cut. */
export function countOf(value: unknown): number {
  const n = numberOrNull(value);
  return n === null ? 0 : Math.trunc(n);
}

function metadataValue(result: CostResultLike, key: string): unknown {
  const metadata = result.replay.metadata;
  return metadata && typeof metadata === "object" ? metadata[key] : undefined;
}

function plainObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The replay's cost, or null when it carried none. */
export function resultCost(result: CostResultLike): number | null {
  return numberOrNull(result.replay.cost);
}

/**
 * A metadata `cost_source` that says how a cost was arrived at: text that is not blank, else null.
 * The one test of it: the report reads such a value as the result's source, and the platform's
 * cost chain (priceReplay) leaves a replay carrying one as it is; anything else (5, true, "  ")
 * says nothing, so the chain may price the replay and the report infers its source.
 */
export function givenCostSource(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** The metadata's `cost_source` when present, else `unpriced` without a cost, else `reported`. */
export function costSource(result: CostResultLike): CostSource {
  return givenCostSource(metadataValue(result, "cost_source")) ?? (resultCost(result) === null ? "unpriced" : "reported");
}

export function isEstimatedCost(result: CostResultLike): boolean {
  return costSource(result) === "estimated";
}

/** The rate an estimated cost was worked out with, or null. */
export function costRate(result: CostResultLike): CostRateRecord | null {
  return plainObject(metadataValue(result, "cost_rate")) as CostRateRecord | null;
}

/** What the judge spent grading this result, or null; never part of the agent's cost. */
export function resultJudgeUsage(result: CostResultLike): JudgeUsageRecord | null {
  return plainObject(metadataValue(result, "judge_usage")) as JudgeUsageRecord | null;
}

/** A judge usage whose cost was worked out (metered, from traces) rather than reported. */
export function isEstimatedUsage(usage: JudgeUsageRecord | null | undefined): boolean {
  if (!usage) return false;
  const source = usage.source;
  return typeof source === "string" && source.trim() !== "" && source !== "reported";
}
