// Test helpers: results built from plain values, without running a replay or a scorer.
import type { ReportDiagnosis, ReportResult, ReportToolCall, ResultStatus } from "./reportTypes.js";

interface FakeResultInit {
  key: string;
  label: string;
  status?: ResultStatus;
  prompt?: string;
  score?: number | null;
  scores?: Record<string, number | null>;
  answer?: string | null;
  toolCalls?: ReportToolCall[];
  durationMs?: number | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  cost?: number | null;
  costSource?: string;
  error?: string | null;
  diagnosis?: ReportDiagnosis | null;
  judgeUsage?: Record<string, unknown> | null;
  expectedTools?: string[];
  expectedPatterns?: string[];
  forbiddenPatterns?: string[];
  group?: string | null;
}

export function fakeResult(init: FakeResultInit): ReportResult {
  const diagnosis = init.diagnosis ?? null;
  const cost = init.cost ?? null;
  const replay = {
    answer: init.answer === undefined ? "An answer." : init.answer,
    toolCalls: init.toolCalls ?? [],
    durationMs: init.durationMs ?? null,
    inputTokens: init.inputTokens ?? null,
    outputTokens: init.outputTokens ?? null,
    error: init.error ?? null,
    cost,
    metadata: {
      ...(init.costSource ? { cost_source: init.costSource } : {}),
      ...(init.judgeUsage ? { judge_usage: init.judgeUsage } : {}),
    } as Record<string, unknown>,
  };
  const scenario = {
    key: init.key,
    prompt: init.prompt ?? `Prompt of ${init.key}`,
    group: init.group ?? null,
    expectedTools: init.expectedTools ?? [],
    expectedPatterns: init.expectedPatterns ?? [],
    forbiddenPatterns: init.forbiddenPatterns ?? [],
  };
  const status = init.status ?? (init.error ? "errored" : diagnosis ? "failed" : "passed");
  const result: ReportResult = {
    scenario,
    label: init.label,
    provider: "openai",
    model: init.label,
    status,
    score: init.score === undefined ? 1 : init.score,
    scores: init.scores ?? {},
    replay,
    diagnosis,
    fault: diagnosis?.fault ?? null,
    summary: diagnosis?.summary ?? null,
    recommendation: diagnosis?.recommendation ?? null,
    toJSON: () => ({
      scenario_key: scenario.key,
      prompt: scenario.prompt,
      label: init.label,
      status,
      score: result.score,
      scores: result.scores,
      answer: replay.answer,
      tool_calls: replay.toolCalls,
      duration_ms: replay.durationMs,
      ...(replay.inputTokens != null ? { input_tokens: replay.inputTokens } : {}),
      ...(replay.outputTokens != null ? { output_tokens: replay.outputTokens } : {}),
      cost: replay.cost,
      ...(replay.error != null ? { error: replay.error } : {}),
      fault: result.fault,
      // As a Result writes them: what a rebuilt report reads its cost source and judge spend from.
      ...(replay.metadata.judge_usage ? { judge_usage: replay.metadata.judge_usage } : {}),
      metadata: replay.metadata,
    }),
  };
  return result;
}

/** m1 priced on one of its two results and passing; m2 unpriced and failing both: m1's cost is an estimate (~). */
export function partlyPricedResults(): ReportResult[] {
  const low = { fault: "low_quality", summary: "s", recommendation: "r" } as const;
  return [
    fakeResult({ key: "a", label: "m1", cost: 0.01 }),
    fakeResult({ key: "b", label: "m1" }),
    fakeResult({ key: "a", label: "m2", score: 0.2, diagnosis: low }),
    fakeResult({ key: "b", label: "m2", score: 0.2, diagnosis: low }),
  ];
}

export const model = (label: string): { label: string; provider: string; model: string } => ({ label, provider: "openai", model: label });

/** A Copy as Markdown source of an HTML page, read back as the page's script does: base64 of the Markdown's UTF-8. */
export function markdownSourceOf(html: string, id: string): string {
  const match = new RegExp(`<pre class="md-source" id="${id}" hidden>\\n([A-Za-z0-9+/=]*)</pre>`).exec(html);
  if (!match) throw new Error(`no source ${id}`);
  return Buffer.from(match[1], "base64").toString("utf8");
}
