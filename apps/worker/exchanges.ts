// The core's JudgeExchange as an event records it: the prompt by digest (the prompt itself is
// rebuilt from the recorded inputs), the raw answer, what was parsed, the usage, and why an
// answer was unusable, each text cut as clippedJudgeText (domain/judge/judgeText.ts) cuts it.
import { createHash } from "node:crypto";
import { clippedExchange, type JudgeExchange, type eventSchemas } from "@verdict/domain";

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
  const clipped = clippedExchange(exchange);
  return {
    kind: exchange.kind,
    prompt_digest: promptDigest(exchange.instructions, exchange.prompt),
    raw_answer: clipped.raw,
    parsed: clipped.parsed,
    usage: usageOf(exchange),
    trace_ids: traceIds,
    error: clipped.unusable_reason,
  };
}
