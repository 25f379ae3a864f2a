// Commands on one scenario x model pair (stream `result-<runId>.<n>`).
import { z } from "zod";
import { replayInput } from "../../events/resultEvents.js";
import { judgeExchangeInput } from "../../events/runEvents.js";
import { idSchema, jsonObject, nonBlank } from "../../events/shared.js";

const pair = { run_id: idSchema, scenario_key: nonBlank, model_label: nonBlank };

// Input schemas, not the stored ones: their limits name the field of a new figure past them, and
// the stored schemas stay open to what earlier versions recorded.
export const RecordReplay = z.object({ type: z.literal("RecordReplay"), ...pair, replay: replayInput });
export type RecordReplay = z.output<typeof RecordReplay>;

const unit = z.number().min(0).max(1);

export const ScoreResult = z.object({
  type: z.literal("ScoreResult"),
  ...pair,
  status: z.enum(["passed", "failed", "errored"]),
  score: unit.nullable(),
  scores: z.record(z.string(), unit.nullable()),
  pass: z.boolean(),
  fault: z.string().nullable().default(null),
  recommendation: z.string().nullable().default(null),
  diagnosis: jsonObject.nullable().default(null),
  judge_exchanges: z.array(judgeExchangeInput).default([]),
});
export type ScoreResult = z.output<typeof ScoreResult>;

export const ResultCommand = z.discriminatedUnion("type", [RecordReplay, ScoreResult]);
export type ResultCommand = z.output<typeof ResultCommand>;
