// The order of a report's models when it is read back from JSON. Event data and read models sit
// in PostgreSQL's jsonb, which keeps an object's keys sorted by length, then bytes: a report's
// `summary_by_model` (or a comparison's `models`) comes back gpt-5-mini, llama3:8b,
// claude-sonnet-5 where it was written gpt-5-mini, claude-sonnet-5, llama3:8b. Arrays keep their
// order, and results run scenario by scenario in model order, so they give the order back.
import { Buffer } from "node:buffer";
import { keyedRecord } from "../support/index.js";

/** `labels` in the order they first appear among `resultLabels`; labels with no result after. */
export function labelsInResultOrder(labels: readonly string[], resultLabels: Iterable<string>): string[] {
  const known = new Set(labels);
  const ordered = new Set<string>();
  for (const label of resultLabels) {
    if (known.has(label)) ordered.add(label);
    if (ordered.size === known.size) break;
  }
  for (const label of labels) ordered.add(label);
  return [...ordered];
}

/**
 * A saved report's models in their order: the keys of its `summary_by_model` as they come, unless
 * they come in jsonb's order (by UTF-8 length, then bytes), which may be jsonb's doing; then in
 * the order the results give (labelsInResultOrder). Keys jsonb could not have ordered are the
 * order they were written in: the results alone would put first whichever model's result came
 * first, wrong for a running run whose later model answered first.
 */
export function labelsInRecordedOrder(keys: readonly string[], resultLabels: Iterable<string>): string[] {
  return inJsonbKeyOrder(keys) ? labelsInResultOrder(keys, resultLabels) : [...keys];
}

function inJsonbKeyOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i += 1) if (compareJsonbKeys(keys[i - 1], keys[i]) > 0) return false;
  return true;
}

function compareJsonbKeys(a: string, b: string): number {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length - right.length || Buffer.compare(left, right);
}

/** A recorded comparison with its `models` keyed in `labels` order (the rest after, as given). */
export function comparisonInModelOrder<T>(recorded: T, labels: readonly string[]): T {
  if (recorded === null || typeof recorded !== "object" || Array.isArray(recorded)) return recorded;
  const models = (recorded as { models?: unknown }).models;
  if (models === null || typeof models !== "object" || Array.isArray(models)) return recorded;
  const byLabel = models as Record<string, unknown>;
  const ordered: Record<string, unknown> = keyedRecord();
  for (const label of labelsInResultOrder(Object.keys(byLabel), labels)) ordered[label] = byLabel[label];
  return { ...recorded, models: ordered };
}
