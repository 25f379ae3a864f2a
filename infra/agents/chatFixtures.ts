// What a chat agent's tool answers (chatAgent.ts): fixtures written beside the tool's schema. A
// call takes the first `results` entry whose `when` its arguments hold (each key of `when` equal
// to the argument of that name, compared as JSON), else the tool's own `result` or `error`; a call
// none of them answers fails, naming its arguments, so a fixture gap shows as a failed tool call,
// never as an invented answer.
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";

/** OpenAI's and Anthropic's rule for a tool's name. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const answer = {
  result: z.unknown().optional(),
  error: z.string().min(1).optional(),
};

const when = z
  .object({ when: z.record(z.string(), z.unknown()), ...answer })
  .strict()
  .refine((entry) => (entry.result === undefined) !== (entry.error === undefined), "needs exactly one of result and error");

export const toolFixture = z
  .object({
    name: z.string().regex(TOOL_NAME, "must be 1-64 letters, digits, _ or - (the providers' rule for a tool name)"),
    description: z.string().optional(),
    /** The arguments' JSON Schema, sent to the model; default: any object. */
    parameters: z.record(z.string(), z.unknown()).optional(),
    results: z.array(when).default([]),
    ...answer,
  })
  .strict()
  .refine((tool) => tool.result === undefined || tool.error === undefined, "takes result or error, not both");

export type ToolFixture = z.infer<typeof toolFixture>;

/** The fixture's answer to a call with `args`; throws the fixture's error (a failed call), or why none answers. */
export function fixtureAnswer(fixture: ToolFixture, args: unknown): unknown {
  const given = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  const chosen = fixture.results.find((entry) => Object.entries(entry.when).every(([key, value]) => isDeepStrictEqual(given[key], value))) ?? fixture;
  if (chosen.error !== undefined) throw new Error(chosen.error);
  if (chosen.result !== undefined) return chosen.result;
  throw new Error(`no fixture of ${fixture.name} answers ${JSON.stringify(args) ?? "undefined"}`);
}
