// Reading the judge's answers (reference-core §10 "Parsing"). Every reader returns either
// a value or the reason the answer is unusable, so the exchange can say why a grade is missing.

import { isBlank, truncate } from "../support/index.js";

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

interface SuggestedTool {
  name: string;
  description: string;
}

export interface JudgeRecommendation {
  recommendation?: string;
  suggested_tool?: SuggestedTool;
  instruction_change?: string;
}

export interface JudgeVerdict {
  winner: string;
  rationale: string;
}

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** The object between the first `{` and the last `}`, so fenced ```json replies work (every judge answer, KPIs included). */
export function extractObject(text: string): Parsed<Record<string, unknown>> {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) return fail("the answer holds no JSON object");
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch (error) {
    return fail(`the answer is not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return fail("the answer is not a JSON object");
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * A score must be a finite JSON number from 0 to 1. One outside that range is unusable, as issue 4
 * asks, where reference-core §10 clamps it: a judge that answers 8 has graded on another scale,
 * and clamping would record a grade it did not give (8 out of 10 as a perfect 1). Like any
 * unusable answer, the pair is then graded without it. JSON.parse already refuses NaN and strings
 * such as "0.8" stay strings; 1e999 parses to Infinity and is refused here. The raw answer stays
 * on the exchange for an audit.
 */
export function parseScore(text: string): Parsed<number> {
  const object = extractObject(text);
  if (!object.ok) return object;
  if (!("score" in object.value)) return fail('"score" is missing');
  const score = object.value.score;
  if (typeof score !== "number") return fail(`"score" is not a number (got ${describe(score)})`);
  if (!Number.isFinite(score)) return fail('"score" is not a finite number');
  if (score < 0 || score > 1) return fail(`"score" is ${JSON.stringify(score)}, outside 0..1 (a score is a fraction, such as 0.8)`);
  return { ok: true, value: score === 0 ? 0 : score }; // -0 reads as 0
}

/** Keeps only the usable fields; unusable ones are dropped, and nothing left is unusable. */
export function parseRecommendation(text: string): Parsed<JudgeRecommendation> {
  const object = extractObject(text);
  if (!object.ok) return object;
  const { recommendation, suggested_tool: tool, instruction_change: change } = object.value;
  const out: JudgeRecommendation = {};
  if (typeof recommendation === "string" && !isBlank(recommendation)) out.recommendation = recommendation.trim();
  const suggested = suggestedTool(tool);
  if (suggested) out.suggested_tool = suggested;
  if (typeof change === "string" && !isBlank(change)) out.instruction_change = change.trim();
  if (Object.keys(out).length === 0) {
    return fail("no usable recommendation, suggested_tool or instruction_change (each must be a non-blank string; a tool may be an object with a name)");
  }
  return { ok: true, value: out };
}

function suggestedTool(value: unknown): SuggestedTool | null {
  if (typeof value === "string") return isBlank(value) ? null : { name: value.trim(), description: "" };
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const { name, description } = value as Record<string, unknown>;
  if (typeof name !== "string" || isBlank(name)) return null;
  return { name: name.trim(), description: typeof description === "string" ? description : "" };
}

/** A winner must be one of the compared labels, exactly, and one of the candidates (a model with a scored answer). */
export function parseVerdict(text: string, labels: readonly string[], candidates: readonly string[] = labels): Parsed<JudgeVerdict> {
  const object = extractObject(text);
  if (!object.ok) return object;
  const { winner, rationale } = object.value;
  if (winner === undefined || winner === null) return fail('"winner" is missing');
  if (typeof winner !== "string") return fail(`"winner" is not a string (got ${describe(winner)})`);
  if (!labels.includes(winner)) {
    return fail(`"winner" names ${JSON.stringify(winner)}, which is not one of the compared models (${labels.join(", ")})`);
  }
  if (!candidates.includes(winner)) {
    return fail(`"winner" names ${JSON.stringify(winner)}, which has no scored answer (every pair a run_error, or none run), so it cannot be picked`);
  }
  return { ok: true, value: { winner, rationale: typeof rationale === "string" ? rationale : "" } };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${truncate(JSON.stringify(value), 60)}`;
}
