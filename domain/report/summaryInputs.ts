// What a report's summary reads of each result's replay and diagnosis, so a caller that needs
// the summary and not the results (a run's completion: the verdict's ranking, the comparison and
// the document without `results`) can keep that much of each result and let its answer and tool
// output go. The summary is everything `toJSON()` writes but `results`; its readers are
// summary.ts (status, score, scores, duration, tokens, fault), aggregates.ts (scores, diagnosis),
// fixItems.ts (tool names, whether a call failed and its detail as the note shows it, the
// diagnosis's tool lists and judge refinement), cost/ (cost, metadata `cost_source`, `cost_rate`,
// `judge_usage`) and stats/comparison.ts (status). summaryInputs.test.ts checks that a report of
// the kept parts writes the same summary as one of the whole results; a new reader of a replay
// field in those files has to be added here.
import { toolCallFailed, type ToolCall } from "../replay/index.js";
import { isBlank, truncate } from "../support/index.js";
import { detailText } from "../diagnosis/text.js";

/** How much of a failing tool call's detail a fix item's tool note shows. */
export const TOOL_NOTE_LIMIT = 60;

/** The replay metadata keys the summary reads (costs and the judge's spend). */
export const SUMMARY_METADATA_KEYS: readonly string[] = ["cost_source", "cost_rate", "judge_usage"];

/** The diagnosis evidence keys the summary reads (the fix items' missing tools). */
export const SUMMARY_EVIDENCE_KEYS: readonly string[] = ["unavailable", "tools_available"];

/** A replay as recorded (Replay#toJSON's keys). */
export interface ReplayDocumentLike {
  answer?: string | null;
  tool_calls?: readonly ToolCall[] | null;
  duration_ms?: number | null;
  input_tokens?: number | null;
  output_tokens?: number | null;
  error?: string | null;
  cost?: number | null;
  metadata?: Record<string, unknown> | null;
}

/** What a summary needs of a tool call: its name, whether it failed, and a failed call's note. */
export function summaryToolCall(call: ToolCall): ToolCall {
  if (!toolCallFailed(call)) return { name: call.name };
  const out: ToolCall = { name: call.name, error: true };
  const detail = detailText(call.detail);
  // A blank detail gives no note; a longer one is shown cut, and cutting the cut changes nothing.
  if (call.detail !== undefined && call.detail !== null) out.detail = isBlank(detail) ? "" : truncate(detail, TOOL_NOTE_LIMIT);
  return out;
}

/**
 * The replay as the summary reads it: the figures, the cost metadata and each tool call's name,
 * failure and note; no answer, no error text, no tool arguments or output. Its size does not
 * grow with the answer's or the tools'.
 */
export function summaryReplay<T extends ReplayDocumentLike>(replay: T): T {
  const out: ReplayDocumentLike = { tool_calls: (replay.tool_calls ?? []).map(summaryToolCall) };
  if (replay.duration_ms != null) out.duration_ms = replay.duration_ms;
  if (replay.input_tokens != null) out.input_tokens = replay.input_tokens;
  if (replay.output_tokens != null) out.output_tokens = replay.output_tokens;
  if (replay.cost != null) out.cost = replay.cost;
  out.metadata = pick(replay.metadata ?? {}, SUMMARY_METADATA_KEYS);
  return out as T;
}

/** The diagnosis as the summary reads it: whole, but for evidence other than the tool lists. */
export function summaryDiagnosis<T extends Record<string, unknown> | null>(diagnosis: T): T {
  if (!diagnosis) return diagnosis;
  const evidence = diagnosis.evidence;
  if (evidence === null || typeof evidence !== "object" || Array.isArray(evidence)) return diagnosis;
  return { ...diagnosis, evidence: pick(evidence as Record<string, unknown>, SUMMARY_EVIDENCE_KEYS) };
}

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(source, key)) out[key] = source[key];
  return out;
}
