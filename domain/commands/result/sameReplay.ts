// Whether a replay sent again for a recorded pair is the one the record holds (an identical
// resend: a host retrying a request whose answer it lost) or a second, different result.
import type { ReplayData } from "../../events/resultEvents.js";
import { storableJsonOf } from "../../events/storableText.js";
import { stableJson } from "../evaluation/scenarioChanges.js";

/**
 * Compares the replay's content as it is recorded: answer, tool_calls (each call's name,
 * arguments, error, detail, duration_ms and any other key it carries), duration_ms,
 * input_tokens, output_tokens, error, cost and metadata. `sent` is taken as it would be recorded
 * (a NUL or a lone surrogate becomes U+FFFD, as the decider stores it), and both sides as the
 * store gives JSON back: the order of an object's keys does not count (PostgreSQL's jsonb
 * reorders them), nor does an undefined value. A null field of the replay or of a tool call is
 * the same as an absent one (the reference drops nil fields); inside `metadata` and a call's
 * `arguments` every value counts as sent, null included. Numbers compare by value (1 and 1.0
 * are one JSON number). Nothing else is ignored: one character of the answer, one token, one
 * metadata key makes a different replay.
 */
export function sameReplay(recorded: ReplayData, sent: ReplayData): boolean {
  const stored = storableJsonOf(sent);
  return sameJson(withoutNulls(recorded), withoutNulls(stored)) && sameCalls(recorded.tool_calls, stored.tool_calls);
}

function sameCalls(a: ReplayData["tool_calls"], b: ReplayData["tool_calls"]): boolean {
  return a.length === b.length && a.every((call, i) => sameJson(withoutNulls(call), withoutNulls(b[i])));
}

/** The object's own fields but tool_calls (compared call by call), null and undefined ones left out. */
function withoutNulls(value: object): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner !== null && inner !== undefined && key !== "tool_calls") kept[key] = inner;
  }
  return kept;
}

/** Equal as JSON: key order and undefined values do not count (stableJson, as scenarios compare). */
const sameJson = (a: unknown, b: unknown): boolean => stableJson(a) === stableJson(b);
