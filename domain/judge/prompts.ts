// What the judge is asked (reference-core §10): the system instructions word for word, and
// each prompt's sections in the reference's order. Answers, prompts and tool output are
// untrusted text; they are fenced and cut to the reference's limits before being sent.

import { humanize, isBlank, rubyNumber, truncate } from "../support/index.js";
import { visibleOnOneLine } from "../support/visibleControls.js";

export const SCORE_INSTRUCTIONS =
  'You are an impartial evaluation judge. Respond ONLY with JSON: {"score": <float between 0.0 and 1.0>}';
export const RECOMMEND_INSTRUCTIONS =
  "You diagnose why an AI agent failed a task and recommend the fix. Respond ONLY with JSON.";
export const VERDICT_INSTRUCTIONS =
  "You are an impartial evaluation judge comparing model cohorts. Respond ONLY with JSON.";

/** How much of the scenario's notes the judge reads (reference NOTES_LIMIT). */
export const NOTES_LIMIT = 1500;
const NO_INSTRUCTIONS = "(no instructions configured)";
const SCORE_REPLY = 'Reply with JSON only: {"score": <float between 0.0 and 1.0>}';

export interface CriterionLike {
  key: string;
  config?: { prompt?: unknown } | null;
}

export interface ScenarioLike {
  prompt: string;
  notes?: string | null;
  expectedTools?: readonly string[];
}

interface ToolCallLike {
  name: string;
  arguments?: unknown;
  error?: unknown;
}

export interface ReplayLike {
  answer?: string | null;
  toolCalls?: readonly ToolCallLike[];
  /** A serialized replay names its calls this way instead. */
  tool_calls?: readonly ToolCallLike[];
}

export interface DiagnosisLike {
  fault: string;
  summary?: string | null;
}

/** What the verdict prompt reads of each model's summary (Report#summaryByModel). */
export interface VerdictSummary {
  pass_rate: number;
  avg_score?: number | null;
  avg_duration_ms?: number | null;
  cost?: number | null;
  faults?: Record<string, number>;
  /** Scenarios run and how many of them were run_errors: a model all of whose pairs errored cannot be picked. */
  scenarios?: number;
  errored?: number;
}

/**
 * The models that may be picked: those with a scored answer (a summary without `scenarios` is
 * taken at its word). A model whose every pair was a run_error, or that ran nothing, never
 * answered: naming it would recommend shipping a model nobody saw work.
 */
export function verdictCandidates(summaries: Readonly<Record<string, VerdictSummary>>): string[] {
  return Object.keys(summaries).filter((label) => hasScoredAnswer(summaries[label]));
}

/** Whether a model's summary has a scored answer: a pair run that was not a run_error (unknown counts say yes). */
export function hasScoredAnswer({ scenarios, errored }: { scenarios?: number; errored?: number }): boolean {
  return typeof scenarios !== "number" || scenarios > (errored ?? 0);
}

const fenced = (text: string): string => `---\n${text}\n---`;

export function criterionPrompt(criterion: CriterionLike, prompt: string, answer: string): string {
  const configured = criterion.config?.prompt;
  const description = typeof configured === "string" && !isBlank(configured) ? configured : humanize(criterion.key);
  return [
    `Criterion: ${description}`,
    "",
    "The user's message:",
    fenced(truncate(prompt, 1500)),
    "",
    "The answer to evaluate:",
    fenced(truncate(answer, 4000)),
    "",
    "Score how well the answer meets the criterion, from 0.0 (not at all) to 1.0 (fully).",
    SCORE_REPLY,
  ].join("\n");
}

export function taskPrompt(scenario: ScenarioLike, answer: string): string {
  const lines = ["The user's task:", fenced(scenario.prompt), ""];
  if (!isBlank(scenario.notes)) lines.push(`Context for the evaluator: ${truncate(scenario.notes as string, NOTES_LIMIT)}`, "");
  lines.push(
    "The agent's answer:",
    fenced(truncate(answer, 4000)),
    "",
    "Score whether the agent completed the task: 0.0 means it was not done (a refusal, a guess, or an unrelated answer); " +
      "1.0 means it was done with specific, tool-backed data and a next step.",
    SCORE_REPLY,
  );
  return lines.join("\n");
}

export function recommendPrompt(input: {
  scenario: ScenarioLike;
  replay: ReplayLike;
  diagnosis: DiagnosisLike;
  availableTools?: Readonly<Record<string, string>>;
  instructions?: string | null;
}): string {
  const { scenario, replay, diagnosis } = input;
  // As the reference writes them: `- name: ` for a tool without a description, and `null` for a
  // call with no arguments (`{}` would tell the judge empty arguments were passed).
  const tools = Object.entries(input.availableTools ?? {}).map(([name, description]) => `- ${name}: ${truncate(description ?? "", 160)}`);
  const calls = (replay.toolCalls ?? replay.tool_calls ?? []).map((call) => {
    const errored = call.error !== undefined && call.error !== null && call.error !== false;
    // The agent names its calls: a line break in a name would start a line of the prompt's own.
    return `- ${visibleOnOneLine(`${call.name}`)}${errored ? " (errored)" : ""}: ${truncate(JSON.stringify(call.arguments ?? null) ?? "null", 200)}`;
  });
  const lines = [
    "The agent's instructions:",
    fenced(isBlank(input.instructions) ? NO_INSTRUCTIONS : truncate(input.instructions as string, 2000)),
    "",
    "Tools available to the agent:",
    ...(tools.length ? tools : ["(none)"]),
    "",
    "The scenario:",
    fenced(scenario.prompt),
  ];
  if (scenario.expectedTools?.length) lines.push(`Expected tools: ${scenario.expectedTools.join(", ")}`);
  if (!isBlank(scenario.notes)) lines.push(`Notes: ${truncate(scenario.notes as string, NOTES_LIMIT)}`);
  lines.push(
    "",
    "Tool calls the agent made:",
    ...(calls.length ? calls : ["(none)"]),
    "",
    "The agent's answer:",
    fenced(isBlank(replay.answer) ? "(empty)" : truncate(replay.answer as string, 2500)),
    "",
    // A summary may repeat a call's name (tool_error's "Tool NAME returned an error").
    `Detected fault: ${diagnosis.fault} — ${visibleOnOneLine(diagnosis.summary ?? "")}`.trimEnd(),
    "",
    "Recommend the one change that would make the agent pass: a tool to add when one is missing, " +
      "or a change to its instructions.",
    'Reply with JSON only: {"recommendation": "<the fix, one or two sentences>", ' +
      '"suggested_tool": {"name": "<tool>", "description": "<what it does>"} or null, ' +
      '"instruction_change": "<a sentence to add to the instructions>" or null}',
  );
  return lines.join("\n");
}

export function verdictPrompt(summaries: Readonly<Record<string, VerdictSummary>>, instructions?: string | null): string {
  const labels = Object.keys(summaries);
  const rows = labels.map((label) => verdictLine(label, summaries[label]));
  const candidates = verdictCandidates(summaries);
  const excluded = labels.filter((label) => !candidates.includes(label));
  return [
    "The agent's goals:",
    fenced(isBlank(instructions) ? NO_INSTRUCTIONS : truncate(instructions as string, 1000)),
    "",
    "Results per model:",
    ...rows,
    "",
    ...(excluded.length > 0 ? [`No answer of ${excluded.join(", ")} was scored (every pair a run_error, or none run), so ${excluded.length === 1 ? "it" : "they"} cannot be picked.`] : []),
    "Which model best serves these goals? Weigh pass rate first, then answer quality, latency and cost.",
    `Reply with JSON only: {"winner": "<one of: ${candidates.join(", ")}>", "rationale": "<one or two sentences>"}`,
  ].join("\n");
}

/** One model's line, numbers printed as Ruby prints them; the judge's own spend is never shown. */
function verdictLine(label: string, summary: VerdictSummary): string {
  const known = (value: number | null | undefined, print: (n: number) => string): string =>
    typeof value === "number" && Number.isFinite(value) ? print(value) : "n/a";
  let line =
    `${label}: pass rate ${rubyNumber(summary.pass_rate)}%, mean score ${known(summary.avg_score, (n) => rubyNumber(n))}, ` +
    `avg latency ${known(summary.avg_duration_ms, (n) => rubyNumber(n, { asFloat: false }))}ms, cost $${known(summary.cost, (n) => rubyNumber(n))}`;
  const faults = Object.entries(summary.faults ?? {});
  if (faults.length) line += `, faults: ${faults.map(([fault, n]) => `${fault}×${n}`).join(", ")}`;
  return line;
}
