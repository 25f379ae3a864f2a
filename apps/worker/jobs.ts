// The messages the dispatcher hands to workers (DESIGN.md "Running a run"). A job names the pair
// and nothing else: consumers read the frozen selection from the run stream, so a job can never
// carry a scenario that differs from what the run recorded. Validated with zod on both sides.
import { z } from "zod";
import { eventSchemas } from "@verdict/domain";
import { UndecodableMessage } from "@verdict/infra/jobbus";

export const REPLAY_TOPIC = "verdict.replay";
export const COMPLETE_TOPIC = "verdict.complete";
export const REPLAY_GROUP = "verdict-replay";
export const COMPLETE_GROUP = "verdict-complete";

/** Topic and group names; a prefix keeps deployments (or test suites) on one broker apart. */
export interface JobNames {
  replayTopic: string;
  completeTopic: string;
  replayGroup: string;
  completeGroup: string;
}

export function jobNames(prefix = ""): JobNames {
  return {
    replayTopic: `${prefix}${REPLAY_TOPIC}`,
    completeTopic: `${prefix}${COMPLETE_TOPIC}`,
    replayGroup: `${prefix}${REPLAY_GROUP}`,
    completeGroup: `${prefix}${COMPLETE_GROUP}`,
  };
}

const id = eventSchemas.idSchema;

export const ReplayJob = z.object({
  run_id: id,
  tenant: id,
  n: z.number().int().nonnegative(),
  scenario_key: z.string().min(1),
  model_label: z.string().min(1),
});
export type ReplayJob = z.output<typeof ReplayJob>;

export const CompletionJob = z.object({ run_id: id, tenant: id });
export type CompletionJob = z.output<typeof CompletionJob>;

/** A job whose message is not what its topic carries; redelivering it cannot help. */
export class InvalidJobError extends Error {
  readonly code = "validation";
}

export function parseJob<T>(schema: z.ZodType<T>, topic: string, value: unknown): T {
  if (value instanceof UndecodableMessage) throw new InvalidJobError(`${topic} job: (message): ${value.reason}`);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidJobError(`${topic} job: ${issue.path.join(".") || "(message)"}: ${issue.message}`);
}

/**
 * A delivered job's fields as far as they can be read before it is validated (to name its run
 * and pair when it fails): a message may be JSON `null`, a number or a list.
 */
export function jobFields(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A name from a job, shortened for a log line: a message may carry a megabyte of it. */
export function clipped(value: unknown, max = 120): string {
  const text = String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length.toLocaleString("en-US")} chars)` : text;
}
