// How much of a judge's text is kept. The platform records it in events (apps/worker/exchanges.ts,
// pairWork.ts, completion.ts) and a local run keeps it in its report (ClippedJudge): both cut it
// here, so the same answers give the same report either way.
import { truncateBytes } from "../support/truncate.js";
import type { JudgeExchange } from "./judge.js";

/**
 * A judge's text (its raw answer, what was parsed from it, a verdict's rationale) is kept up to
 * this many UTF-8 bytes a string (the reference keeps an output to 20,000): an answer of hundreds
 * of kilobytes would push its event over the store's size limit and fail the pair or the run,
 * where a judge that answers unusably must only be skipped; locally a 5 MB rationale made a
 * 14 MB JSON report.
 */
export const JUDGE_TEXT_BYTES = 20_000;

/**
 * The judge's text as an event keeps it: every string cut to JUDGE_TEXT_BYTES (Ruby's
 * truncate_bytes). A NUL or a lone surrogate in it the run and result aggregates record as
 * U+FFFD, as they do an agent's text.
 */
export function clippedJudgeText<T>(value: T): T {
  if (typeof value === "string") return (value.length * 3 > JUDGE_TEXT_BYTES ? truncateBytes(value, JUDGE_TEXT_BYTES) : value) as T;
  if (Array.isArray(value)) return value.map(clippedJudgeText) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, clippedJudgeText(inner)])) as T;
}

/** An exchange with its texts (raw answer, parsed value as JSON, unusable reason) cut as an event keeps them. */
export function clippedExchange(exchange: JudgeExchange): JudgeExchange {
  return {
    ...exchange,
    raw: clippedJudgeText(exchange.raw),
    parsed: exchange.parsed ? clippedJudgeText(JSON.parse(JSON.stringify(exchange.parsed)) as Record<string, unknown>) : null,
    unusable_reason: clippedJudgeText(exchange.unusable_reason),
  };
}
