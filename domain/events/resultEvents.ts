// Stream `result-<runId>.<n>`, one per scenario x model pair: the replay is recorded at most once
// (appended with expected version "no stream"), then scored with every judge exchange it took.
import { z } from "zod";
import { defineEvent } from "./defineEvent.js";
import { costAmount, durationMs, jsonObject, nonBlank, recordedCost, recordedDurationMs, recordedTokenCount, tokenCount } from "./shared.js";
import { judgeExchangeData, judgeExchangeInput } from "./runEvents.js";

const pairIdentity = {
  run_id: nonBlank,
  n: z.number().int().nonnegative(),
  scenario_key: nonBlank,
  model_label: nonBlank,
};

export const toolCallData = z.looseObject({
  name: z.string(),
  arguments: z.unknown().optional(),
  error: z.unknown().optional(),
  detail: z.string().nullable().optional(),
  duration_ms: z.number().nullable().optional(),
});

/** Replay#to_h (reference-core §6), nil fields dropped. */
export const replayData = z.object({
  answer: z.string().nullable().optional(),
  tool_calls: z.array(toolCallData).default([]),
  duration_ms: recordedDurationMs.nullable().optional(),
  input_tokens: recordedTokenCount.nullable().optional(),
  output_tokens: recordedTokenCount.nullable().optional(),
  error: z.string().nullable().optional(),
  cost: recordedCost.nullable().optional(),
  metadata: jsonObject.default({}),
});
export type ReplayData = z.output<typeof replayData>;

/** A replay as RecordReplay takes it and a new ReplayRecorded holds it: figures within their limits. */
export const replayInput = replayData.extend({
  duration_ms: durationMs.nullable().optional(),
  input_tokens: tokenCount.nullable().optional(),
  output_tokens: tokenCount.nullable().optional(),
  cost: costAmount.nullable().optional(),
});

const replayRecorded = z.object({ ...pairIdentity, replay: replayData });
export const ReplayRecorded = defineEvent("ReplayRecorded", 1, replayRecorded, {}, replayRecorded.extend({ replay: replayInput }));

const resultScored = z.object({
  ...pairIdentity,
  status: z.enum(["passed", "failed", "errored"]),
  score: z.number().min(0).max(1).nullable(),
  scores: z.record(z.string(), z.number().min(0).max(1).nullable()),
  pass: z.boolean(),
  fault: z.string().nullable(),
  recommendation: z.string().nullable(),
  diagnosis: jsonObject.nullable(),
  judge_exchanges: z.array(judgeExchangeData).default([]),
});
export const ResultScored = defineEvent("ResultScored", 1, resultScored, {}, resultScored.extend({ judge_exchanges: z.array(judgeExchangeInput).default([]) }));
