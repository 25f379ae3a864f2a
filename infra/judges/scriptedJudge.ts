// A deterministic judge for demos and tests: the completion behind the core's Judge answers from
// a YAML script. Each answer matches a call by kind (score, recommend, verdict, define) and, optionally,
// by the scenario key the worker is grading and/or a pattern over the judge's prompt (which
// holds the scenario's prompt and the agent's answer). The first match wins, else the kind's
// default, else the call fails with a message naming it — the Judge then skips that call and the
// result is decided on rules, as with any failing judge.
//
//   judge: scripted-judge              # label hint; also the usage's model when none is given
//   defaults:
//     score: '{"score": 0.9}'
//     verdict: { winner: gpt-5-mini, rationale: "Passes more scenarios." }   # written as JSON
//   answers:
//     - kind: score
//       key: refund_order               # optional: only for this scenario
//       prompt: "/refund/i"             # optional: regex (/body/flags) or case-insensitive substring
//       answer: '{"score": 0.2}'
//       usage: { input_tokens: 400, output_tokens: 12, cost: 0.0006 }
//     - kind: recommend
//       error: "rate limited"           # the call fails with this message
import { basename } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { eventSchemas, type JudgeReply, type JudgeRequest } from "@verdict/domain";
import { parseScript, readScriptFile, textMatcher } from "../scripting/index.js";

const KINDS = ["score", "recommend", "verdict", "define"] as const;
export type ScriptedJudgeKind = (typeof KINDS)[number];

/** What the worker knows about a call beyond the request: the pair being graded. */
export interface JudgeCallContext {
  scenarioKey?: string | null;
  modelLabel?: string | null;
}

/** A completion backend the worker wraps in the core's Judge (the CompletionFn port plus a name). */
export interface JudgeBackend {
  readonly name: string;
  complete(request: JudgeRequest, context?: JudgeCallContext): Promise<JudgeReply>;
  /**
   * A backend that serves each run's judge model its own way (model providers): the backend for
   * a run's pin, or why there is none. Without it every run is judged by `complete`.
   */
  forModel?(pin: string | null): JudgeBackend | { reason: string; failsRun: boolean };
}

const answerText = z.union([z.string(), z.record(z.string(), z.unknown())]);
// Bounded as the ResultScored event bounds a judge exchange's usage: past them every score
// append was refused, so a script that loaded fine failed every pair of its runs.
const usage = z
  .object({
    input_tokens: eventSchemas.tokenCount.optional(),
    output_tokens: eventSchemas.tokenCount.optional(),
    cost: eventSchemas.costAmount.optional(),
    model: z.string().min(1).optional(),
  })
  .strict();

const answer = z
  .object({
    kind: z.enum(KINDS),
    key: z.string().min(1).optional(),
    models: z.array(z.string().min(1)).optional(),
    prompt: z.string().min(1).optional(),
    answer: answerText.optional(),
    error: z.string().min(1).optional(),
    usage: usage.optional(),
    latency_ms: z.number().int().min(0).max(600_000).optional(),
  })
  .strict()
  .refine((a) => (a.answer === undefined) !== (a.error === undefined), "needs exactly one of answer or error");

const script = z
  .object({
    judge: z.string().min(1).optional(),
    defaults: z.object({ score: answerText.optional(), recommend: answerText.optional(), verdict: answerText.optional(), define: answerText.optional() }).strict().optional(),
    usage: usage.optional(),
    answers: z.array(answer).default([]),
  })
  .strict();

type Answer = z.infer<typeof answer>;
export type JudgeScript = z.infer<typeof script>;

export class JudgeScriptError extends Error {
  readonly code = "validation";
}

interface Matcher {
  answer: Answer;
  matches(kind: string, prompt: string, context: JudgeCallContext): boolean;
}

export class ScriptedJudge implements JudgeBackend {
  private readonly matchers: Matcher[];

  constructor(
    private readonly script: JudgeScript,
    readonly name = "scripted",
  ) {
    this.matchers = script.answers.map((entry, index) => ({ answer: entry, matches: matcherFor(entry, index) }));
  }

  static fromYaml(text: string, name?: string): ScriptedJudge {
    return new ScriptedJudge(parseScript(text, script, "judge script", (message) => new JudgeScriptError(message)), name);
  }

  /**
   * Reads a script file; one over MAX_SCRIPT_BYTES is refused unread (a script is a few KB). The
   * judge is named by the label its script declares (`judge:`), else `scripted:<file name>`: the
   * name labels a run's judge in its events and reports, where the deployment's directories
   * (`scripted:/srv/app/judge.yaml`) have no place.
   */
  static async load(path: string): Promise<ScriptedJudge> {
    const text = await readScriptFile(path, "judge script", (message) => new JudgeScriptError(message));
    const parsed = parseScript(text, script, "judge script", (message) => new JudgeScriptError(message));
    return new ScriptedJudge(parsed, parsed.judge ?? `scripted:${basename(path)}`);
  }

  /** The label the script gives its judge, when it names one. */
  get judgeName(): string | undefined {
    return this.script.judge;
  }

  async complete(request: JudgeRequest, context: JudgeCallContext = {}): Promise<JudgeReply> {
    const chosen = this.matchers.find((m) => m.matches(request.kind, request.prompt, context))?.answer;
    if (chosen?.latency_ms) await sleep(chosen.latency_ms);
    if (chosen?.error !== undefined) throw new Error(chosen.error);
    const text = chosen?.answer ?? this.script.defaults?.[request.kind as ScriptedJudgeKind];
    if (text === undefined) {
      const scope = context.scenarioKey ? ` on scenario "${context.scenarioKey}"` : "";
      throw new Error(`scripted judge has no answer for a ${request.kind} call${scope}`);
    }
    const model = this.script.judge;
    const reported = { ...(model ? { model } : {}), ...this.script.usage, ...chosen?.usage };
    const body = typeof text === "string" ? text : JSON.stringify(text);
    return Object.keys(reported).length > 0 ? { text: body, usage: reported } : body;
  }
}

function matcherFor(entry: Answer, index: number): Matcher["matches"] {
  const prompt = entry.prompt ? promptMatcher(entry.prompt, index) : null;
  const models = entry.models ? new Set(entry.models) : null;
  return (kind, text, context) =>
    kind === entry.kind &&
    (!entry.key || entry.key === context.scenarioKey) &&
    (!models || (context.modelLabel != null && models.has(context.modelLabel))) &&
    (!prompt || prompt(text));
}

function promptMatcher(pattern: string, index: number): (prompt: string) => boolean {
  try {
    return textMatcher(pattern);
  } catch (error) {
    throw new JudgeScriptError(`judge script: answers.${index}.prompt: ${(error as Error).message}`);
  }
}
