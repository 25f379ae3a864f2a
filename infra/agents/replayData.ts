// zod schema of the replay JSON a host or script hands back (the guide's Replay keys).
import { z } from "zod";

export const replayDataSchema = z
  .object({
    answer: z.string().nullable().optional(),
    tool_calls: z.array(z.object({ name: z.string().min(1) }).passthrough()).optional(),
    duration_ms: z.number().min(0).nullable().optional(),
    input_tokens: z.number().int().min(0).nullable().optional(),
    output_tokens: z.number().int().min(0).nullable().optional(),
    cost: z.number().min(0).nullable().optional(),
    error: z.string().nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** "tool_calls.0.name: Invalid input…" — the first problem, naming the field. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.join(".") || "(body)"}: ${issue.message}`;
}
