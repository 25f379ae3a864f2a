// The core's JudgeExchange as an event records it: the prompt by digest (the prompt itself is
// rebuilt from the recorded inputs), the raw answer, what was parsed, the usage, and why an
// answer was unusable.
import { createHash } from "node:crypto";
import { truncateBytes, type JudgeExchange, type eventSchemas } from "@verdict/domain";

/**
 * A judge's text (its raw answer, what was parsed from it, a verdict's rationale) is kept up to
 * this many UTF-8 bytes a string (the reference keeps an output to 20,000): an answer of hundreds
 * of kilobytes would push its event over the store's size limit and fail the pair or the run,
 * where a judge that answers unusably must only be skipped.
 */
const JUDGE_TEXT_BYTES = 20_000;

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

type ExchangeData = eventSchemas.JudgeExchangeData;

export function promptDigest(instructions: string, prompt: string): string {
  return createHash("sha256").update(instructions).update("\n\n").update(prompt).digest("hex");
}

function usageOf(exchange: JudgeExchange): ExchangeData["usage"] {
  const usage = exchange.usage;
  if (!usage) return null;
  const out: NonNullable<ExchangeData["usage"]> = {};
  if (usage.input_tokens !== undefined) out.input_tokens = usage.input_tokens;
  if (usage.output_tokens !== undefined) out.output_tokens = usage.output_tokens;
  if (usage.cost !== undefined) out.cost = usage.cost;
  if (usage.model !== undefined) out.model = usage.model;
  if (usage.source !== undefined) out.source = usage.source;
  return out;
}

export function exchangeData(exchange: JudgeExchange, traceIds: string[] = []): ExchangeData {
  return {
    kind: exchange.kind,
    prompt_digest: promptDigest(exchange.instructions, exchange.prompt),
    raw_answer: clippedJudgeText(exchange.raw),
    parsed: exchange.parsed ? clippedJudgeText(JSON.parse(JSON.stringify(exchange.parsed)) as Record<string, unknown>) : null,
    usage: usageOf(exchange),
    trace_ids: traceIds,
    error: clippedJudgeText(exchange.unusable_reason),
  };
}
