// A deterministic agent for demos and tests: answers, tool calls, errors and latency come from a
// YAML script. Each reply matches a scenario by key, by prompt pattern or by both (then both must
// match, as in the judge script: a prompt narrows a keyed reply), optionally only for some model
// labels; the first matching reply wins, else `default` (any scenario, any model: it takes no
// key, prompt or models), else an error that names the scenario (so a script gap is visible as a
// run_error, not a silent pass).
//
//   agent: SupportAgent
//   default: { answer: "I can help with that." }
//   replies:
//     - key: refund_order            # and/or prompt: "/refund/i" (regex) or "refund" (substring)
//       models: [gpt-5-mini]          # optional: only for these labels
//       answer: "Refunded order 1234."
//       tool_calls: [{ name: refund_order, arguments: { order_id: "1234" } }]
//       latency_ms: 20                # how long the reply takes (also its duration_ms)
//       input_tokens: 120
//       output_tokens: 40
//       cost: 0.0004
import { z } from "zod";
import { abortableDelay } from "./abortableDelay.js";
import { parseScript, readScriptFile, textMatcher } from "../scripting/index.js";
import { eventSchemas, type AgentRuntime, type ReplayData, type RuntimeModel, type RuntimeScenario } from "@verdict/domain";

const toolCall = z.object({ name: z.string().min(1) }).passthrough();

const reply = z
  .object({
    key: z.string().min(1).optional(),
    prompt: z.string().min(1).optional(),
    models: z.array(z.string().min(1)).optional(),
    answer: z.string().nullable().optional(),
    tool_calls: z.array(toolCall).optional(),
    error: z.string().nullable().optional(),
    latency_ms: z.number().int().min(0).max(600_000).optional(),
    // The ReplayRecorded event's own bounds, so a figure past them is refused when the script
    // loads, naming it, not at replay time as a run_error that says only the replay was refused.
    duration_ms: eventSchemas.durationMs.optional(),
    input_tokens: eventSchemas.tokenCount.optional(),
    output_tokens: eventSchemas.tokenCount.optional(),
    cost: eventSchemas.costAmount.optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const script = z
  .object({
    agent: z.string().min(1).optional(),
    // No models: a default limited to some models would leave the others with no reply, which
    // is what leaving `default` out says; accepted and ignored, it said the opposite.
    default: reply.omit({ key: true, prompt: true, models: true }).optional(),
    replies: z.array(reply).default([]),
  })
  .strict();

type Reply = z.infer<typeof reply>;
export type AgentScript = z.infer<typeof script>;

export class ScriptError extends Error {
  readonly code = "validation";
}

export class ScriptedAgent implements AgentRuntime {
  private readonly matchers: Array<{ reply: Reply; matches: (scenario: RuntimeScenario, model: RuntimeModel) => boolean }>;

  constructor(
    private readonly script: AgentScript,
    readonly name = "scripted",
  ) {
    this.matchers = script.replies.map((entry, index) => ({ reply: entry, matches: matcherFor(entry, index) }));
  }

  static fromYaml(text: string, name?: string): ScriptedAgent {
    return new ScriptedAgent(parseScript(text, script, "agent script", (message) => new ScriptError(message)), name);
  }

  /** Reads a script file; one over MAX_SCRIPT_BYTES is refused unread (a script is a few KB). */
  static async load(path: string): Promise<ScriptedAgent> {
    const text = await readScriptFile(path, "agent script", (message) => new ScriptError(message));
    return ScriptedAgent.fromYaml(text, `scripted:${path}`);
  }

  get agentName(): string | undefined {
    return this.script.agent;
  }

  async replay(scenario: RuntimeScenario, model: RuntimeModel, { signal }: { signal: AbortSignal }): Promise<ReplayData> {
    const chosen = this.matchers.find((candidate) => candidate.matches(scenario, model))?.reply ?? this.script.default;
    if (!chosen) throw new Error(`scripted agent has no reply for scenario "${scenario.key}" on ${model.label}`);
    if (chosen.latency_ms) await abortableDelay(chosen.latency_ms, signal);
    const data: ReplayData = {
      answer: chosen.answer ?? null,
      tool_calls: (chosen.tool_calls ?? []).map((call) => ({ ...call })),
      // A reply that says no duration has none (null), as a thrown replay has: a 0 pulled the
      // model's latency average and percentiles down as if it had answered at once.
      duration_ms: chosen.duration_ms ?? chosen.latency_ms ?? null,
      input_tokens: chosen.input_tokens ?? null,
      output_tokens: chosen.output_tokens ?? null,
      cost: chosen.cost ?? null,
      error: chosen.error ?? null,
    };
    if (chosen.metadata) data.metadata = { ...chosen.metadata };
    return data;
  }
}

function matcherFor(entry: Reply, index: number): (scenario: RuntimeScenario, model: RuntimeModel) => boolean {
  if (!entry.key && !entry.prompt) throw new ScriptError(`agent script: replies.${index}: needs key or prompt`);
  const prompt = entry.prompt ? promptMatcher(entry.prompt, index) : null;
  const models = entry.models ? new Set(entry.models) : null;
  return (scenario, model) =>
    (!models || models.has(model.label)) && (!entry.key || entry.key === scenario.key) && (!prompt || prompt(scenario.prompt));
}

function promptMatcher(pattern: string, index: number): (prompt: string) => boolean {
  try {
    return textMatcher(pattern);
  } catch (error) {
    throw new ScriptError(`agent script: replies.${index}.prompt: ${(error as Error).message}`);
  }
}
